"""The caches steps share: bounded in entries and in the weight of what they keep."""

from __future__ import annotations

import pytest

from keel_app.engine.convergence import traversal_graph
from keel_app.engine.convergence.bounded_cache import BoundedCache


def test_the_least_recently_used_entries_go_when_the_weight_is_over() -> None:
    cache: BoundedCache[list[int]] = BoundedCache(10, capacity=5, weigh=len)
    cache.get_or_build("a", lambda: [1, 2])
    cache.get_or_build("b", lambda: [1, 2])
    cache.get_or_build("a", lambda: [])  # used again: "b" is now the oldest
    cache.get_or_build("c", lambda: [1, 2])

    assert (len(cache), cache.weight) == (2, 4)
    assert cache.get_or_build("a", lambda: [9]) == [1, 2]
    assert cache.get_or_build("b", lambda: [9]) == [9]


def test_the_newest_entry_stays_whatever_it_weighs() -> None:
    cache: BoundedCache[list[int]] = BoundedCache(10, capacity=5, weigh=len)
    cache.get_or_build("small", lambda: [1])
    cache.get_or_build("large", lambda: list(range(50)))

    assert (len(cache), cache.weight) == (1, 50)
    assert cache.get_or_build("large", lambda: []) == list(range(50))


def test_entries_are_counted_without_a_weight() -> None:
    cache: BoundedCache[int] = BoundedCache(2)
    for key in "abc":
        cache.get_or_build(key, lambda: 1)

    assert len(cache) == 2
    assert cache.get_or_build("a", lambda: 2) == 2


def test_discarded_entries_are_built_again() -> None:
    cache: BoundedCache[str] = BoundedCache(10, capacity=100, weigh=len)
    cache.get_or_build(("stack-1", "t1"), lambda: "old")
    cache.get_or_build(("stack-2", "t1"), lambda: "kept")
    cache.discard(lambda key: key[0] == "stack-1")

    assert cache.weight == len("kept")
    assert cache.get_or_build(("stack-1", "t1"), lambda: "new") == "new"
    assert cache.get_or_build(("stack-2", "t1"), lambda: "other") == "kept"


def test_a_stack_whose_traversal_ended_has_its_graphs_read_again() -> None:
    reads = []

    def document() -> dict[str, list[object]]:
        reads.append(1)
        return {"edges": [[[2, True], [1, True]], [[1, True], None]]}

    first = traversal_graph.traversal_graph("stack-x", "traversal-1", document)
    traversal_graph.traversal_graph("stack-x", "traversal-1", document)
    traversal_graph.forget_traversal_graphs("stack-x")
    again = traversal_graph.traversal_graph("stack-x", "traversal-1", document)

    assert len(reads) == 2
    assert str(again.dependencies) == str(first.dependencies)
    assert again.roots == frozenset({traversal_graph.ConvergenceNode(2, True)})


def test_a_value_built_not_to_be_kept_is_built_again_next_time() -> None:
    cache: BoundedCache[str] = BoundedCache(10)

    assert cache.get_or_build("key", lambda: "once", keep=False) == "once"
    assert len(cache) == 0
    assert cache.get_or_build("key", lambda: "kept") == "kept"
    assert cache.get_or_build("key", lambda: "other", keep=False) == "kept"


def test_a_node_a_traversal_does_not_hold_stays_out_of_its_graph() -> None:
    document = {"edges": [[[2, True], [1, True]], [[1, True], None]]}
    graph = traversal_graph.traversal_graph("stack-y", "traversal-1", lambda: document)
    absent = traversal_graph.ConvergenceNode(3, False)

    with pytest.raises(KeyError):
        graph.nodes[absent]
    again = traversal_graph.traversal_graph("stack-y", "traversal-1", lambda: document)
    assert absent not in again.nodes
    traversal_graph.forget_traversal_graphs("stack-y")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_entry_nobody_asked_for_in_max_idle_seconds_goes() -> None:
    clock = Clock()
    cache: BoundedCache[str] = BoundedCache(10, max_idle=60, clock=clock)
    cache.get_or_build("finished", lambda: "old")
    cache.get_or_build("in use", lambda: "kept")
    clock.now = 50
    cache.get_or_build("in use", lambda: "rebuilt")
    clock.now = 61
    cache.get_or_build("new", lambda: "new")

    assert len(cache) == 2
    assert cache.get_or_build("in use", lambda: "rebuilt") == "kept"
    assert cache.get_or_build("finished", lambda: "read again") == "read again"
