"""Suspend, resume, check, snapshots, restore and resource health answer, refuse and
store as Heat 27.0.1's own EngineService does.

Stacks are made by OpenKeel, twins made the same way. Heat, pointed at the same
database, calls the operation on one twin and OpenKeel on the other; the answers are
compared, and so are the rows each side wrote. Heat's traversal steps are cast to a
transport nobody reads, so what is compared is how each side starts a traversal (its
state, events, sync points, rows) and the documents both answer from stored rows.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.engine.service import resource_state, snapshots, stack_actions
from keel_app.engine.service import stacks as service
from keel_app.engine.service.stack_update import update_stack
from keel_app.models import Event, ResourceSnapshot, Snapshot, SyncPoint
from keel_app.models import Resource as ResourceRow
from tests import oracle
from tests.engine.service.rows import (
    all_rows,
    set_state,
    stack_events,
    stack_row,
    tags,
    template_row,
)

HEAT_OPERATOR = Path(__file__).with_name("heat_operator.py")
TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "a": {"type": "OS::Heat::TestResource", "properties": {"value": "first"}},
        "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
        "c": {"type": "OS::Heat::RandomString", "properties": {"length": 8}},
    },
}
CHANGED: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {"a": {"type": "OS::Heat::TestResource", "properties": {"value": "second"}}},
}
ENVIRONMENT = {
    "parameters": {},
    "parameter_defaults": {},
    "resource_registry": {},
    "event_sinks": [],
    "encrypted_param_names": [],
}

pytestmark = pytest.mark.oracle


def _heat(database, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    request = {
        "url": database.url.render_as_string(hide_password=False),
        "project": "project-a",
        "config": {},
        "calls": [{"method": method, "arguments": arguments} for method, arguments in calls],
    }
    return oracle.run_json(HEAT_OPERATOR.read_text(), json.dumps(request))


def _ours(function: Any, context, settings, database, queue, **arguments: Any) -> Any:
    try:
        return json.loads(
            json.dumps(function(context, settings, database, queue, **copy.deepcopy(arguments)))
        )
    except Exception as error:
        return {"exception": type(error).__name__, "message": str(error)}


def _twins(context, settings, database, queue, *names: str) -> list[dict[str, str]]:
    made = []
    for name in names:
        made.append(
            service.create_stack(
                context,
                settings,
                database,
                queue,
                stack_name=name,
                template=copy.deepcopy(TEMPLATE),
                params=copy.deepcopy(ENVIRONMENT),
                files={},
                args={"tags": ["blue"]},
            )
        )
        queue.run_until_idle()
    return made


def _stored(database, identity: dict[str, str]) -> dict[str, Any]:
    """What an operation leaves of a stack, the same for twins that did the same."""
    stack_id = identity["stack_id"]
    row = stack_row(database, stack_id)
    template = template_row(database, row.raw_template_id)
    resources = all_rows(database, ResourceRow, stack_id=stack_id)
    return {
        "state": (row.action, row.status, row.status_reason),
        "template": (template.template, template.environment),
        "previous_template": row.prev_raw_template_id is not None,
        "updated": row.updated_at is not None,
        "tags": tags(database, stack_id),
        "resources": sorted(
            (resource.name, resource.action, resource.status, resource.status_reason)
            for resource in resources
        ),
        "sync_points": sorted(
            (point.entity_id == stack_id, point.is_update)
            for point in all_rows(database, SyncPoint, stack_id=stack_id)
        ),
        "events": stack_events(database, stack_id),
        "resource_events": [
            (event.resource_name, event.resource_action, event.resource_status)
            for event in all_rows(database, Event, stack_id=stack_id)
            if event.resource_type != "OS::Heat::Stack"
        ],
    }


def _run_ours(function: Any, context, settings, database, queue, identity) -> None:
    function(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()


@pytest.mark.parametrize("operation", ["stack_suspend", "stack_check", "stack_resume"])
def test_actions_start_traversals_as_heat(context, settings, database, queue, operation) -> None:
    heat_stack, our_stack = _twins(context, settings, database, queue, "heat", "ours")
    if operation == "stack_resume":
        for identity in (heat_stack, our_stack):
            _run_ours(stack_actions.stack_suspend, context, settings, database, queue, identity)
    function = getattr(stack_actions, operation)

    ours = _ours(function, context, settings, database, queue, stack_identity=our_stack)
    heat = _heat(database, [(operation, {"stack_identity": heat_stack})])

    assert [ours] == heat == [None]
    stored = _stored(database, our_stack)
    assert stored == _stored(database, heat_stack)
    assert stored["state"][1] == "IN_PROGRESS"


@pytest.mark.parametrize(
    ("operation", "state"), [("stack_suspend", "SUSPEND"), ("stack_resume", "RESUME")]
)
def test_actions_already_done_are_not_repeated_as_in_heat(
    context, settings, database, queue, operation, state
) -> None:
    heat_stack, our_stack = _twins(context, settings, database, queue, "heat", "ours")
    for identity in (heat_stack, our_stack):
        set_state(database, identity["stack_id"], state, "COMPLETE")
    function = getattr(stack_actions, operation)

    ours = _ours(function, context, settings, database, queue, stack_identity=our_stack)
    heat = _heat(database, [(operation, {"stack_identity": heat_stack})])

    assert [ours] == heat == [None]
    assert _stored(database, our_stack) == _stored(database, heat_stack)
    assert len(queue) == 0


def _comparable_snapshot(answer: dict[str, Any], identity: dict[str, str]) -> dict[str, Any]:
    """A snapshot's answer less what differs between twins (ids, names, times)."""
    answer = copy.deepcopy(answer)
    answer.pop("id")
    answer.pop("creation_time")
    data = answer["data"]
    assert (data.pop("id"), data.pop("name")) == (identity["stack_id"], identity["stack_name"])
    for resource in (data.get("resources") or {}).values():
        resource.pop("resource_id")
        resource["resource_data"].pop("value", None)
    return answer


