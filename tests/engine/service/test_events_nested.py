"""list_events with nested_depth: the events of the stacks nested under a stack."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.engine.service import resources
from keel_app.models import Resource as ResourceRow
from tests import oracle
from tests.engine.service.rows import all_rows
from tests.engine.service.stack_life import create, hot

HEAT_OPERATOR = Path(__file__).with_name("heat_operator.py")
TEMPLATE = hot(
    {
        "group": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {"count": 2, "resource_def": {"type": "OS::Heat::None"}},
        },
        "alone": {"type": "OS::Heat::None"},
    }
)


@pytest.fixture
def identity(context, settings, database, queue) -> dict[str, str]:
    identity = create(context, settings, database, queue, TEMPLATE, name="top")
    queue.run_until_idle()
    return identity


def _child_id(database, identity) -> str:
    (group,) = all_rows(database, ResourceRow, stack_id=identity["stack_id"], name="group")
    return str(group.physical_resource_id)


def _events(context, settings, database, identity, **arguments: Any) -> list[dict[str, Any]]:
    return resources.list_events(
        context, settings, database, None, stack_identity=identity, **arguments
    )


def test_nested_depth_adds_the_events_of_nested_stacks(
    context, settings, database, identity
) -> None:
    child_id = _child_id(database, identity)

    events = _events(context, settings, database, identity, nested_depth=1, sort_dir="asc")

    stacks = {event["stack_identity"]["stack_id"] for event in events}
    assert stacks == {identity["stack_id"], child_id}
    assert {json.dumps(event["root_stack_id"]) for event in events} == {json.dumps(identity)}
    child_events = [event for event in events if event["stack_identity"]["stack_id"] == child_id]
    assert sorted(
        (event["resource_name"], event["resource_status"])
        for event in child_events
        if event["resource_type"] == "OS::Heat::None"
    ) == [("0", "COMPLETE"), ("0", "IN_PROGRESS"), ("1", "COMPLETE"), ("1", "IN_PROGRESS")]
    assert child_events[0]["stack_name"] == child_events[0]["stack_identity"]["stack_name"]
    assert child_events[0]["stack_name"].startswith("top-group-")
    times = [event["event_time"] for event in events]
    assert times == sorted(times)


def test_without_nested_depth_only_the_stacks_own_events(
    context, settings, database, identity
) -> None:
    events = _events(context, settings, database, identity)

    assert {event["stack_identity"]["stack_id"] for event in events} == {identity["stack_id"]}
    assert all("root_stack_id" not in event for event in events)


def test_without_a_stack_the_events_of_every_stack_of_the_project(
    context, settings, database, identity
) -> None:
    child_id = _child_id(database, identity)

    events = resources.list_events(context, settings, database, None, stack_identity=None)

    assert {event["stack_identity"]["stack_id"] for event in events} == {
        identity["stack_id"],
        child_id,
    }
    assert all("root_stack_id" not in event for event in events)


def test_nested_depth_pages_over_every_stack(context, settings, database, identity) -> None:
    everything = _events(context, settings, database, identity, nested_depth=2)

    first = _events(context, settings, database, identity, nested_depth=2, limit=3)
    rest = _events(
        context,
        settings,
        database,
        identity,
        nested_depth=2,
        marker=first[-1]["event_identity"]["path"].rsplit("/", 1)[-1],
    )

    assert first + rest == everything


@pytest.mark.oracle
def test_nested_events_answer_as_heat(context, settings, database, identity) -> None:
    calls = [
        ("list_events", {"stack_identity": identity, "nested_depth": 1}),
        (
            "list_events",
            {
                "stack_identity": identity,
                "nested_depth": 3,
                "filters": {"resource_status": "COMPLETE"},
                "sort_keys": ["resource_type"],
                "sort_dir": "asc",
            },
        ),
        ("list_events", {"stack_identity": identity, "nested_depth": 1, "limit": 4}),
        ("list_events", {"stack_identity": None, "sort_dir": "asc"}),
    ]
    request = {
        "url": database.url.render_as_string(hide_password=False),
        "project": "project-a",
        "config": {},
        "calls": [{"method": method, "arguments": arguments} for method, arguments in calls],
    }

    heat = oracle.run_json(HEAT_OPERATOR.read_text(), json.dumps(request))
    ours = [
        json.loads(
            json.dumps(
                resources.list_events(context, settings, database, None, **copy.deepcopy(arguments))
            )
        )
        for _, arguments in calls
    ]

    assert ours == heat
    assert len(ours[0]) > len(_events(context, settings, database, identity))


def test_events_of_hidden_stacks_are_left_out_of_the_projects_events(
    context, settings, database, queue, identity
) -> None:
    hiding = dataclasses.replace(settings, hidden_stack_tags=("secret",))
    hidden = create(context, hiding, database, queue, TEMPLATE, name="hidden", tags=["secret"])
    queue.run_until_idle()

    events = resources.list_events(context, hiding, database, None, stack_identity=None)

    shown = {event["stack_identity"]["stack_id"] for event in events}
    assert identity["stack_id"] in shown
    assert hidden["stack_id"] not in shown
