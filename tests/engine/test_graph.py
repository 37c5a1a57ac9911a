"""The dependency graph against golden strings."""

from __future__ import annotations

import pytest

from keel_app.common.exception import CircularDependencyException
from keel_app.engine.graph import Dependencies


def diamond() -> Dependencies:
    # top needs left and right; both need bottom.
    return Dependencies(
        [("top", "left"), ("top", "right"), ("left", "bottom"), ("right", "bottom")]
    )


def test_string_form_lists_nodes_in_insertion_order_and_requirements_sorted() -> None:
    assert str(diamond()) == "{left: {bottom}, top: {left, right}, right: {bottom}, bottom: {}}"


def test_repr_lists_sorted_edges_and_only_isolated_nodes_alone() -> None:
    assert repr(Dependencies([("a", "b"), ("c", None)])) == (
        "Dependencies([('a', 'b'), ('c', None)])"
    )


def test_iteration_puts_required_nodes_first() -> None:
    assert list(diamond()) == ["bottom", "left", "right", "top"]


def test_reversed_iteration_puts_requirers_first() -> None:
    assert list(reversed(diamond())) == ["top", "left", "right", "bottom"]


def test_a_node_without_edges_is_kept() -> None:
    assert list(Dependencies([("alone", None)])) == ["alone"]


def test_cycle_names_the_unordered_part_of_the_graph() -> None:
    # "d" can be ordered; what is left is the cycle, in the order its nodes were added.
    graph = Dependencies([("a", "b"), ("b", "c"), ("c", "a"), ("d", None), ("c", "d")])
    with pytest.raises(CircularDependencyException) as raised:
        list(graph)
    assert str(raised.value) == "Circular Dependency Found: {b: {c}, a: {b}, c: {a}}"


def test_subgraph_holds_a_node_and_everything_that_requires_it() -> None:
    assert str(diamond()["left"]) == "{left: {}, top: {left}}"
    assert str(diamond()["top"]) == "{top: {}}"


def test_leaves_and_roots() -> None:
    graph = diamond()
    assert list(graph.leaves()) == ["bottom"]
    assert list(graph.roots()) == ["top"]


def test_required_by_and_requires() -> None:
    graph = diamond()
    assert sorted(graph.required_by("bottom")) == ["left", "right"]
    assert sorted(graph.requires("top")) == ["left", "right"]
    with pytest.raises(KeyError):
        graph.requires("nowhere")


def test_translate_maps_every_key() -> None:
    assert str(diamond().translate(str.upper)) == (
        "{BOTTOM: {}, LEFT: {BOTTOM}, TOP: {LEFT, RIGHT}, RIGHT: {BOTTOM}}"
    )
