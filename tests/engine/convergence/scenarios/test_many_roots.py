"""Scenario: a traversal with more roots than the stack's sync point merges (a record each)."""

from __future__ import annotations

from keel_app.engine.convergence import stack_completion
from tests.engine.convergence.harness import Engine

COUNT = stack_completion.MANY_ROOTS + 1
TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {f"r{index}": {"type": "OS::Heat::None"} for index in range(COUNT)},
}


def test_a_stack_of_many_independent_resources_is_created(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == (
        "CREATE",
        "COMPLETE",
        "Stack CREATE completed successfully",
    )
    assert set(engine.states(stack_id).values()) == {("CREATE", "COMPLETE")}
    assert len(engine.states(stack_id)) == COUNT
    assert engine.sync_points(stack_id) == []
