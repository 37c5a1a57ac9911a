from __future__ import annotations

import pytest
import sqlalchemy as sa

from keel_app.common import exception
from keel_app.models import Resource, Stack
from keel_app.models.api import resources
from keel_app.models.database import Database
from tests.models.api import factories


@pytest.fixture
def stack(database: Database) -> Stack:
    return factories.stack(database)


def _lock_state(database: Database, resource_id: int) -> tuple[str | None, int | None]:
    stored = factories.row(database, Resource, resource_id)
    return stored.engine_id, stored.atomic_key


def test_create_resource_stores_the_physical_id_as_nova_instance(
    database: Database, stack: Stack
) -> None:
    created = resources.create_resource(
        database,
        {"stack_id": stack.id, "name": "server", "physical_resource_id": "vm-1"},
    )

    with database.engine.connect() as connection:
        stored = connection.execute(
            sa.text("SELECT nova_instance FROM resource WHERE id = :id"), {"id": created.id}
        ).scalar_one()
    assert stored == "vm-1"
    assert resources.get_resource(database, created.id).physical_resource_id == "vm-1"


def test_get_missing_resource_raises_heats_not_found(database: Database) -> None:
    with pytest.raises(exception.NotFound) as raised:
        resources.get_resource(database, 999)

    assert str(raised.value) == "resource with id 999 not found"


def test_acquire_never_locked_resource_sets_key_one(database: Database, stack: Stack) -> None:
    server = factories.resource(database, stack.id, atomic_key=None)

    acquired = resources.acquire_resource_lock(
        database, server.id, "engine-1", None, {"action": "UPDATE", "status": "IN_PROGRESS"}
    )

    stored = factories.row(database, Resource, server.id)
    assert acquired is True
    assert (stored.engine_id, stored.atomic_key) == ("engine-1", 1)
    assert (stored.action, stored.status) == ("UPDATE", "IN_PROGRESS")


def test_acquire_increments_the_key(database: Database, stack: Stack) -> None:
    server = factories.resource(database, stack.id, atomic_key=4)

    assert resources.acquire_resource_lock(database, server.id, "engine-1", 4) is True
    assert _lock_state(database, server.id) == ("engine-1", 5)


def test_acquire_locked_resource_fails_and_changes_nothing(
    database: Database, stack: Stack
) -> None:
    server = factories.resource(database, stack.id, engine_id="engine-1", atomic_key=1)

    assert resources.acquire_resource_lock(database, server.id, "engine-2", 1) is False
    assert _lock_state(database, server.id) == ("engine-1", 1)


def test_acquire_with_a_stale_key_fails(database: Database, stack: Stack) -> None:
    server = factories.resource(database, stack.id, atomic_key=3)

    assert resources.acquire_resource_lock(database, server.id, "engine-1", 2) is False
    assert _lock_state(database, server.id) == (None, 3)


def test_acquire_with_a_key_when_the_row_has_none_fails(database: Database, stack: Stack) -> None:
    server = factories.resource(database, stack.id, atomic_key=None)

    assert resources.acquire_resource_lock(database, server.id, "engine-1", 0) is False
    assert _lock_state(database, server.id) == (None, None)


def test_release_by_the_holder_clears_the_lock(database: Database, stack: Stack) -> None:
    server = factories.resource(database, stack.id, engine_id="engine-1", atomic_key=1)

    released = resources.release_resource_lock(
        database, server.id, "engine-1", 1, {"status": "COMPLETE"}
    )

    assert released is True
    assert _lock_state(database, server.id) == (None, 2)
    assert factories.row(database, Resource, server.id).status == "COMPLETE"


def test_release_by_another_engine_fails(database: Database, stack: Stack) -> None:
    server = factories.resource(database, stack.id, engine_id="engine-1", atomic_key=1)

    assert resources.release_resource_lock(database, server.id, "engine-2", 1) is False
    assert _lock_state(database, server.id) == ("engine-1", 1)


def test_acquire_then_release_moves_the_key_by_two(database: Database, stack: Stack) -> None:
    server = factories.resource(database, stack.id, atomic_key=7)

    resources.acquire_resource_lock(database, server.id, "engine-1", 7)
    resources.release_resource_lock(database, server.id, "engine-1", 8)

    assert _lock_state(database, server.id) == (None, 9)


