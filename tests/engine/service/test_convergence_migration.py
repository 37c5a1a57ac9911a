"""migrate_convergence_1 and the locks of the tree it moves: a lock a live engine holds
refuses the move, one a dead engine left is taken over, and none stays behind."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.common import exception
from keel_app.common.context import admin_context
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.service.convergence_migration import migrate_convergence_1
from keel_app.engine.settings import EngineSettings
from keel_app.models import Resource, Stack, StackLock
from keel_app.models.database import Database
from tests.models.maintenance import factories

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "a": {"type": "OS::Heat::None"},
        "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
    },
}


def _legacy_stack_locked_by(database: Database, engine_id: str) -> str:
    with database.transaction() as session:
        stack = factories.stack(
            session,
            "legacy",
            convergence=False,
            current_traversal=None,
            raw_template=factories.template(session, template=TEMPLATE),
        )
        for name in ("a", "b"):
            session.add(Resource(name=name, stack_id=stack.id, action="CREATE", status="COMPLETE"))
        session.add(StackLock(stack_id=stack.id, engine_id=engine_id))
        return str(stack.id)


def _stored(database: Database, model: type[Any], key: Any) -> Any:
    with database.transaction() as session:
        return session.get(model, key)


def test_a_lock_held_by_a_live_engine_refuses_the_move(
    database: Database, settings: EngineSettings, queue: LocalQueue
) -> None:
    stack_id = _legacy_stack_locked_by(database, "engine-alive")

    with pytest.raises(exception.ActionInProgress) as raised:
        migrate_convergence_1(admin_context(), settings, database, queue, stack_id=stack_id)

    assert str(raised.value) == "Stack legacy already has an action (CREATE) in progress."
    assert _stored(database, Stack, stack_id).convergence is False
    assert _stored(database, StackLock, stack_id).engine_id == "engine-alive"


def test_a_lock_a_dead_engine_left_is_taken_over_and_released(
    database: Database, settings: EngineSettings, queue: LocalQueue
) -> None:
    stack_id = _legacy_stack_locked_by(database, "engine-dead")
    queue.dead_engines.add("engine-dead")

    assert (
        migrate_convergence_1(admin_context(), settings, database, queue, stack_id=stack_id) is None
    )

    assert _stored(database, Stack, stack_id).convergence is True
    assert _stored(database, StackLock, stack_id) is None
