"""The engine's ``Dispatcher`` as Celery tasks: each send is one task message.

Steps go to the shared ``engine_worker`` queue, which any worker of the fleet consumes;
``cancel_check_resource`` goes to the queue of the engine it names, because only that
engine can stop what it is running. A waiting step's ``countdown`` becomes the task's
ETA, so no worker slot sleeps.
"""

from __future__ import annotations

import time
from typing import Any

from keel_app.common.context import RequestContext
from keel_app.engine.dispatch import (
    CANCEL_CHECK_RESOURCE,
    CHECK_RESOURCE,
    CHECK_RESOURCE_DELETE_SNAPSHOT,
)
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.tasks import context_wire, liveness
from keel_app.tasks.app import app

WORKER_QUEUE = "engine_worker"
TASK_PREFIX = "keel."


def engine_queue(engine_id: str) -> str:
    """The queue only the engine ``engine_id`` consumes (Heat's server-scoped topic)."""
    return f"{WORKER_QUEUE}.{engine_id}"


# Who asked, as Flower shows it; the sealed credentials are only named.
SHOWN_CONTEXT_KEYS = ("request_id", "user", "project_id", "roles")
SHOWN_LENGTH = 1024


def shown_arguments(kwargs: dict[str, Any]) -> str:
    """The task's arguments as task events (and so Flower) show them.

    Celery would build this text itself with its own pure-Python ``saferepr`` of every
    argument, the sealed context included, which costs more than sending the task.
    """
    context = kwargs.get("context") or {}
    shown = {key: context.get(key) for key in SHOWN_CONTEXT_KEYS}
    if context_wire.SEALED_KEY in context:
        shown[context_wire.SEALED_KEY] = "<sealed>"
    text = repr({**kwargs, "context": shown})
    return text if len(text) <= SHOWN_LENGTH else text[: SHOWN_LENGTH - 3] + "..."


class CeleryDispatcher:
    """Sends convergence steps as tasks of the OpenKeel app."""

    def __init__(self, settings: EngineSettings, database: Database):
        self.settings = settings
        self.database = database

    def _send(
        self,
        method: str,
        context: RequestContext,
        arguments: dict[str, Any],
        *,
        queue: str = WORKER_QUEUE,
        countdown: float = 0,
    ) -> None:
        kwargs = {
            "context": context_wire.seal(context, self.settings.auth_encryption_key),
            **arguments,
        }
        app.send_task(
            TASK_PREFIX + method,
            kwargs=kwargs,
            queue=queue,
            countdown=countdown if countdown > 0 else None,
            argsrepr="()",
            kwargsrepr=shown_arguments(kwargs),
        )

    def send_check_resource(
        self,
        context: RequestContext,
        *,
        resource_id: int,
        current_traversal: str,
        data: dict[str, Any],
        is_update: bool,
        adopt_stack_data: dict[str, Any] | None,
        converge: bool = False,
        skip_propagate: bool = False,
        accumulated_failures: dict[str, str] | None = None,
        node_type: str = "resource",
        abandon: bool = False,
        countdown: float = 0,
    ) -> None:
        arguments = {
            "resource_id": resource_id,
            "current_traversal": current_traversal,
            "data": data,
            "is_update": is_update,
            "adopt_stack_data": adopt_stack_data,
            "converge": converge,
            "skip_propagate": skip_propagate,
            "accumulated_failures": accumulated_failures,
            "node_type": node_type,
            "abandon": abandon,
        }
        self._send(CHECK_RESOURCE, context, arguments, countdown=countdown)

    def send_check_resource_delete_snapshot(
        self,
        context: RequestContext,
        *,
        snapshot_id: str,
        resource_name: str,
        start_time: str,
        is_stack_delete: bool = False,
        current_traversal: str | None = None,
    ) -> None:
        arguments = {
            "snapshot_id": snapshot_id,
            "resource_name": resource_name,
            "start_time": start_time,
            "is_stack_delete": is_stack_delete,
            "current_traversal": current_traversal,
        }
        self._send(CHECK_RESOURCE_DELETE_SNAPSHOT, context, arguments)

    def send_cancel_check_resource(
        self, context: RequestContext, *, stack_id: str, engine_id: str
    ) -> None:
        self._send(
            CANCEL_CHECK_RESOURCE, context, {"stack_id": stack_id}, queue=engine_queue(engine_id)
        )

    def now(self) -> float:
        return time.time()

    def is_engine_alive(self, context: RequestContext, engine_id: str) -> bool:
        if engine_id == self.settings.engine_id:
            return True
        return liveness.is_engine_alive(self.database, engine_id)
