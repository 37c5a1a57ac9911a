"""Scenario: the parent is updated while its group's nested stack is still being created.
The new traversal finds the group busy and cancels the child's create (Heat's
``handle_preempt``); the group fails with the child's reason, then the new traversal
takes it over and updates the child to the new definition."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.engine.convergence.nested import NestedEngine, nested_engine


def group(count: int, wait_secs: int) -> dict[str, Any]:
    member = {"type": "OS::Heat::TestResource", "properties": {"wait_secs": wait_secs}}
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": count, "resource_def": member},
            }
        },
    }


@pytest.fixture
def nested(empty_database_url: str) -> Iterator[NestedEngine]:
    yield from nested_engine(empty_database_url)


def _members_being_created(nested: NestedEngine, stack_id: str) -> bool:
    children = nested.children(stack_id)
    if not children:
        return False
    return set(nested.states(children[0].id).values()) == {("CREATE", "IN_PROGRESS")}


@pytest.fixture
def preempted(nested: NestedEngine) -> dict[str, str]:
    """A parent whose update started while the group's members were still being created."""
    identity = nested.create(group(2, 30), run=False)
    while not _members_being_created(nested, identity["stack_id"]):
        nested.queue.run_one()
    nested.update(identity, group(3, 0))
    return identity


def test_the_child_create_is_cancelled_then_the_child_updated(
    nested: NestedEngine, preempted: dict[str, str]
) -> None:
    child = nested.child(preempted["stack_id"])
    name = child.name
    stack_events = [event for event in nested.events(child.id) if event[0] == name]
    assert stack_events == [
        (name, "CREATE", "IN_PROGRESS"),
        (name, "CREATE", "FAILED"),
        (name, "UPDATE", "IN_PROGRESS"),
        (name, "UPDATE", "COMPLETE"),
    ]
    assert nested.states(child.id) == {
        "1": ("UPDATE", "COMPLETE"),
        "0": ("UPDATE", "COMPLETE"),
        "2": ("CREATE", "COMPLETE"),
    }


def test_the_group_fails_with_the_cancellation_then_is_updated(
    nested: NestedEngine, preempted: dict[str, str]
) -> None:
    parent = nested.stack(preempted["stack_id"])
    assert (parent.action, parent.status) == ("UPDATE", "COMPLETE")
    group_events = [event for event in nested.events(parent.id) if event[0] == "group"]
    assert group_events == [
        ("group", "CREATE", "IN_PROGRESS"),
        ("group", "CREATE", "FAILED"),
        ("group", "UPDATE", "IN_PROGRESS"),
        ("group", "UPDATE", "COMPLETE"),
    ]
    assert nested.reasons(parent.id, "group")[1] == "resources.group: Stack CREATE cancelled"
