"""A service freezes the objects it built at start-up, so that the cycle collector's full
collections no longer walk them; start-up's garbage is collected first, not kept."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

# Each case runs in a child: freezing is for a process's life, and pytest's own objects
# would be frozen with the test's.
CHILD = textwrap.dedent(
    """
    import gc, json, weakref
    from keel_app.common import startup_heap

    class Registry:
        pass

    kept = [Registry() for _ in range(20000)]
    marker = kept[0]
    # Garbage that only the cycle collector can free: a registry that refers to itself.
    cycle = Registry()
    cycle.self = cycle
    freed = []
    weakref.finalize(cycle, freed.append, True)
    del cycle
    frozen = startup_heap.freeze()
    tracked = gc.get_objects()
    after = Registry()
    print(json.dumps({
        "frozen": frozen,
        "cycle_freed": freed == [True],
        "marker_tracked": any(item is marker for item in tracked),
        "new_object_tracked": any(item is after for item in gc.get_objects()),
    }))
    """
)


def run_child() -> dict[str, object]:
    answer = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True
    )
    return json.loads(answer.stdout)


def test_the_objects_alive_at_start_up_leave_the_collected_generations() -> None:
    result = run_child()
    assert result["frozen"] >= 20000
    assert result["marker_tracked"] is False


def test_garbage_left_by_start_up_is_collected_before_the_freeze() -> None:
    assert run_child()["cycle_freed"] is True


def test_objects_made_after_the_freeze_are_collected_as_usual() -> None:
    assert run_child()["new_object_tracked"] is True
