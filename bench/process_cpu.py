"""CPU seconds spent by each part of a benchmark's deployment, read from /proc.

A cloud benchmark's wall time is bounded below by the CPU the cloud's own services need
for the work: on a machine of N cores, no orchestrator can finish sooner than that CPU
divided by N. Comparing two readings of :func:`by_part` tells, for one phase, what
OpenKeel, Heat, the cloud and the shared database and broker spent.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

# The first marker found in a process's command line names its part; a process whose
# line has none (a service's worker that renamed itself) is its parent's.
PARTS = (
    ("keel_app.cli", "openkeel"),
    ("openkeel-oracle", "heat"),
    ("openkeel-cloud", "cloud"),
    ("openkeel-keystone", "cloud"),
    ("_entry:application", "cloud"),  # the test cloud's gunicorn services
    ("tools/test-cloud", "cloud"),
    ("mariadbd", "database and broker"),
    ("beam.smp", "database and broker"),
)
TICKS = os.sysconf("SC_CLK_TCK")


def _part(command_line: str) -> str | None:
    for marker, part in PARTS:
        if marker in command_line:
            return part
    return None


def _processes() -> dict[int, tuple[str, int, float]]:
    """Each running process's command line, parent and CPU seconds."""
    found = {}
    for process in Path("/proc").iterdir():
        if not process.name.isdigit():
            continue
        try:
            command_line = (process / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            stat = (process / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        # The fields after the command's name (which may hold spaces): the parent is the
        # 2nd of them, utime and stime the 12th and 13th.
        fields = stat.rpartition(")")[2].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICKS
        found[int(process.name)] = (command_line, int(fields[1]), cpu)
    return found


def by_part() -> Counter[str]:
    """CPU seconds (user and system) each part's running processes have used so far."""
    processes = _processes()
    seconds: Counter[str] = Counter()
    for pid, (_, _, cpu) in processes.items():
        part, ancestor = None, pid
        while part is None and ancestor in processes:
            command_line, parent, _ = processes[ancestor]
            part, ancestor = _part(command_line), parent
        if part is not None:
            seconds[part] += cpu
    return seconds


def spent(before: Counter[str], after: Counter[str]) -> dict[str, float]:
    """What each part spent between two readings (processes that ended meanwhile are
    not counted)."""
    return {part: max(after[part] - before.get(part, 0.0), 0.0) for part in after}


def cores() -> int:
    return len(os.sched_getaffinity(0))
