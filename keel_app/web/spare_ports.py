"""Ports for tests and benchmarks to hand to the servers they start.

A port the kernel picks for ``bind(host, 0)`` comes from its ephemeral range, the same
range every outgoing connection and every other bind to port 0 draws from. Between the
moment such a port is handed out and the moment the started server binds it (seconds,
for a service that imports a lot first), anything on the machine may take it, and the
server then exits with "port in use". So the ports handed out here lie outside that
range, where only an explicit bind can take one; each process walks them from its own
starting point, and a port is only handed out once by a process.
"""

from __future__ import annotations

import functools
import os
import socket
import threading
from pathlib import Path

EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
# Linux's default range; other systems start theirs higher still (49152 on BSD and macOS).
DEFAULT_EPHEMERAL = (32768, 60999)
# Below this the well-known and registered services live.
LOWEST = 10000

_lock = threading.Lock()
_next_index: int | None = None


def ephemeral_range(path: Path = EPHEMERAL_RANGE) -> tuple[int, int]:
    """The kernel's ephemeral port range, first and last port included."""
    try:
        low, high = (int(part) for part in path.read_text().split())
    except (OSError, ValueError):
        return DEFAULT_EPHEMERAL
    return low, high


def candidate_ports(ephemeral: tuple[int, int]) -> list[int]:
    """The ports outside ``ephemeral`` that may be handed out: the larger of the span below
    it (down to LOWEST) and the span above it."""
    low, high = ephemeral
    below = list(range(LOWEST, max(low, LOWEST)))
    above = list(range(high + 1, 65536))
    return below if len(below) >= len(above) else above


@functools.cache
def _this_machines_candidates() -> list[int]:
    # The kernel's range is read once a process, not on every port handed out.
    return candidate_ports(ephemeral_range())


def _bindable(host: str, port: int) -> bool:
    # Without SO_REUSEADDR: a port still in TIME_WAIT from an earlier server is skipped too.
    with socket.socket() as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on at ``host`` now, outside the ephemeral range, that this
    process has not handed out before."""
    global _next_index
    candidates = _this_machines_candidates()
    if not candidates:
        return _any_port(host)
    with _lock:
        if _next_index is None:
            # Processes started together (test workers) start far apart.
            _next_index = (os.getpid() * 7919) % len(candidates)
        for _ in range(len(candidates)):
            port = candidates[_next_index % len(candidates)]
            _next_index += 1
            if _bindable(host, port):
                return port
    return _any_port(host)


def _any_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])
