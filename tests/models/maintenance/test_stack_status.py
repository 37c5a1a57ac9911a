"""reset_stack_status fails what a crashed engine left IN_PROGRESS, nested stacks too."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from keel_app.common.exception import NotFound
from keel_app.models import Resource, ResourceData, Stack, StackLock
from keel_app.models.database import Database
from keel_app.models.maintenance.stack_status import reset_stack_status
from tests.models.maintenance import factories

REASON = "Stack status manually reset"


def _stuck_stack(database: Database, name: str, owner_id: str | None = None) -> str:
    with database.transaction() as session:
        stuck = factories.stack(
            session, name, action="UPDATE", status="IN_PROGRESS", owner_id=owner_id
        )
        session.add(StackLock(stack_id=stuck.id, engine_id="dead-engine"))
        busy = factories.resource(session, stuck, "busy", status="IN_PROGRESS", engine_id="e")
        factories.resource_data(session, busy, "pre-update", "True")
        factories.resource_data(session, busy, "password", "secret")
        factories.resource(session, stuck, "done", engine_id="e")
        return stuck.id


def _state(database: Database, stack_id: str) -> dict[str, object]:
    with database.transaction() as session:
        stack = session.get(Stack, stack_id)
        assert stack is not None
        resources = session.scalars(
            sa.select(Resource).where(Resource.stack_id == stack_id).order_by(Resource.name)
        ).all()
        data_keys = session.scalars(
            sa.select(ResourceData.key)
            .join(Resource, Resource.id == ResourceData.resource_id)
            .where(Resource.stack_id == stack_id)
        ).all()
        return {
            "stack": (stack.action, stack.status, stack.status_reason),
            "resources": [(r.name, r.status, r.status_reason, r.engine_id) for r in resources],
            "data": sorted(data_keys),
            "locked": session.get(StackLock, stack_id) is not None,
        }


def test_fails_the_stack_and_its_in_progress_resources(database: Database) -> None:
    stack_id = _stuck_stack(database, "stuck")

    reset_stack_status(database, stack_id)

    assert _state(database, stack_id) == {
        "stack": ("UPDATE", "FAILED", REASON),
        "resources": [
            ("busy", "FAILED", REASON, None),
            ("done", "COMPLETE", None, "e"),
        ],
        "data": ["password"],
        "locked": False,
    }


def test_resets_nested_stacks_and_leaves_others_alone(database: Database) -> None:
    parent_id = _stuck_stack(database, "parent")
    child_id = _stuck_stack(database, "child", owner_id=parent_id)
    grandchild_id = _stuck_stack(database, "grandchild", owner_id=child_id)
    other_id = _stuck_stack(database, "other")
    untouched = _state(database, other_id)

    reset_stack_status(database, parent_id)

    for stack_id in (child_id, grandchild_id):
        assert _state(database, stack_id)["stack"] == ("UPDATE", "FAILED", REASON)
        assert _state(database, stack_id)["locked"] is False
    assert _state(database, other_id) == untouched


def test_a_complete_stack_keeps_its_status_but_loses_its_lock(database: Database) -> None:
    with database.transaction() as session:
        stack_id = factories.stack(session, "idle").id
        session.add(StackLock(stack_id=stack_id, engine_id="e"))

    reset_stack_status(database, stack_id)

    assert _state(database, stack_id) == {
        "stack": ("CREATE", "COMPLETE", None),
        "resources": [],
        "data": [],
        "locked": False,
    }


def test_an_unknown_stack_is_not_found(database: Database) -> None:
    with pytest.raises(NotFound) as raised:
        reset_stack_status(database, "no-such-stack")

    assert str(raised.value) == "Stack with id no-such-stack not found"
