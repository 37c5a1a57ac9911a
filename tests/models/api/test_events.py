from __future__ import annotations

import logging

import pytest
import sqlalchemy as sa

from keel_app.models import Event, ResourcePropertiesData, Stack
from keel_app.models.api import events
from keel_app.models.database import Database
from tests.models.api import factories

# With a batch of 2 Heat's sampling (2 / batch > uniform(0, 1)) counts on every insert.
BATCH = 2


@pytest.fixture
def stack(database: Database) -> Stack:
    return factories.stack(database, name="web")


def _events_with_own_properties(database: Database, stack: Stack, count: int) -> list[Event]:
    return [
        factories.event(
            database,
            stack.id,
            resource_name=f"r{index}",
            rsrc_prop_data_id=factories.properties_data(database).id,
        )
        for index in range(count)
    ]


def _event_names(database: Database, stack_id: str) -> list[str]:
    with database.transaction() as session:
        return list(
            session.scalars(
                sa.select(Event.resource_name).where(Event.stack_id == stack_id).order_by(Event.id)
            )
        )


def _properties_data_ids(database: Database) -> set[int]:
    with database.transaction() as session:
        return set(session.scalars(sa.select(ResourcePropertiesData.id)))


def test_create_event_stores_it(database: Database, stack: Stack) -> None:
    created = events.create_event(
        database,
        {"stack_id": stack.id, "resource_name": "server", "resource_status_reason": None},
        max_events_per_stack=1000,
        purge_batch_size=BATCH,
    )

    stored = factories.row(database, Event, created.id)
    assert (stored.resource_name, stored.resource_status_reason) == ("server", "")
    assert stored.uuid is not None


def test_add_events_stores_them_in_one_insert_in_their_order(
    database: Database, stack: Stack
) -> None:
    inserts: list[str] = []

    def statement(_connection, _cursor, text: str, *_) -> None:  # noqa: ANN001
        if text.startswith("INSERT INTO event"):
            inserts.append(text)

    for engine in database.engines:
        sa.event.listen(engine, "before_cursor_execute", statement)
    with database.transaction() as session:
        events.add_events(
            session,
            [
                {"stack_id": stack.id, "resource_name": "r", "resource_status": "IN_PROGRESS"},
                {"stack_id": stack.id, "resource_name": "r", "resource_status": "COMPLETE"},
            ],
            max_events_per_stack=1000,
            purge_batch_size=BATCH,
        )
    for engine in database.engines:
        sa.event.remove(engine, "before_cursor_execute", statement)

    with database.transaction() as session:
        stored = session.execute(
            sa.select(Event.resource_status, Event.uuid, Event.created_at)
            .where(Event.stack_id == stack.id)
            .order_by(Event.id)
        ).all()
    assert [row.resource_status for row in stored] == ["IN_PROGRESS", "COMPLETE"]
    assert all(row.uuid and row.created_at for row in stored)
    assert len(inserts) == 1


def test_create_event_at_the_limit_drops_the_oldest_batch(database: Database, stack: Stack) -> None:
    _events_with_own_properties(database, stack, 5)

    events.create_event(database, {"stack_id": stack.id, "resource_name": "new"}, 5, BATCH)

    assert _event_names(database, stack.id) == ["r2", "r3", "r4", "new"]


def test_create_event_below_the_limit_prunes_nothing(database: Database, stack: Stack) -> None:
    _events_with_own_properties(database, stack, 4)

    events.create_event(database, {"stack_id": stack.id, "resource_name": "new"}, 5, BATCH)

    assert _event_names(database, stack.id) == ["r0", "r1", "r2", "r3", "new"]


def test_pruning_deletes_properties_data_only_the_pruned_events_used(
    database: Database, stack: Stack
) -> None:
    old = _events_with_own_properties(database, stack, 5)

    events.create_event(database, {"stack_id": stack.id, "resource_name": "new"}, 5, BATCH)

    assert _properties_data_ids(database) == {event.rsrc_prop_data_id for event in old[2:]}


def test_pruning_keeps_properties_data_a_resource_still_uses(
    database: Database, stack: Stack
) -> None:
    old = _events_with_own_properties(database, stack, 5)
    factories.resource(database, stack.id, rsrc_prop_data_id=old[0].rsrc_prop_data_id)

    events.create_event(database, {"stack_id": stack.id, "resource_name": "new"}, 5, BATCH)

    assert old[0].rsrc_prop_data_id in _properties_data_ids(database)
    assert old[1].rsrc_prop_data_id not in _properties_data_ids(database)


def test_pruning_keeps_properties_data_the_backup_stack_uses(
    database: Database, stack: Stack
) -> None:
    old = _events_with_own_properties(database, stack, 5)
    backup = factories.stack(database, name="web*", owner_id=stack.id)
    factories.resource(database, backup.id, rsrc_prop_data_id=old[0].rsrc_prop_data_id)

    events.create_event(database, {"stack_id": stack.id, "resource_name": "new"}, 5, BATCH)

    assert _event_names(database, stack.id) == ["r2", "r3", "r4", "new"]
    remaining = _properties_data_ids(database)
    assert old[0].rsrc_prop_data_id in remaining
    assert old[1].rsrc_prop_data_id not in remaining


def test_pruning_a_backup_keeps_properties_data_its_main_stack_uses(
    database: Database, stack: Stack
) -> None:
    backup = factories.stack(database, name="web*", owner_id=stack.id)
    old = _events_with_own_properties(database, backup, 3)
    factories.event(database, stack.id, rsrc_prop_data_id=old[0].rsrc_prop_data_id)

    events.create_event(database, {"stack_id": backup.id, "resource_name": "new"}, 3, BATCH)

    remaining = _properties_data_ids(database)
    assert old[0].rsrc_prop_data_id in remaining
    assert old[1].rsrc_prop_data_id not in remaining


def test_failed_pruning_is_logged_and_the_event_still_stored(
    database: Database, stack: Stack, caplog: pytest.LogCaptureFixture
) -> None:
    old = _events_with_own_properties(database, stack, 5)
    stranger = factories.stack(database, name="unrelated")
    factories.resource(database, stranger.id, rsrc_prop_data_id=old[0].rsrc_prop_data_id)

    with caplog.at_level(logging.ERROR, logger=events.LOG.name):
        events.create_event(database, {"stack_id": stack.id, "resource_name": "new"}, 5, BATCH)

    assert _event_names(database, stack.id)[-1] == "new"
    assert any(
        record.getMessage().startswith("Failed to purge events") for record in caplog.records
    )
