"""Scenario: a resource is still locked by an engine that died in the middle of a step.

The next traversal asks whether the holder is alive (Heat's ``listening`` call, here the
queue's answer). A live holder keeps its resource; a dead one's lock is taken over, the
resource is failed with Heat's reason, and the traversal goes on with it.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from keel_app.models import Resource
from tests.engine.convergence.harness import Engine

DEAD_ENGINE = "engine-that-died"


def template(value: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"thing": {"type": "OS::Heat::TestResource", "properties": {"value": value}}},
    }


def lock_as_if_mid_update(engine: Engine, stack_id: str) -> None:
    with engine.database.transaction() as session:
        session.execute(
            sa.update(Resource)
            .where(Resource.stack_id == stack_id)
            .values(engine_id=DEAD_ENGINE, action="UPDATE", status="IN_PROGRESS")
        )


def test_a_dead_engines_lock_is_taken_over_and_a_replacement_completes(engine: Engine) -> None:
    stack_id = engine.create(template("a"))
    (original,) = engine.resources(stack_id)
    lock_as_if_mid_update(engine, stack_id)
    engine.queue.dead_engines.add(DEAD_ENGINE)

    engine.update(stack_id, template("b"))

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status) == ("UPDATE", "COMPLETE")
    # A failed resource is replaced, as Heat replaces any resource whose last action
    # failed; the failed one is cleaned up at the end of the traversal.
    (replacement,) = engine.resources(stack_id)
    assert replacement.id != original.id
    assert (replacement.name, replacement.action, replacement.status) == (
        "thing",
        "CREATE",
        "COMPLETE",
    )
    assert replacement.engine_id is None


def test_the_taken_over_resource_records_why_it_failed(engine: Engine) -> None:
    stack_id = engine.create(template("a"))
    lock_as_if_mid_update(engine, stack_id)
    engine.queue.dead_engines.add(DEAD_ENGINE)

    engine.update(stack_id, template("b"))

    assert ("thing", "UPDATE", "FAILED", "Worker went down during resource UPDATE") in (
        engine.events(stack_id)
    )


def test_a_live_engines_lock_is_left_alone(engine: Engine) -> None:
    stack_id = engine.create(template("a"))
    lock_as_if_mid_update(engine, stack_id)

    engine.update(stack_id, template("b"))

    (row,) = engine.resources(stack_id)
    assert (row.engine_id, row.action, row.status) == (DEAD_ENGINE, "UPDATE", "IN_PROGRESS")
    assert engine.stack_row(stack_id).status == "IN_PROGRESS"
