"""Types that keep snapshots: deletion_policy Snapshot deletes through
``handle_snapshot_delete`` (told the state the resource was in; other types refuse the
policy), and a snapshot's delete steps call ``handle_delete_snapshot``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.engine.environment import global_env
from keel_app.engine.service import snapshots
from keel_app.engine.service import stacks as service
from keel_app.models import ResourceSnapshot, Snapshot, SyncPoint
from keel_app.resources.heat.none import NoneResource
from tests.engine.service.rows import all_rows
from tests.engine.service.stack_life import create, hot, stack_state

SNAPSHOT_TYPE = "Keel::Test::Snapshotted"
UNDELETABLE_TYPE = "Keel::Test::UndeletableSnapshot"
# What each handle_snapshot_delete call was told, in order.
CALLS: list[tuple[str, tuple[str, str]]] = []


class Snapshotted(NoneResource):
    """A type that snapshots what it deletes (as servers and volumes do)."""

    def handle_snapshot_delete(self, state: tuple[str, str]) -> Any:
        CALLS.append((self.name, tuple(state)))
        return None


@pytest.fixture
def snapshot_type() -> Iterator[None]:
    registry = global_env().registry
    registry.register_class(SNAPSHOT_TYPE, Snapshotted)
    CALLS.clear()
    yield
    registry._registry.pop(SNAPSHOT_TYPE)


def test_a_snapshot_policy_deletes_through_the_snapshot_handler(
    context, settings, database, queue, snapshot_type
) -> None:
    template = hot(
        {
            "kept": {"type": SNAPSHOT_TYPE, "deletion_policy": "Snapshot"},
            "plain": {"type": SNAPSHOT_TYPE},
        }
    )
    identity = create(context, settings, database, queue, template)
    queue.run_until_idle()

    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    assert stack_state(database, identity)[:2] == ("DELETE", "COMPLETE")
    assert CALLS == [("kept", ("CREATE", "COMPLETE"))]


def test_a_type_without_snapshots_refuses_the_policy(context, settings, database, queue) -> None:
    template = hot({"word": {"type": "OS::Heat::RandomString", "deletion_policy": "Snapshot"}})

    with pytest.raises(exception.StackValidationFailed) as raised:
        create(context, settings, database, queue, template)

    assert str(raised.value) == (
        'resources.word.deletion_policy: "Snapshot" deletion policy not supported'
    )


def test_a_placeholder_with_the_policy_is_deleted(context, settings, database, queue) -> None:
    # OS::Heat::None skips validation (as in Heat) and has nothing to snapshot.
    template = hot({"none": {"type": "OS::Heat::None", "deletion_policy": "Snapshot"}})
    identity = create(context, settings, database, queue, template)
    queue.run_until_idle()

    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    assert stack_state(database, identity)[:2] == ("DELETE", "COMPLETE")


class UndeletableSnapshot(NoneResource):
    """A type whose snapshots cannot be deleted."""

    def handle_delete_snapshot(self, data: Any) -> Any:
        raise RuntimeError(f"image of {self.name} is protected")


@pytest.fixture
def undeletable_type() -> Iterator[None]:
    registry = global_env().registry
    registry.register_class(UNDELETABLE_TYPE, UndeletableSnapshot)
    yield
    registry._registry.pop(UNDELETABLE_TYPE)


def test_a_snapshot_that_cannot_be_deleted_is_delete_failed(
    context, settings, database, queue, undeletable_type
) -> None:
    identity = create(context, settings, database, queue, hot({"kept": {"type": UNDELETABLE_TYPE}}))
    queue.run_until_idle()
    taken = snapshots.stack_snapshot(
        context, settings, database, queue, stack_identity=identity, name="snap"
    )
    queue.run_until_idle()

    snapshots.delete_snapshot(
        context, settings, database, queue, stack_identity=identity, snapshot_id=taken["id"]
    )
    with pytest.raises(RuntimeError):
        queue.run_until_idle()

    (row,) = all_rows(database, Snapshot)
    assert (row.action, row.status, row.status_reason) == (
        "DELETE",
        "FAILED",
        "image of kept is protected",
    )
    assert all_rows(database, SyncPoint) == []
    assert [r.resource_name for r in all_rows(database, ResourceSnapshot)] == ["kept"]
