"""A small thread-safe cache that forgets the least recently used entry when full.

Steps of one traversal share what never changes once written (a template version, a
traversal's graph); the worker threads of a process share one of these per kind.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class BoundedCache(Generic[Value]):
    def __init__(self, size: int):
        self.size = size
        self._entries: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_build(self, key: Hashable, build: Callable[[], Value]) -> Value:
        """The cached value of ``key``, built (outside the lock) on a miss."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = build()
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value
