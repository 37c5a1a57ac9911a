"""A snapshot taken and deleted by real ``keel-worker`` processes: the SNAPSHOT traversal's
``keel.check_resource`` steps, then one ``keel.check_resource_delete_snapshot`` task per
resource snapshot."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from keel_app.engine.service import snapshots
from keel_app.engine.service import stacks as service
from keel_app.models import ResourceSnapshot, Snapshot, SyncPoint
from keel_app.models import Stack as StackRow
from keel_app.models.database import Database

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "a": {"type": "OS::Heat::TestResource", "properties": {"value": "x"}},
        "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
    },
}


def _rows(database: Database, model: Any, **where: Any) -> list[Any]:
    statement = sa.select(model)
    for column, value in where.items():
        statement = statement.where(getattr(model, column) == value)
    with database.transaction() as session:
        return list(session.scalars(statement).all())


def _eventually(check: Callable[[], Any], timeout: float = 90) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached after {timeout} s")
        time.sleep(0.2)


def _stack_state(database: Database, stack_id: str) -> tuple[str, str]:
    (row,) = _rows(database, StackRow, id=stack_id)
    return row.action, row.status


def test_a_fleet_takes_and_deletes_a_snapshot(
    workers, fleet_database, api_settings, dispatcher, context
) -> None:
    workers.start(2)
    identity = service.create_stack(
        context,
        api_settings,
        fleet_database,
        dispatcher,
        stack_name="fleet",
        template=TEMPLATE,
        params={},
        files={},
        args={},
    )
    stack_id = identity["stack_id"]
    _eventually(lambda: _stack_state(fleet_database, stack_id) == ("CREATE", "COMPLETE"))

    taken = snapshots.stack_snapshot(
        context, api_settings, fleet_database, dispatcher, stack_identity=identity, name="s"
    )
    _eventually(lambda: _stack_state(fleet_database, stack_id) == ("SNAPSHOT", "COMPLETE"))
    # The snapshot's row is written in a transaction of its own, after or before the stack's.
    (row,) = _eventually(
        lambda: [
            r for r in _rows(fleet_database, Snapshot, id=taken["id"]) if r.status != "IN_PROGRESS"
        ]
    )
    assert (row.action, row.status) == ("CREATE", "COMPLETE")
    assert sorted(r.resource_name for r in _rows(fleet_database, ResourceSnapshot)) == ["a", "b"]

    snapshots.delete_snapshot(
        context,
        api_settings,
        fleet_database,
        dispatcher,
        stack_identity=identity,
        snapshot_id=taken["id"],
    )

    _eventually(lambda: not _rows(fleet_database, Snapshot))
    assert _rows(fleet_database, ResourceSnapshot) == []
    assert _rows(fleet_database, SyncPoint, stack_id=stack_id) == []


def test_a_fleet_deletes_a_stack_with_its_snapshots(
    workers, fleet_database, api_settings, dispatcher, context
) -> None:
    workers.start(2)
    identity = service.create_stack(
        context,
        api_settings,
        fleet_database,
        dispatcher,
        stack_name="fleet",
        template=TEMPLATE,
        params={},
        files={},
        args={},
    )
    stack_id = identity["stack_id"]
    _eventually(lambda: _stack_state(fleet_database, stack_id) == ("CREATE", "COMPLETE"))
    snapshots.stack_snapshot(
        context, api_settings, fleet_database, dispatcher, stack_identity=identity, name="s"
    )
    _eventually(lambda: _stack_state(fleet_database, stack_id) == ("SNAPSHOT", "COMPLETE"))

    service.delete_stack(context, api_settings, fleet_database, dispatcher, stack_identity=identity)

    _eventually(lambda: _stack_state(fleet_database, stack_id) == ("DELETE", "COMPLETE"))
    assert _rows(fleet_database, Snapshot) == []
    assert _rows(fleet_database, ResourceSnapshot) == []
