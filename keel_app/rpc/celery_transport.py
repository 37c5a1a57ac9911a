"""The Celery transport: each call is one ``keel.engine_call`` task on the ``keel.engine``
queue, its reply read back from the result backend.

The caller waits up to the call's timeout (``rpc_response_timeout`` unless the method
has its own) and then raises ``MessagingTimeout``, as an oslo client does; the task
expires at the same moment, so a worker that picks it up later drops it instead of
running a call nobody waits for (oslo gives a call's message the same time to live).
The task itself is ``keel_app.tasks.engine_rpc``; this side only needs its name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import Celery
from celery.exceptions import TaskRevokedError
from celery.exceptions import TimeoutError as CeleryTimeout

from keel_app.common.exception_wire import MessagingTimeout, RemoteError
from keel_app.rpc import reply

ENGINE_CALL_TASK = "keel.engine_call"
# Not oslo's ``engine``: that queue, on the same broker, carries Heat's own envelopes.
ENGINE_QUEUE = "keel.engine"
# heat.conf's rpc_response_timeout default, for an app ``configure`` has not seen.
DEFAULT_TIMEOUT = 60


class CeleryTransport:
    def __init__(
        self,
        app: Celery,
        seal: Callable[[Any], dict[str, Any]],
        *,
        queue: str = ENGINE_QUEUE,
        timeout: float | None = None,
        describe: Callable[[dict[str, Any]], str] | None = None,
    ) -> None:
        """``seal`` turns a request context into the form the task may carry;
        ``describe`` gives the text task events (and so Flower) show of a call's
        arguments, instead of all of them."""
        self.app = app
        self.seal = seal
        self.queue = queue
        self.timeout = timeout
        self.describe = describe

    def _shown(self, message: dict[str, Any]) -> dict[str, Any]:
        return {} if self.describe is None else {"kwargsrepr": self.describe(message)}

    def _message(
        self, context: Any, method: str, arguments: dict[str, Any], version: str
    ) -> dict[str, Any]:
        return {
            "context": self.seal(context),
            "method": method,
            "arguments": arguments,
            "version": version,
        }

    def _timeout(self, timeout: float | None) -> float:
        if timeout is not None:
            return timeout
        if self.timeout is not None:
            return self.timeout
        return float(self.app.conf.get("keel_rpc_response_timeout") or DEFAULT_TIMEOUT)

    def call(
        self,
        context: Any,
        method: str,
        arguments: dict[str, Any],
        version: str,
        timeout: float | None,
    ) -> Any:
        limit = self._timeout(timeout)
        message = self._message(context, method, arguments, version)
        result = self.app.send_task(
            ENGINE_CALL_TASK,
            kwargs=message,
            queue=self.queue,
            expires=limit,
            **self._shown(message),
        )
        try:
            # The caller may be a task itself: Heat's engine calls its own API for
            # nested stacks.
            answer = result.get(timeout=limit, propagate=False, disable_sync_subtasks=False)
        except CeleryTimeout:
            raise MessagingTimeout(
                f"Timed out waiting for a reply to message ID {result.id}"
            ) from None
        finally:
            result.forget()
        if isinstance(answer, TaskRevokedError):
            raise MessagingTimeout(f"Timed out waiting for a reply to message ID {result.id}")
        if isinstance(answer, BaseException):
            # The task itself failed before it could answer (no runtime, a bad message).
            raise RemoteError(type(answer).__name__, str(answer), [])
        return reply.outcome(answer)

    def cast(self, context: Any, method: str, arguments: dict[str, Any], version: str) -> None:
        message = self._message(context, method, arguments, version)
        self.app.send_task(
            ENGINE_CALL_TASK,
            kwargs=message,
            queue=self.queue,
            ignore_result=True,
            **self._shown(message),
        )