def test_steal_from_a_dead_engine_clears_the_lock_and_keeps_the_key(
    database: Database, stack: Stack
) -> None:
    server = factories.resource(database, stack.id, engine_id="dead-engine", atomic_key=5)

    stolen = resources.steal_resource_lock(database, server.id, "dead-engine", {"status": "FAILED"})

    assert stolen is True
    assert _lock_state(database, server.id) == (None, 5)
    assert factories.row(database, Resource, server.id).status == "FAILED"


def test_steal_fails_when_another_engine_holds_the_lock(database: Database, stack: Stack) -> None:
    server = factories.resource(database, stack.id, engine_id="live-engine", atomic_key=5)

    assert resources.steal_resource_lock(database, server.id, "dead-engine") is False
    assert _lock_state(database, server.id) == ("live-engine", 5)


def test_update_resource_cuts_a_long_reason_on_mysql_only(database: Database, stack: Stack) -> None:
    server = factories.resource(database, stack.id, atomic_key=1)
    reason = "€" * 30000

    resources.update_resource(database, server.id, {"status_reason": reason}, 1)

    stored = factories.row(database, Resource, server.id).status_reason
    assert stored == ("€" * 21845 if database.is_mysql else reason)


def test_create_replacement_links_old_and_new_rows(database: Database, stack: Stack) -> None:
    template = factories.raw_template(database)
    old = factories.resource(database, stack.id, atomic_key=2)

    new = resources.create_replacement(
        database,
        old.id,
        {
            "stack_id": stack.id,
            "name": "server",
            "replaces": old.id,
            "action": "INIT",
            "status": "COMPLETE",
            "current_template_id": template.id,
        },
        atomic_key=2,
    )

    stored_old = factories.row(database, Resource, old.id)
    stored_new = factories.row(database, Resource, new.id)
    assert (stored_old.replaced_by, stored_old.atomic_key) == (new.id, 3)
    assert (stored_new.replaces, stored_new.current_template_id) == (old.id, template.id)


def test_create_replacement_of_a_locked_resource_raises_and_inserts_nothing(
    database: Database, stack: Stack
) -> None:
    old = factories.resource(database, stack.id, engine_id="engine-1", atomic_key=2)

    with pytest.raises(exception.UpdateInProgress) as raised:
        resources.create_replacement(
            database, old.id, {"stack_id": stack.id, "name": "server", "replaces": old.id}, 2
        )

    assert str(raised.value) == "The resource server is already being updated."
    with database.transaction() as session:
        assert session.scalars(sa.select(Resource.id)).all() == [old.id]
    assert factories.row(database, Resource, old.id).replaced_by is None


def test_create_replacement_by_the_holding_engine_succeeds(
    database: Database, stack: Stack
) -> None:
    old = factories.resource(database, stack.id, engine_id="engine-1", atomic_key=2)

    new = resources.create_replacement(
        database, old.id, {"stack_id": stack.id, "name": "server"}, 2, engine_id="engine-1"
    )

    assert factories.row(database, Resource, old.id).replaced_by == new.id


def test_create_replacement_naming_a_missing_template_inserts_nothing(
    database: Database, stack: Stack
) -> None:
    old = factories.resource(database, stack.id, atomic_key=1)

    new = resources.create_replacement(
        database, old.id, {"stack_id": stack.id, "current_template_id": 12345}, 1
    )

    assert new is None
    with database.transaction() as session:
        assert session.scalars(sa.select(Resource.id)).all() == [old.id]


def test_engines_holding_locks_lists_each_engine_once(database: Database, stack: Stack) -> None:
    other_stack = factories.stack(database)
    factories.resource(database, stack.id, name="a", engine_id="engine-1")
    factories.resource(database, stack.id, name="b", engine_id="engine-1")
    factories.resource(database, stack.id, name="c", engine_id="engine-2")
    factories.resource(database, stack.id, name="d", engine_id=None)
    factories.resource(database, other_stack.id, name="e", engine_id="engine-3")

    assert resources.engines_holding_locks(database, stack.id) == {"engine-1", "engine-2"}
