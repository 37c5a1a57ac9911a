"""Scenario: steps that wait are sent again with a countdown; a stack that runs out of time."""

from __future__ import annotations

from typing import Any

from tests.engine.convergence.harness import Engine


def template(create_wait: int) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "slow": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": "v", "action_wait_secs": {"create": create_wait}},
            },
        },
    }


def test_a_waiting_create_is_polled_by_resending_never_sleeping(engine: Engine) -> None:
    started = engine.queue.now()

    stack_id = engine.create(template(5))

    assert engine.states(stack_id) == {"slow": ("CREATE", "COMPLETE")}
    countdowns = [message.countdown for message in engine.queue.delivered]
    # The first step, re-sends while the wait is young, then one a second, at each whole
    # second of waiting, until more than 5 seconds have passed.
    assert countdowns == [0, 0.1, 0.1, 0.2, 0.4, 0.2] + [1.0] * 5
    assert engine.queue.now() - started == 6.0


def test_the_stack_times_out_while_a_resource_waits(engine: Engine) -> None:
    stack_id = engine.create(template(120), timeout=1, disable_rollback=True)

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == ("CREATE", "FAILED", "Timed out")
    [slow] = engine.resources(stack_id)
    assert (slow.action, slow.status, slow.engine_id) == ("CREATE", "FAILED", None)
    assert slow.status_reason == (
        f'CREATE aborted (Task create from TestResource "slow" [{slow.physical_resource_id}] '
        f'Stack "demo" [{stack_id}] Timed out)'
    )
    assert engine.sync_points(stack_id) == []
