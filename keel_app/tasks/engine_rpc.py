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
from keel_app.tasks.dispatcher import shown_arguments
from keel_app.tasks.runtime import current

# The arguments of a call that task events (and so Flower) show; the rest (templates,
# parameters, files, adopt data, signal details, configs) may hold a user's secrets and
# are only named.
SHOWN_CALL_ARGUMENTS = frozenset(
    {
        "stack_identity",
        "stack_name",
        "resource_name",
        "event_id",
        "snapshot_id",
        "config_id",
        "deployment_id",
        "server_id",
        "type_name",
        "nested_depth",
        "limit",
        "marker",
    }
)
NOT_SHOWN = "<not shown>"


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


def shown_call(message: dict[str, Any]) -> str:
    """What task events show of an ``engine_call``: who asks, the method, and only the
    identifying arguments' values."""
    arguments = {
        name: value if name in SHOWN_CALL_ARGUMENTS else NOT_SHOWN
        for name, value in (message.get("arguments") or {}).items()
    }
    return shown_arguments({**message, "arguments": arguments})


def engine_client(
    encryption_key: str, *, queue: str = ENGINE_QUEUE, timeout: float | None = None
) -> EngineClient:
    """An EngineClient whose calls are ``keel.engine_call`` tasks of this app."""
    seal = functools.partial(context_wire.seal, encryption_key=encryption_key)
    return EngineClient(
        CeleryTransport(app, seal, queue=queue, timeout=timeout, describe=shown_call)
    )
