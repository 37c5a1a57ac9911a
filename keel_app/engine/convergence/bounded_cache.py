"""A small thread-safe cache that forgets the least recently used entries when full.

Steps of one traversal share what never changes once written (a template version, a
traversal's graph); the worker threads of a process share one of these per kind.

"Full" is counted in entries and, when the cache is given a ``weigh`` function, in the
total weight of its values: the values of one kind differ in size by orders of magnitude
(the graph of a 10,000-resource stack against one of 3), and a cache of 64 large graphs
would keep a worker's memory growing with every large stack it has seen. The newest
entry always stays, whatever it weighs: the steps that built it are about to use it.

With ``max_idle``, an entry no step has asked for in that many seconds goes too: a
traversal's end is seen only by the process that ran its last step, and every other
worker of a fleet would otherwise keep that stack's templates and graph until the cache
filled with others (megabytes a large stack, kept for nothing).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class BoundedCache(Generic[Value]):
    def __init__(
        self,
        size: int,
        capacity: int | None = None,
        weigh: Callable[[Value], int] | None = None,
        max_idle: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.size = size
        self.capacity = capacity
        self.max_idle = max_idle
        self._weigh = weigh
        self._clock = clock
        # key -> (value, weight, when last asked for), least recently asked first.
        self._entries: OrderedDict[Hashable, tuple[Value, int, float]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def get_or_build(self, key: Hashable, build: Callable[[], Value], keep: bool = True) -> Value:
        """The cached value of ``key``, built (outside the lock) on a miss and kept
        unless ``keep`` is False."""
        now = self._clock()
        with self._lock:
            self._forget_idle(now)
            entry = self._entries.get(key)
            if entry is not None:
                self._entries[key] = (entry[0], entry[1], now)
                self._entries.move_to_end(key)
                return entry[0]
        value = build()
        if not keep:
            return value
        weight = self._weigh(value) if self._weigh is not None else 0
        with self._lock:
            self._remove(key)
            self._entries[key] = (value, weight, now)
            self._weight += weight
            while len(self._entries) > 1 and (
                len(self._entries) > self.size
                or (self.capacity is not None and self._weight > self.capacity)
            ):
                self._remove(next(iter(self._entries)))
        return value

    def discard(self, matches: Callable[[Hashable], bool]) -> None:
        """Forget the entries whose keys ``matches``: what no step will ask for again."""
        with self._lock:
            for key in [key for key in self._entries if matches(key)]:
                self._remove(key)

    @property
    def weight(self) -> int:
        return self._weight

    def __len__(self) -> int:
        return len(self._entries)

    def _forget_idle(self, now: float) -> None:
        if self.max_idle is None:
            return
        # Least recently asked first: the idle ones are at the front.
        while self._entries:
            key, (_, _, asked) = next(iter(self._entries.items()))
            if now - asked <= self.max_idle:
                return
            self._remove(key)

    def _remove(self, key: Hashable) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._weight -= entry[1]
