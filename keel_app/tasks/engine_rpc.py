"""The engine's RPC surface as one Celery task: ``keel.engine_call``.

A call carries Heat's method name and arguments (``keel_app.rpc``) and the sealed
context; the task answers with the call's reply, result or failure, which the caller
reads from the result backend. Unlike convergence steps, a call is acknowledged when it
is received: creating a stack twice because a worker died half-way is worse than the
caller's timeout, and oslo's RPC servers acknowledge on receipt too.
"""

from __future__ import annotations

import functools
from typing import Any

from keel_app.rpc import reply, server
from keel_app.rpc.celery_transport import ENGINE_CALL_TASK, ENGINE_QUEUE, CeleryTransport
from keel_app.rpc.client import EngineClient
from keel_app.tasks import context_wire
from keel_app.tasks.app import app
from keel_app.tasks.runtime import current


@app.task(name=ENGINE_CALL_TASK, acks_late=False)
def engine_call(
    context: dict[str, Any],
    method: str,
    arguments: dict[str, Any],
    version: str | None = None,
) -> dict[str, Any]:
    runtime = current()
    try:
        caller = context_wire.unseal(context, runtime.settings.auth_encryption_key)
    except Exception as error:
        return reply.failure_reply(error)
    return server.serve(
        caller, runtime.settings, runtime.database, runtime.dispatcher, method, arguments
    )


def engine_client(
    encryption_key: str, *, queue: str = ENGINE_QUEUE, timeout: float | None = None
) -> EngineClient:
    """An EngineClient whose calls are ``keel.engine_call`` tasks of this app."""
    seal = functools.partial(context_wire.seal, encryption_key=encryption_key)
    return EngineClient(CeleryTransport(app, seal, queue=queue, timeout=timeout))
