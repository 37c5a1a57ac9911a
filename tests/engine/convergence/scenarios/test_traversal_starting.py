"""Scenario: a step of an older traversal reads the stack while a new traversal starts,
between the moment the stack's row gets the new traversal's id and the moment it gets the
new graph. Acting for the new traversal with the old graph is what Heat does too; keeping
that graph for the new traversal's own steps would fail them."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.engine.convergence import converge
from keel_app.engine.convergence.worker import Worker
from tests.engine.convergence.harness import CONTEXT, Engine

CHAIN = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "first": {"type": "OS::Heat::None"},
        "second": {"type": "OS::Heat::None", "depends_on": ["first"]},
    },
}


def test_a_stale_step_inside_a_starting_delete_leaves_the_delete_its_own_graph(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    stack_id = engine.create(CHAIN)
    create_traversal = engine.stack_row(stack_id).current_traversal
    first = next(row for row in engine.resources(stack_id) if row.name == "first")
    compute_dependencies = converge.compute_dependencies

    def late_step_then_compute(*arguments: Any) -> Any:
        # The row holds the delete's traversal id and still the create's graph.
        assert engine.stack_row(stack_id).current_traversal != create_traversal
        Worker(engine.database, engine.settings, engine.queue).check_resource(
            CONTEXT,
            resource_id=first.id,
            current_traversal=create_traversal,
            data={"input_data": {}},
            is_update=True,
            adopt_stack_data=None,
        )
        return compute_dependencies(*arguments)

    monkeypatch.setattr(converge, "compute_dependencies", late_step_then_compute)
    engine.delete(stack_id)

    assert engine.stack_row_deleted(stack_id) == ("DELETE", "COMPLETE")
    assert engine.resources(stack_id) == []
