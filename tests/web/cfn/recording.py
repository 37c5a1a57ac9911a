"""A transport that passes engine calls on and writes down what each answered, so that
Heat's API in the oracle can be given the very same answers (``replay_scripted``)."""

from __future__ import annotations

import copy
from typing import Any

from keel_app.rpc.client import Transport


class RecordingTransport:
    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.script: list[tuple[str, dict[str, Any]]] = []

    def call(
        self,
        context: Any,
        method: str,
        arguments: dict[str, Any],
        version: str,
        timeout: float | None,
    ) -> Any:
        try:
            result = self.transport.call(context, method, arguments, version, timeout)
        except Exception as error:
            outcome = {
                "error": type(error).__name__,
                "message": str(error),
                "safe": getattr(error, "safe", False),
            }
            self.script.append((method, outcome))
            raise
        # A copy: the API may reshape the answer in place.
        self.script.append((method, {"result": copy.deepcopy(result)}))
        return result

    def cast(self, context: Any, method: str, arguments: dict[str, Any], version: str) -> None:
        self.transport.cast(context, method, arguments, version)
