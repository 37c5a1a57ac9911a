"""Snapshots: taken as SNAPSHOT traversals, shown, listed, deleted by steps, restored."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.engine.dispatch import CHECK_RESOURCE_DELETE_SNAPSHOT
from keel_app.engine.service import snapshots
from keel_app.engine.service import stacks as service
from keel_app.models import ResourceSnapshot, Snapshot, SyncPoint
from tests.engine.service.rows import all_rows, set_state, stack_row, states, template_row
from tests.engine.service.stack_life import create, hot, stack_state, update

TEMPLATE = hot(
    {
        "a": {"type": "OS::Heat::TestResource", "properties": {"value": "first"}},
        "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
    },
    outputs={"value": {"value": {"get_attr": ["a", "output"]}}},
)


def _created(context, settings, database, queue, **args: Any) -> dict[str, str]:
    identity = create(context, settings, database, queue, TEMPLATE, tags=["blue"], **args)
    queue.run_until_idle()
    return identity


def _snapshot(context, settings, database, queue, identity, name: str = "snap") -> dict[str, Any]:
    answer = snapshots.stack_snapshot(
        context, settings, database, queue, stack_identity=identity, name=name
    )
    queue.run_until_idle()
    return answer


def _show(context, settings, database, queue, identity, snapshot_id: str) -> dict[str, Any]:
    return snapshots.show_snapshot(
        context, settings, database, queue, stack_identity=identity, snapshot_id=snapshot_id
    )


def test_a_snapshot_is_a_traversal_whose_id_is_the_snapshots(
    context, settings, database, queue
) -> None:
    identity = _created(context, settings, database, queue)

    answer = snapshots.stack_snapshot(
        context, settings, database, queue, stack_identity=identity, name="snap"
    )

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.current_traversal) == (
        "SNAPSHOT",
        "IN_PROGRESS",
        answer["id"],
    )
    assert answer["name"] == "snap"
    assert (answer["action"], answer["status"], answer["status_reason"]) == (
        "CREATE",
        "IN_PROGRESS",
        None,
    )
    assert answer["creation_time"] is not None
    # The stack as it was when asked, without its resources.
    assert answer["data"] == {
        "name": "life",
        "id": identity["stack_id"],
        "action": "CREATE",
        "status": "COMPLETE",
        "environment": {
            "parameters": {},
            "resource_registry": {"resources": {}},
            "parameter_defaults": {},
            "event_sinks": [],
        },
        "files": {},
        "template": TEMPLATE,
        "resources": {},
        "project_id": "project-a",
        "stack_user_project_id": None,
        "tags": ["blue"],
    }

    queue.run_until_idle()

    assert stack_state(database, identity) == (
        "SNAPSHOT",
        "COMPLETE",
        "Stack SNAPSHOT completed successfully",
    )
    assert states(database, identity["stack_id"]) == {
        "a": ("SNAPSHOT", "COMPLETE"),
        "b": ("SNAPSHOT", "COMPLETE"),
    }
    (stored,) = all_rows(database, Snapshot, stack_id=identity["stack_id"])
    assert (stored.action, stored.status, stored.status_reason, stored.tenant) == (
        "CREATE",
        "COMPLETE",
        "Stack SNAPSHOT completed successfully",
        "project-a",
    )
    assert (stored.data["action"], stored.data["status"]) == ("SNAPSHOT", "COMPLETE")
    resource_snapshots = {
        row.resource_name: row.data for row in all_rows(database, ResourceSnapshot)
    }
    assert sorted(resource_snapshots) == ["a", "b"]
    assert resource_snapshots["b"] == {
        "name": "b",
        "resource_id": resource_snapshots["b"]["resource_id"],
        "type": "OS::Heat::None",
        "action": "SNAPSHOT",
        "status": "COMPLETE",
        "metadata": {},
        "resource_data": {"is_placeholder": "True"},
    }
    assert all_rows(database, SyncPoint, stack_id=identity["stack_id"]) == []


def test_a_snapshot_shows_its_resource_snapshots(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    taken = _snapshot(context, settings, database, queue, identity)

    shown = _show(context, settings, database, queue, identity, taken["id"])
    listed = snapshots.stack_list_snapshots(
        context, settings, database, queue, stack_identity=identity
    )

    assert listed == [shown]
    assert (shown["id"], shown["name"], shown["status"]) == (taken["id"], "snap", "COMPLETE")
    assert sorted(shown["data"]["resources"]) == ["a", "b"]
    assert shown["data"]["resources"]["a"]["type"] == "OS::Heat::TestResource"
    assert shown["creation_time"] == taken["creation_time"]


def test_no_snapshot_while_the_stack_is_in_progress(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    set_state(database, identity["stack_id"], "UPDATE", "IN_PROGRESS")

    with pytest.raises(exception.ActionInProgress) as raised:
        snapshots.stack_snapshot(
            context, settings, database, queue, stack_identity=identity, name="snap"
        )

    assert str(raised.value) == "Stack life already has an action (UPDATE) in progress."
    assert all_rows(database, Snapshot) == []


def test_snapshots_per_stack_are_limited(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    limited = dataclasses.replace(settings, max_snapshots_per_stack=1)
    _snapshot(context, limited, database, queue, identity)

    with pytest.raises(exception.RequestLimitExceeded) as raised:
        snapshots.stack_snapshot(
            context, limited, database, queue, stack_identity=identity, name="more"
        )

    assert str(raised.value) == (
        "Request limit exceeded: You have reached the maximum snapshots per stack, 1. "
        "Please delete some snapshots."
    )


def test_a_snapshot_of_another_stack_is_not_found(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    other = create(context, settings, database, queue, TEMPLATE, name="other")
    queue.run_until_idle()
    taken = _snapshot(context, settings, database, queue, other)

    with pytest.raises(exception.SnapshotNotFound) as raised:
        _show(context, settings, database, queue, identity, taken["id"])
    assert str(raised.value) == f"The Snapshot ({taken['id']}) for Stack (life) could not be found."
    with pytest.raises(exception.NotFound) as raised:
        _show(context, settings, database, queue, identity, "nope")
    assert str(raised.value) == "Snapshot with id nope not found"


def test_deleting_a_snapshot_sends_one_step_per_resource(
    context, settings, database, queue
) -> None:
    identity = _created(context, settings, database, queue)
    taken = _snapshot(context, settings, database, queue, identity)

    snapshots.delete_snapshot(
        context, settings, database, queue, stack_identity=identity, snapshot_id=taken["id"]
    )

    (row,) = all_rows(database, Snapshot)
    assert (row.action, row.status, row.status_reason) == (
        "DELETE",
        "IN_PROGRESS",
        "Snapshot delete started",
    )
    sent = [message for message in queue.pending()]
    assert [message.method for message in sent] == [CHECK_RESOURCE_DELETE_SNAPSHOT] * 2
    assert sorted(message.arguments["resource_name"] for message in sent) == ["a", "b"]
    assert {message.arguments["snapshot_id"] for message in sent} == {taken["id"]}
    assert [point.entity_id for point in all_rows(database, SyncPoint)] == [taken["id"]]

    queue.run_until_idle()

    assert all_rows(database, Snapshot) == []
    assert all_rows(database, ResourceSnapshot) == []
    assert all_rows(database, SyncPoint) == []


def test_a_snapshot_in_progress_cannot_be_deleted(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    taken = snapshots.stack_snapshot(
        context, settings, database, queue, stack_identity=identity, name="snap"
    )

    with pytest.raises(exception.NotSupported) as raised:
        snapshots.delete_snapshot(
            context, settings, database, queue, stack_identity=identity, snapshot_id=taken["id"]
        )

    assert str(raised.value) == "Deleting in-progress snapshot is not supported."


def test_restore_converges_on_the_snapshots_template(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    taken = _snapshot(context, settings, database, queue, identity)
    changed = hot(
        {
            "a": {"type": "OS::Heat::TestResource", "properties": {"value": "second"}},
            "c": {"type": "OS::Heat::None"},
        }
    )
    update(context, settings, database, queue, identity, changed)
    queue.run_until_idle()
    assert sorted(states(database, identity["stack_id"])) == ["a", "c"]

    snapshots.stack_restore(
        context, settings, database, queue, stack_identity=identity, snapshot_id=taken["id"]
    )
    queue.run_until_idle()

    assert stack_state(database, identity) == (
        "RESTORE",
        "COMPLETE",
        "Stack RESTORE completed successfully",
    )
    row = stack_row(database, identity["stack_id"])
    assert template_row(database, row.raw_template_id).template == TEMPLATE
    assert states(database, identity["stack_id"]) == {
        "a": ("UPDATE", "COMPLETE"),
        "b": ("CREATE", "COMPLETE"),
    }
    outputs = service.list_outputs(context, settings, database, queue, stack_identity=identity)
    assert [output["output_key"] for output in outputs] == ["value"]


def test_an_incomplete_snapshot_is_not_restored(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    taken = snapshots.stack_snapshot(
        context, settings, database, queue, stack_identity=identity, name="snap"
    )

    with pytest.raises(exception.NotSupported) as raised:
        snapshots.stack_restore(
            context, settings, database, queue, stack_identity=identity, snapshot_id=taken["id"]
        )

    assert str(raised.value) == "Restoring incomplete snapshot is not supported."


def test_deleting_a_stack_deletes_its_snapshots(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    _snapshot(context, settings, database, queue, identity, "one")
    _snapshot(context, settings, database, queue, identity, "two")

    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    assert all_rows(database, Snapshot) == []
    assert all_rows(database, ResourceSnapshot) == []
    assert all_rows(database, SyncPoint) == []
    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status) == ("DELETE", "COMPLETE")
    assert row.deleted_at is not None


def test_a_stack_delete_completes_when_a_snapshot_went_first(
    context, settings, database, queue
) -> None:
    identity = _created(context, settings, database, queue)
    taken = _snapshot(context, settings, database, queue, identity)
    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    # The snapshot goes before its node of the DELETE traversal runs.
    with database.transaction() as session:
        session.query(ResourceSnapshot).delete()
        session.query(Snapshot).filter_by(id=taken["id"]).delete()

    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status) == ("DELETE", "COMPLETE")
    assert all_rows(database, SyncPoint) == []
