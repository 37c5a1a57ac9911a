"""Scenario: a check_resource of a traversal that is no longer current stops quietly."""

from __future__ import annotations

from tests.engine.convergence.harness import CONTEXT, Engine

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"value": {"type": "OS::Heat::Value", "properties": {"value": "v"}}},
}


def test_a_stale_step_changes_nothing_and_sends_nothing(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)
    [row] = engine.resources(stack_id)
    events = engine.events(stack_id)
    delivered = len(engine.queue.delivered)

    engine.queue.send_check_resource(
        CONTEXT,
        resource_id=row.id,
        current_traversal="00000000-0000-4000-8000-000000000000",
        data={"input_data": {}},
        is_update=True,
        adopt_stack_data=None,
    )
    engine.queue.run_until_idle()

    assert len(engine.queue.delivered) == delivered + 1
    [after] = engine.resources(stack_id)
    assert (after.action, after.status, after.atomic_key, after.engine_id) == (
        row.action,
        row.status,
        row.atomic_key,
        None,
    )
    assert engine.events(stack_id) == events
    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status) == ("CREATE", "COMPLETE")
