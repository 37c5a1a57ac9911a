from __future__ import annotations

import pytest

from keel_app.models import Stack
from keel_app.models.api import stack_locks
from keel_app.models.database import Database
from tests.models.api import factories


@pytest.fixture
def stack(database: Database) -> Stack:
    return factories.stack(database)


def test_create_free_lock_takes_it(database: Database, stack: Stack) -> None:
    assert stack_locks.create_stack_lock(database, stack.id, "engine-1") is None
    assert stack_locks.get_stack_lock_engine(database, stack.id) == "engine-1"


def test_create_held_lock_returns_the_holder(database: Database, stack: Stack) -> None:
    stack_locks.create_stack_lock(database, stack.id, "engine-1")

    assert stack_locks.create_stack_lock(database, stack.id, "engine-2") == "engine-1"
    assert stack_locks.get_stack_lock_engine(database, stack.id) == "engine-1"


def test_get_engine_of_an_unlocked_stack_is_none(database: Database, stack: Stack) -> None:
    assert stack_locks.get_stack_lock_engine(database, stack.id) is None


def test_steal_from_the_holder_moves_the_lock(database: Database, stack: Stack) -> None:
    stack_locks.create_stack_lock(database, stack.id, "dead-engine")

    assert stack_locks.steal_stack_lock(database, stack.id, "dead-engine", "engine-2") is True
    assert stack_locks.get_stack_lock_engine(database, stack.id) == "engine-2"


def test_steal_from_an_engine_that_no_longer_holds_fails(database: Database, stack: Stack) -> None:
    stack_locks.create_stack_lock(database, stack.id, "engine-3")

    assert stack_locks.steal_stack_lock(database, stack.id, "dead-engine", "engine-2") is False
    assert stack_locks.get_stack_lock_engine(database, stack.id) == "engine-3"


def test_release_by_the_holder_frees_the_lock(database: Database, stack: Stack) -> None:
    stack_locks.create_stack_lock(database, stack.id, "engine-1")

    assert stack_locks.release_stack_lock(database, stack.id, "engine-1") is True
    assert stack_locks.get_stack_lock_engine(database, stack.id) is None


def test_release_by_another_engine_fails(database: Database, stack: Stack) -> None:
    stack_locks.create_stack_lock(database, stack.id, "engine-1")

    assert stack_locks.release_stack_lock(database, stack.id, "engine-2") is False
    assert stack_locks.get_stack_lock_engine(database, stack.id) == "engine-1"


def test_persist_state_and_release_writes_and_frees(database: Database, stack: Stack) -> None:
    stack_locks.create_stack_lock(database, stack.id, "engine-1")

    released = stack_locks.persist_state_and_release_lock(
        database, stack.id, "engine-1", {"action": "CREATE", "status": "COMPLETE"}
    )

    assert released is True
    assert factories.row(database, Stack, stack.id).status == "COMPLETE"
    assert stack_locks.get_stack_lock_engine(database, stack.id) is None


def test_persist_state_by_a_non_holder_writes_but_keeps_the_lock(
    database: Database, stack: Stack
) -> None:
    stack_locks.create_stack_lock(database, stack.id, "engine-1")

    released = stack_locks.persist_state_and_release_lock(
        database, stack.id, "engine-2", {"status": "FAILED"}
    )

    assert released is False
    assert factories.row(database, Stack, stack.id).status == "FAILED"
    assert stack_locks.get_stack_lock_engine(database, stack.id) == "engine-1"


def test_persist_state_of_a_missing_stack_releases_nothing(database: Database) -> None:
    released = stack_locks.persist_state_and_release_lock(
        database, "gone", "engine-1", {"status": "FAILED"}
    )

    assert released is False


def test_persist_state_with_an_over_long_reason_still_releases(
    database: Database, stack: Stack
) -> None:
    stack_locks.create_stack_lock(database, stack.id, "engine-1")
    reason = "é" * 40_000  # 80,000 UTF-8 bytes: more than MySQL's TEXT holds

    released = stack_locks.persist_state_and_release_lock(
        database, stack.id, "engine-1", {"status": "FAILED", "status_reason": reason}
    )

    assert released is True
    stored = factories.row(database, Stack, stack.id).status_reason
    expected_characters = 65_535 // 2 if database.is_mysql else 40_000
    assert stored == "é" * expected_characters
    assert stack_locks.get_stack_lock_engine(database, stack.id) is None