def test_snapshots_are_taken_as_heat_takes_them(context, settings, database, queue) -> None:
    heat_stack, our_stack = _twins(context, settings, database, queue, "heat", "ours")
    arguments = {"name": "snap"}

    ours = _ours(
        snapshots.stack_snapshot,
        context,
        settings,
        database,
        queue,
        stack_identity=our_stack,
        **arguments,
    )
    (heat,) = _heat(database, [("stack_snapshot", dict(arguments, stack_identity=heat_stack))])

    assert _comparable_snapshot(ours, our_stack) == _comparable_snapshot(heat, heat_stack)
    assert _stored(database, our_stack) == _stored(database, heat_stack)
    assert stack_row(database, our_stack["stack_id"]).current_traversal == ours["id"]
    assert stack_row(database, heat_stack["stack_id"]).current_traversal == heat["id"]
    (our_row,) = all_rows(database, Snapshot, stack_id=our_stack["stack_id"])
    (heat_row,) = all_rows(database, Snapshot, stack_id=heat_stack["stack_id"])
    assert (our_row.tenant, our_row.action, our_row.status) == (
        heat_row.tenant,
        heat_row.action,
        heat_row.status,
    )


def test_snapshots_are_shown_and_listed_as_heat_shows_them(
    context, settings, database, queue
) -> None:
    (identity,) = _twins(context, settings, database, queue, "web")
    taken = snapshots.stack_snapshot(
        context, settings, database, queue, stack_identity=identity, name="snap"
    )
    queue.run_until_idle()
    assert len(all_rows(database, ResourceSnapshot)) == 3
    calls = [
        (snapshots.show_snapshot, {"stack_identity": identity, "snapshot_id": taken["id"]}),
        (snapshots.stack_list_snapshots, {"stack_identity": identity}),
    ]

    ours = [
        _ours(function, context, settings, database, queue, **arguments)
        for function, arguments in calls
    ]
    heat = _heat(database, [(function.__name__, arguments) for function, arguments in calls])

    assert ours == heat
    assert sorted(ours[0]["data"]["resources"]) == ["a", "b", "c"]


def test_snapshot_deletes_start_as_heats(context, settings, database, queue) -> None:
    heat_stack, our_stack = _twins(context, settings, database, queue, "heat", "ours")
    taken = {}
    for identity in (heat_stack, our_stack):
        taken[identity["stack_name"]] = snapshots.stack_snapshot(
            context, settings, database, queue, stack_identity=identity, name="snap"
        )
        queue.run_until_idle()

    ours = _ours(
        snapshots.delete_snapshot,
        context,
        settings,
        database,
        queue,
        stack_identity=our_stack,
        snapshot_id=taken["ours"]["id"],
    )
    heat = _heat(
        database,
        [
            (
                "delete_snapshot",
                {"stack_identity": heat_stack, "snapshot_id": taken["heat"]["id"]},
            )
        ],
    )

    assert [ours] == heat == [None]

    def deleting(identity: dict[str, str]) -> Any:
        (row,) = all_rows(database, Snapshot, stack_id=identity["stack_id"])
        points = all_rows(database, SyncPoint, stack_id=identity["stack_id"])
        return (row.action, row.status, row.status_reason), [
            (point.entity_id == row.id, point.is_update) for point in points
        ]

    assert deleting(our_stack) == deleting(heat_stack)


def test_restores_start_as_heats(context, settings, database, queue) -> None:
    heat_stack, our_stack = _twins(context, settings, database, queue, "heat", "ours")
    taken = {}
    for identity in (heat_stack, our_stack):
        taken[identity["stack_name"]] = snapshots.stack_snapshot(
            context, settings, database, queue, stack_identity=identity, name="snap"
        )
        queue.run_until_idle()
        update_stack(
            context,
            settings,
            database,
            queue,
            stack_identity=identity,
            template=copy.deepcopy(CHANGED),
            params=copy.deepcopy(ENVIRONMENT),
            files={},
            args={},
        )
        queue.run_until_idle()

    ours = _ours(
        snapshots.stack_restore,
        context,
        settings,
        database,
        queue,
        stack_identity=our_stack,
        snapshot_id=taken["ours"]["id"],
    )
    heat = _heat(
        database,
        [("stack_restore", {"stack_identity": heat_stack, "snapshot_id": taken["heat"]["id"]})],
    )

    assert [ours] == heat == [None]
    stored = _stored(database, our_stack)
    assert stored == _stored(database, heat_stack)
    assert stored["state"] == ("RESTORE", "IN_PROGRESS", "Stack RESTORE started")


