"""The in-process transport: the engine's service functions called in the caller's own
process and thread (``keel all-in-one``, tests), with the replies a broker would give."""

from __future__ import annotations

from typing import Any

from keel_app.rpc import reply, server


class LocalTransport:
    def __init__(self, settings: Any, database: Any, dispatcher: Any) -> None:
        self.settings = settings
        self.database = database
        self.dispatcher = dispatcher

    def _serve(self, context: Any, method: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return server.serve(
            context, self.settings, self.database, self.dispatcher, method, arguments
        )

    def call(
        self,
        context: Any,
        method: str,
        arguments: dict[str, Any],
        version: str,
        timeout: float | None,
    ) -> Any:
        # Nothing to wait for: the call has run when serve returns.
        return reply.outcome(self._serve(context, method, arguments))

    def cast(self, context: Any, method: str, arguments: dict[str, Any], version: str) -> None:
        # A cast's failure reaches nobody but the engine's log, which serve writes.
        self._serve(context, method, arguments)
