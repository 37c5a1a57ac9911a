"""The engine's ``Dispatcher`` as Celery tasks: each send is one task message.

Steps go to the shared ``engine_worker`` queue, which any worker of the fleet consumes;
``cancel_check_resource`` goes to the queue of the engine it names, because only that
engine can stop what it is running. A waiting step's ``countdown`` becomes the task's
ETA, so no worker slot sleeps.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from keel_app.common.context import RequestContext
from keel_app.engine.dispatch import CHECK_RESOURCE, CastingDispatcher
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.tasks import context_wire, liveness
from keel_app.tasks.app import app

# Prefixed: oslo.messaging's own queues of Heat's topics (``engine_worker``, and
# ``engine_worker.<engine id>`` for every engine the bridge stands in for) live on the same
# broker and vhost, and a queue shared by both would mix their message formats.
WORKER_QUEUE = "keel.engine_worker"
TASK_PREFIX = "keel."


# Leaves are spread over at least this many messages, to keep a fleet's threads busy...
LEAF_MESSAGES = 32
# ...with at most this many steps in one: a step waits for those before it in its message.
MAX_STEPS_PER_MESSAGE = 50
CHECK_RESOURCE_BATCH = "check_resource_batch"


def steps_per_message(count: int) -> int:
    """How many of ``count`` leaves one message carries (1: each its own task)."""
    return max(1, min(MAX_STEPS_PER_MESSAGE, -(-count // LEAF_MESSAGES)))


def engine_queue(engine_id: str) -> str:
    """The queue only the engine ``engine_id`` consumes (like Heat's server-scoped topic)."""
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


class CeleryDispatcher(CastingDispatcher):
    """Sends convergence steps as tasks of the OpenKeel app."""

    def __init__(
        self,
        settings: EngineSettings,
        database: Database,
        ask_heat_engine: Callable[[str], bool] | None = None,
    ):
        """``ask_heat_engine(engine_id)`` asks an engine that is no keel-worker, a Heat
        engine of a mixed fleet, whether it is alive (Heat's ``listening`` call)."""
        self.settings = settings
        self.database = database
        self.ask_heat_engine = ask_heat_engine
        self._continuations = threading.local()

    @contextlib.contextmanager
    def continuation(self) -> Iterator[list[tuple[RequestContext, dict[str, Any]]]]:
        """While a step's task runs in this thread: the one next step it may run itself.

        The first ``check_resource`` the step sends with no delay is kept here instead of
        leaving as a message, and the task runs it next. A chain then goes on in one
        thread without a trip through the broker a hop. Nothing is lost with the worker:
        the task's own message is acknowledged only after the step it kept has run, and
        a step delivered again re-sends what follows it.
        """
        kept: list[tuple[RequestContext, dict[str, Any]]] = []
        self._continuations.kept = kept
        try:
            yield kept
        finally:
            self._continuations.kept = None

    def _cast(
        self,
        method: str,
        context: RequestContext,
        arguments: dict[str, Any],
        *,
        countdown: float = 0,
        engine_id: str | None = None,
    ) -> None:
        kept = getattr(self._continuations, "kept", None)
        continues = method == CHECK_RESOURCE and engine_id is None and countdown <= 0
        if continues and kept is not None and not kept:
            kept.append((context, arguments))
            return
        queue = WORKER_QUEUE if engine_id is None else engine_queue(engine_id)
        kwargs = {
            "context": context_wire.seal(context, self.settings.auth_encryption_key),
            **arguments,
        }
        app.send_task(
            TASK_PREFIX + method,
            kwargs=kwargs,
            queue=queue,
            countdown=countdown if countdown > 0 else None,
            # A cast, as in Heat: nobody waits for a step's result, so the sender does not
            # subscribe to it in the result backend (two Redis round trips a send).
            ignore_result=True,
            argsrepr="()",
            kwargsrepr=shown_arguments(kwargs),
        )

    def send_check_resources(self, context: RequestContext, steps: list[dict[str, Any]]) -> None:
        """A traversal's leaves, several steps a ``keel.check_resource_batch`` message when
        there are many: sending and receiving a message cost a step more than its own
        work, and a stack of thousands of independent resources is nearly all leaves."""
        size = steps_per_message(len(steps))
        if size == 1:
            super().send_check_resources(context, steps)
            return
        for start in range(0, len(steps), size):
            self._cast(CHECK_RESOURCE_BATCH, context, {"steps": steps[start : start + size]})

    def now(self) -> float:
        return time.time()

    def is_engine_alive(self, context: RequestContext, engine_id: str) -> bool:
        if engine_id == self.settings.engine_id:
            return True
        if liveness.is_engine_alive(self.database, engine_id):
            return True
        return self.ask_heat_engine is not None and self.ask_heat_engine(engine_id)
