"""Scenario: the edges a type implies (``add_dependencies``) order the traversal as the
template's own do, as in Heat's graph; a type that cannot say what it implies leaves the
template's edges standing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.engine.environment.global_environment import global_env
from keel_app.resources.heat.none import NoneResource
from tests.engine.convergence.harness import Engine

FOLLOWER = "Keel::Test::Follower"
CONFUSED = "Keel::Test::Confused"
READER = "Keel::Test::Reader"


class Follower(NoneResource):
    """Comes after every OS::Heat::None of its stack, though no property says so."""

    def add_dependencies(self, deps: Any) -> None:
        super().add_dependencies(deps)
        for other in self.stack.resources.values():
            if other.t.resource_type == "OS::Heat::None":
                deps += (self, other)


class Confused(NoneResource):
    def add_dependencies(self, deps: Any) -> None:
        raise ValueError("not valid yet")


class Reader(NoneResource):
    """Comes after what the resources it requires require, read from the graph by
    resource as a Heat type reads it (a floating IP looks at its ports' subnets)."""

    def add_dependencies(self, deps: Any) -> None:
        super().add_dependencies(deps)
        graph = deps.graph()
        for required in graph[self]:
            for further in graph[required]:
                deps += (self, further)


@pytest.fixture(autouse=True)
def types() -> Iterator[None]:
    registry = global_env().registry
    registry.register_class(FOLLOWER, Follower)
    registry.register_class(CONFUSED, Confused)
    registry.register_class(READER, Reader)
    yield
    registry._registry.pop(FOLLOWER)
    registry._registry.pop(CONFUSED)
    registry._registry.pop(READER)


def completed_order(engine: Engine, stack_id: str) -> list[str]:
    return [
        name
        for name, action, status, _ in engine.events(stack_id)
        if (action, status) == ("CREATE", "COMPLETE") and name != "demo"
    ]


def test_a_type_waits_for_what_it_implies(engine: Engine) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "follower": {"type": FOLLOWER},
            "first": {"type": "OS::Heat::None"},
            "second": {"type": "OS::Heat::None"},
        },
    }

    stack_id = engine.create(template)

    order = completed_order(engine, stack_id)
    assert sorted(order[:2]) == ["first", "second"] and order[2] == "follower"
    [follower] = [row for row in engine.resources(stack_id) if row.name == "follower"]
    others = {row.id for row in engine.resources(stack_id) if row.name != "follower"}
    assert set(follower.requires) == others


def test_an_error_in_what_a_type_implies_leaves_the_template_edges(engine: Engine) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "confused": {"type": CONFUSED, "depends_on": ["first"]},
            "first": {"type": "OS::Heat::None"},
        },
    }

    stack_id = engine.create(template)

    assert engine.stack_row(stack_id).status == "COMPLETE"
    assert completed_order(engine, stack_id) == ["first", "confused"]


def test_a_type_reads_the_graph_by_resource(engine: Engine) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "reader": {"type": READER, "depends_on": ["middle"]},
            "middle": {"type": "OS::Heat::None", "depends_on": ["first"]},
            "first": {"type": "OS::Heat::None"},
        },
    }

    stack_id = engine.create(template)

    [reader] = [row for row in engine.resources(stack_id) if row.name == "reader"]
    others = {row.id for row in engine.resources(stack_id) if row.name != "reader"}
    assert set(reader.requires) == others