def test_refusals_answer_as_heat(context, settings, database, queue) -> None:
    complete, busy, other = _twins(context, settings, database, queue, "complete", "busy", "other")
    set_state(database, busy["stack_id"], "UPDATE", "IN_PROGRESS")
    in_progress = snapshots.stack_snapshot(
        context, settings, database, queue, stack_identity=complete, name="snap"
    )
    # The stack is left as before; the snapshot stays IN_PROGRESS.
    queue._pending.clear()
    set_state(database, complete["stack_id"], "CREATE", "COMPLETE")
    other_snapshot = snapshots.stack_snapshot(
        context, settings, database, queue, stack_identity=other, name="snap"
    )
    queue._pending.clear()
    physical_id = all_rows(database, ResourceRow, stack_id=complete["stack_id"], name="a")[0]
    calls = [
        (snapshots.stack_snapshot, {"stack_identity": busy, "name": "s"}),
        (snapshots.show_snapshot, {"stack_identity": complete, "snapshot_id": "nope"}),
        (
            snapshots.show_snapshot,
            {"stack_identity": complete, "snapshot_id": other_snapshot["id"]},
        ),
        (
            snapshots.delete_snapshot,
            {"stack_identity": complete, "snapshot_id": in_progress["id"]},
        ),
        (
            snapshots.stack_restore,
            {"stack_identity": complete, "snapshot_id": in_progress["id"]},
        ),
        (
            resource_state.resource_mark_unhealthy,
            {
                "stack_identity": complete,
                "resource_name": "a",
                "mark_unhealthy": "yes",
                "resource_status_reason": None,
            },
        ),
        (
            resource_state.resource_mark_unhealthy,
            {
                "stack_identity": complete,
                "resource_name": "nope",
                "mark_unhealthy": True,
                "resource_status_reason": None,
            },
        ),
        (resource_state.find_physical_resource, {"physical_resource_id": "nope"}),
        (
            resource_state.find_physical_resource,
            {"physical_resource_id": physical_id.physical_resource_id},
        ),
    ]

    ours = [
        _ours(function, context, settings, database, queue, **arguments)
        for function, arguments in calls
    ]
    heat = _heat(database, [(function.__name__, arguments) for function, arguments in calls])

    assert ours == heat
    assert all("exception" in answer for answer in ours[:-1])


@pytest.mark.parametrize("by_physical_id", [False, True])
def test_mark_unhealthy_stores_what_heat_stores(
    context, settings, database, queue, by_physical_id
) -> None:
    heat_stack, our_stack = _twins(context, settings, database, queue, "heat", "ours")

    def arguments(identity: dict[str, str], unhealthy: bool) -> dict[str, Any]:
        name = "a"
        if by_physical_id:
            (row,) = all_rows(database, ResourceRow, stack_id=identity["stack_id"], name="a")
            name = row.physical_resource_id
        return {
            "stack_identity": identity,
            "resource_name": name,
            "mark_unhealthy": unhealthy,
            "resource_status_reason": "disk gone" if unhealthy else None,
        }

    ours = [
        _ours(
            resource_state.resource_mark_unhealthy,
            context,
            settings,
            database,
            queue,
            **arguments(our_stack, unhealthy),
        )
        for unhealthy in (True, False)
    ]
    heat = _heat(
        database,
        [
            ("resource_mark_unhealthy", arguments(heat_stack, unhealthy))
            for unhealthy in (True, False)
        ],
    )

    assert ours == heat == [None, None]
    assert _stored(database, our_stack) == _stored(database, heat_stack)
    events = [
        (event.resource_action, event.resource_status, event.resource_status_reason)
        for event in all_rows(database, Event, stack_id=our_stack["stack_id"], resource_name="a")
    ]
    assert events[-2:] == [
        ("CHECK", "FAILED", "disk gone"),
        ("CHECK", "COMPLETE", "state changed by resource_mark_unhealthy api"),
    ]


@pytest.mark.parametrize("operation", ["stack_suspend", "stack_resume", "stack_check"])
def test_actions_on_a_stack_in_progress_start_as_in_heat(
    context, settings, database, queue, operation
) -> None:
    # Heat 27 refuses none of them for the stack's state: the traversal takes over.
    heat_stack, our_stack = _twins(context, settings, database, queue, "heat", "ours")
    for identity in (heat_stack, our_stack):
        set_state(database, identity["stack_id"], "UPDATE", "IN_PROGRESS")
    function = getattr(stack_actions, operation)

    ours = _ours(function, context, settings, database, queue, stack_identity=our_stack)
    heat = _heat(database, [(operation, {"stack_identity": heat_stack})])

    assert [ours] == heat == [None]
    stored = _stored(database, our_stack)
    assert stored == _stored(database, heat_stack)
    assert stored["state"][:2] == (operation.split("_")[1].upper(), "IN_PROGRESS")
