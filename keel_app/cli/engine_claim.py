"""The engine of ``keel all-in-one`` claims its state directory, to know its dead predecessor.

A running all-in-one holds an exclusive ``flock`` on ``engine.lock`` in the state
directory, and that file names its engine id. The kernel drops the lock when the process
ends, however it ends (``kill -9`` too), so the next process that gets the lock knows
the engine the file names is dead at once: its service row, still fresh, is no proof of
life. Without the claim a restart after a crash waited for that row to go stale (two
report intervals) before resetting the stacks the dead engine left IN_PROGRESS.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

FILE_NAME = "engine.lock"


class EngineClaim:
    """This process's hold on a state directory: the lock, and the engine id it records."""

    def __init__(self, lock_file: IO[str], previous_engine_id: str | None) -> None:
        self._lock_file = lock_file
        self.previous_engine_id = previous_engine_id

    def record(self, engine_id: str) -> None:
        """Name this process's engine in the file, for whoever takes the claim next."""
        self._lock_file.seek(0)
        self._lock_file.truncate()
        self._lock_file.write(engine_id)
        self._lock_file.flush()
        os.fsync(self._lock_file.fileno())

    def release(self) -> None:
        self._lock_file.close()


def claim(directory: Path) -> EngineClaim | None:
    """The claim on ``directory``, with the engine id its dead holder recorded; None while
    another live process holds it (an all-in-one sharing the directory)."""
    directory.mkdir(parents=True, exist_ok=True)
    lock_file = open(directory / FILE_NAME, "a+", encoding="utf-8")
    try:
        fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock_file.close()
        return None
    lock_file.seek(0)
    previous = lock_file.read().strip() or None
    return EngineClaim(lock_file, previous)
