"""Fewer glibc malloc arenas for a long-running, threaded OpenKeel process.

glibc gives each thread that allocates concurrently an arena of its own (up to eight per
core). A service whose steps run on several threads then spreads a large stack's
short-lived objects over several arenas, and each keeps its freed memory: keel
all-in-one on four engine threads grew 15% in resident memory over the benchmark matrix
where it grew 8% with two arenas, at the same speed (the interpreter lock, not malloc,
serialises those threads).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os

LOG = logging.getLogger(__name__)

# mallopt's parameter number for the arena limit (malloc.h's M_ARENA_MAX).
_M_ARENA_MAX = -8
ARENAS = 2


def limit(arenas: int = ARENAS) -> bool:
    """Cap the process's malloc arenas, before its threads start; whether it took.

    An operator's MALLOC_ARENA_MAX wins (glibc read it at start-up); a C library other
    than glibc is left alone.
    """
    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):
        return False
    taken = bool(mallopt(_M_ARENA_MAX, arenas))
    if not taken:
        LOG.debug("mallopt(M_ARENA_MAX, %d) was refused", arenas)
    return taken
