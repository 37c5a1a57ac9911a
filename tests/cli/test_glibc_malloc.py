"""A threaded service process keeps its allocations in two glibc arenas, unless the
operator's MALLOC_ARENA_MAX says otherwise, and hands freed memory back when told to."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

# A child that (maybe) limits its arenas, lets eight threads allocate at once, then
# prints how many heaps glibc's malloc_info reports (the main arena is one of them).
CHILD = textwrap.dedent(
    """
    import ctypes, ctypes.util, sys, tempfile, threading
    from keel_app.cli import glibc_malloc
    taken = glibc_malloc.limit_arenas() if sys.argv[1] == "limit" else None
    start = threading.Barrier(8)
    def churn():
        start.wait()
        for _ in range(2000):
            kept = [bytearray(4096) for _ in range(50)]
            del kept
    threads = [threading.Thread(target=churn) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    with tempfile.NamedTemporaryFile(suffix=".xml") as report:
        stream = libc.fopen(report.name.encode(), b"w")
        libc.malloc_info(0, stream)
        libc.fclose(stream)
        heaps = open(report.name).read().count("<heap nr=")
    print(taken, heaps)
    """
)


def heaps_after_threads(mode: str, **environment: str) -> tuple[str, int]:
    answer = subprocess.run(
        [sys.executable, "-c", CHILD, mode],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **environment},
    )
    taken, heaps = answer.stdout.split()
    return taken, int(heaps)


def test_limited_threads_share_two_arenas() -> None:
    assert heaps_after_threads("limit") == ("True", 2)


def test_without_the_limit_the_threads_spread_over_more_arenas() -> None:
    _, heaps = heaps_after_threads("none")

    assert heaps > 2


def test_an_operators_malloc_arena_max_is_left_as_it_is() -> None:
    assert heaps_after_threads("limit", MALLOC_ARENA_MAX="3") == ("False", 3)


# A child that frees 200 MB of heap blocks below the last one it keeps (which stops
# glibc trimming the heap's top on free), then prints its resident MB before and after
# a trim.
TRIMMING_CHILD = textwrap.dedent(
    """
    from keel_app.cli import glibc_malloc
    def resident_mb():
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    blocks = [bytearray(64 * 1024) for _ in range(3200)]
    del blocks[:-1]
    before = resident_mb()
    glibc_malloc.trim()
    print(before, resident_mb())
    """
)


def test_a_trim_hands_freed_heap_memory_back() -> None:
    answer = subprocess.run(
        [sys.executable, "-c", TRIMMING_CHILD], capture_output=True, text=True, check=True
    )
    before, after = (int(figure) for figure in answer.stdout.split())

    assert before - after > 150
