"""An in-process queue that runs the engine's casts on threads of its own, in real time.

The broker of ``keel all-in-one``: the convergence steps a request starts run on a few
worker threads of the same process while the API goes on answering. A step that waits
is sent with a countdown and runs no sooner than that many seconds later; until then no
thread is held. There is one engine in the process, so it is the only one alive: locks
left by the engines of earlier runs are taken over.

Unlike ``LocalQueue`` (the tests' queue, on a virtual clock), messages here are lost
when the process stops; the all-in-one start-up resets what they left IN_PROGRESS.

What a step sends is queued when the step returns, and the thread that ran it takes the
first message itself: another thread woken at once would start a chain's next step while
this one still finishes, the two contending for the interpreter (a chain's hop took
~0.6 ms longer on four threads than on one). Only the rest wake idle threads.

``on_idle`` runs, on the thread whose step emptied the queue and outside its lock, each
time the queue empties: the all-in-one gives memory its stacks freed back to the system.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from keel_app.common.context import RequestContext
from keel_app.engine.dispatch import CastingDispatcher, Handler, Message

LOG = logging.getLogger(__name__)


class BackgroundQueue(CastingDispatcher):
    def __init__(
        self, engine_id: str, threads: int = 4, on_idle: Callable[[], Any] | None = None
    ) -> None:
        if threads < 1:
            raise ValueError("a background queue needs at least one thread")
        self.engine_id = engine_id
        self.thread_count = threads
        self.on_idle = on_idle
        self.handler: Handler | None = None
        self._pending: list[tuple[float, int, Message]] = []
        self._sequence = itertools.count()
        self._running = 0
        lock = threading.Lock()
        # Serving threads wait for work; wait_until_idle for the queue to empty.
        self._work = threading.Condition(lock)
        self._idle = threading.Condition(lock)
        self._stopping = False
        self._threads: list[threading.Thread] = []
        # What the step running on this thread sent, queued when it returns.
        self._held = threading.local()

    def now(self) -> float:
        return time.time()

    def is_engine_alive(self, context: RequestContext, engine_id: str) -> bool:
        return engine_id == self.engine_id

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
        entry = (time.monotonic() + max(countdown, 0), next(self._sequence), message)
        held = getattr(self._held, "messages", None)
        if held is not None:
            held.append(entry)
            return
        with self._work:
            heapq.heappush(self._pending, entry)
            self._work.notify()

    def start(self, handler: Handler) -> None:
        """Start the threads, each running due messages with ``handler``."""
        self.handler = handler
        for number in range(self.thread_count):
            thread = threading.Thread(target=self._serve, name=f"keel-engine-{number}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self, timeout: float = 10) -> None:
        """Let the threads finish the steps they run and end; pending messages are dropped."""
        with self._work:
            self._stopping = True
            self._work.notify_all()
        for thread in self._threads:
            thread.join(timeout)
        self._threads.clear()

    def wait_until_idle(self, timeout: float) -> bool:
        """Whether every message sent so far (and all they sent) ran within ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._pending or self._running:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._idle.wait(remaining)
        return True

    def __len__(self) -> int:
        with self._work:
            return len(self._pending)

    def _next_due(self) -> Message | None:
        """The next message once it is due, or None when the queue stops."""
        with self._work:
            while not self._stopping:
                if self._pending:
                    wait = self._pending[0][0] - time.monotonic()
                    if wait <= 0:
                        self._running += 1
                        return heapq.heappop(self._pending)[2]
                    self._work.wait(wait)
                else:
                    self._work.wait()
            return None

    def _serve(self) -> None:
        assert self.handler is not None
        while (message := self._next_due()) is not None:
            self._held.messages = []
            try:
                self.handler(message)
            except Exception:  # a failed step is the engine's to report; the thread goes on
                LOG.exception("%s failed", message.method)
            finally:
                emptied = self._finished(self._held.messages)
                self._held.messages = None
            if emptied and self.on_idle is not None:
                try:
                    self.on_idle()
                except Exception:
                    LOG.exception("the queue's on_idle failed")

    def _finished(self, sent: list[tuple[float, int, Message]]) -> bool:
        """Queue what a step sent, and wake a thread for each message but the one this
        thread takes next; whether the queue is now empty, nothing running."""
        with self._work:
            self._running -= 1
            for entry in sent:
                heapq.heappush(self._pending, entry)
            if len(sent) > 1:
                self._work.notify(len(sent) - 1)
            if not self._pending and not self._running:
                self._idle.notify_all()
                return True
            return False
