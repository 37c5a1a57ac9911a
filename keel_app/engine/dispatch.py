"""How the engine sends work to itself: the three casts of Heat's worker topic.

The engine never talks to a broker. It is handed a ``Dispatcher`` and calls one of its
``send_*`` methods; the Celery edge implements them as tasks, the oslo bridge as casts on
``engine_worker``, and tests use ``LocalQueue``, which runs every send in the same process
after the step that sent it has returned.

The argument names are those of Heat's ``WorkerClient`` (spec section 1.3), so a message
can be handed to either implementation unchanged. ``countdown`` is ours: a step that is
still waiting (a ``check_*_complete`` that said "not yet") is sent again to run no sooner
than ``countdown`` seconds later, instead of sleeping inside a worker slot.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Any, Protocol

from keel_app.common.context import RequestContext

CHECK_RESOURCE = "check_resource"
CHECK_RESOURCE_DELETE_SNAPSHOT = "check_resource_delete_snapshot"
CANCEL_CHECK_RESOURCE = "cancel_check_resource"


class Dispatcher(Protocol):
    """What the engine needs from a transport: three casts and a clock."""

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
    ) -> None: ...

    def send_check_resources(self, context: RequestContext, steps: list[dict[str, Any]]) -> None:
        """Send many ``check_resource`` steps at once (a traversal's leaves); each item
        holds the keyword arguments of one ``send_check_resource``."""
        ...

    def send_check_resource_delete_snapshot(
        self,
        context: RequestContext,
        *,
        snapshot_id: str,
        resource_name: str,
        start_time: str,
        is_stack_delete: bool = False,
        current_traversal: str | None = None,
    ) -> None: ...

    def send_cancel_check_resource(
        self, context: RequestContext, *, stack_id: str, engine_id: str
    ) -> None: ...

    def now(self) -> float:
        """Seconds since the epoch, as the transport's scheduler counts them."""
        ...

    def is_engine_alive(self, context: RequestContext, engine_id: str) -> bool:
        """Whether the engine ``engine_id`` still answers (Heat's ``listening`` call)."""
        ...


@dataclasses.dataclass(frozen=True)
class Message:
    """One cast: the method name of Heat's worker API, its context and its arguments."""

    method: str
    context: RequestContext
    arguments: dict[str, Any]
    countdown: float = 0
    engine_id: str | None = None


Handler = Callable[[Message], None]


class CastingDispatcher:
    """The three casts with Heat's argument names, packed the same way for every transport.

    A transport says only how one cast leaves (``_cast``), and gives ``now`` and
    ``is_engine_alive``.
    """

    def _cast(
        self,
        method: str,
        context: RequestContext,
        arguments: dict[str, Any],
        *,
        countdown: float = 0,
        engine_id: str | None = None,
    ) -> None:
        """Send ``method``; ``engine_id`` names the one engine that must run it."""
        raise NotImplementedError

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
        self._cast(CHECK_RESOURCE, context, arguments, countdown=countdown)

    def send_check_resources(self, context: RequestContext, steps: list[dict[str, Any]]) -> None:
        """One cast a step; a transport that can carry several steps in one message
        says so by overriding this."""
        for step in steps:
            self.send_check_resource(context, **step)

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
        self._cast(CHECK_RESOURCE_DELETE_SNAPSHOT, context, arguments)

    def send_cancel_check_resource(
        self, context: RequestContext, *, stack_id: str, engine_id: str
    ) -> None:
        self._cast(CANCEL_CHECK_RESOURCE, context, {"stack_id": stack_id}, engine_id=engine_id)


class LocalQueue(CastingDispatcher):
    """An in-process, single-threaded queue for tests and the all-in-one mode.

    Sends are only recorded; ``run_until_idle`` hands them to the handler one at a time,
    so a step never runs inside the step that sent it. Messages run in order of their due
    time on a virtual clock (send time plus countdown), first sent first among equals; the
    clock jumps forward to the next due message instead of sleeping.
    """

    def __init__(self, handler: Handler | None = None, start_time: float | None = None):
        self.handler = handler
        # The virtual clock starts at the real time, so that rows stamped now compare.
        self._clock = time.time() if start_time is None else start_time
        self._pending: list[tuple[float, int, Message]] = []
        self._sequence = itertools.count()
        self.delivered: list[Message] = []
        # Every engine answers but those a test declares dead.
        self.dead_engines: set[str] = set()

    def now(self) -> float:
        return self._clock

    def is_engine_alive(self, context: RequestContext, engine_id: str) -> bool:
        return engine_id not in self.dead_engines

    def _cast(
        self,
        method: str,
        context: RequestContext,
        arguments: dict[str, Any],
        *,
        countdown: float = 0,
        engine_id: str | None = None,
    ) -> None:
        message = Message(method, context, arguments, countdown, engine_id)
        due = self._clock + max(message.countdown, 0)
        heapq.heappush(self._pending, (due, next(self._sequence), message))

    def __len__(self) -> int:
        return len(self._pending)

    def pending(self) -> list[Message]:
        """The messages not yet run, in the order they would run."""
        return [message for _, _, message in sorted(self._pending)]

    def run_one(self) -> Message | None:
        """Run the next due message, advancing the clock to its due time."""
        if not self._pending:
            return None
        if self.handler is None:
            raise RuntimeError("LocalQueue has no handler to run messages with")
        due, _, message = heapq.heappop(self._pending)
        self._clock = max(self._clock, due)
        self.delivered.append(message)
        self.handler(message)
        return message

    def run_until_idle(self, limit: int = 10_000) -> int:
        """Run messages until none is left; returns how many ran.

        ``limit`` guards a test against a traversal that never ends.
        """
        count = 0
        while self._pending:
            if count >= limit:
                raise RuntimeError(f"LocalQueue still busy after {limit} messages")
            self.run_one()
            count += 1
        return count


class AfterCommit:
    """A dispatcher whose sends leave only once the database's unit of work commits.

    A step that runs in one transaction (``Database.unit_of_work``) decides what to send
    before its commit; a message that left earlier could start a step that does not
    find the rows it was sent for, or be sent for work that is then rolled back.
    Outside a unit of work every send leaves at once.
    """

    def __init__(self, dispatcher: Any, database: Any):
        self.wrapped = dispatcher
        self._database = database

    def send_check_resource(self, context: RequestContext, **arguments: Any) -> None:
        self._database.after_commit(lambda: self.wrapped.send_check_resource(context, **arguments))

    def send_check_resources(self, context: RequestContext, steps: list[dict[str, Any]]) -> None:
        self._database.after_commit(lambda: self.wrapped.send_check_resources(context, steps))

    def send_check_resource_delete_snapshot(
        self, context: RequestContext, **arguments: Any
    ) -> None:
        self._database.after_commit(
            lambda: self.wrapped.send_check_resource_delete_snapshot(context, **arguments)
        )

    def send_cancel_check_resource(self, context: RequestContext, **arguments: Any) -> None:
        self._database.after_commit(
            lambda: self.wrapped.send_cancel_check_resource(context, **arguments)
        )

    def now(self) -> float:
        return float(self.wrapped.now())

    def is_engine_alive(self, context: RequestContext, engine_id: str) -> bool:
        return bool(self.wrapped.is_engine_alive(context, engine_id))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)
