"""Scenario: a resource fails to create; with rollback disabled, and with rollback."""

from __future__ import annotations

from tests.engine.convergence.harness import Engine

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "good": {"type": "OS::Heat::TestResource", "properties": {"value": "v"}},
        "bad": {
            "type": "OS::Heat::TestResource",
            "depends_on": ["good"],
            "properties": {"fail": True},
        },
        "after": {"type": "OS::Heat::None", "depends_on": ["bad"]},
    },
}
FAILURE = "ValueError: resources.bad: Test Resource failed bad"


def test_without_rollback_the_stack_and_resource_end_create_failed(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE, disable_rollback=True)

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == (
        "CREATE",
        "FAILED",
        f"Resource CREATE failed: {FAILURE}",
    )
    # A failed traversal is cleared so that its remaining steps stop.
    assert stack.current_traversal == ""
    rows = {row.name: row for row in engine.resources(stack_id)}
    assert {name: (row.action, row.status) for name, row in rows.items()} == {
        "good": ("CREATE", "COMPLETE"),
        "bad": ("CREATE", "FAILED"),
        "after": ("INIT", "COMPLETE"),
    }
    assert rows["bad"].status_reason == FAILURE
    assert rows["bad"].engine_id is None
    assert engine.sync_points(stack_id) == []


def test_without_rollback_the_failure_events_are_heats(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE, disable_rollback=True)

    assert engine.events(stack_id)[-2:] == [
        ("bad", "CREATE", "FAILED", FAILURE),
        ("demo", "CREATE", "FAILED", f"Resource CREATE failed: {FAILURE}"),
    ]


def test_with_rollback_everything_is_deleted_and_the_stack_rolled_back(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE, disable_rollback=False)

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == (
        "ROLLBACK",
        "COMPLETE",
        "Stack ROLLBACK completed successfully",
    )
    assert engine.resources(stack_id) == []
    assert engine.sync_points(stack_id) == []


def test_with_rollback_the_events_tell_the_story(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE, disable_rollback=False)

    states = [(name, action, status) for name, action, status, _ in engine.events(stack_id)]
    assert states == [
        ("demo", "CREATE", "IN_PROGRESS"),
        ("good", "CREATE", "IN_PROGRESS"),
        ("good", "CREATE", "COMPLETE"),
        ("bad", "CREATE", "IN_PROGRESS"),
        ("bad", "CREATE", "FAILED"),
        ("demo", "CREATE", "FAILED"),
        ("demo", "ROLLBACK", "IN_PROGRESS"),
        ("bad", "DELETE", "IN_PROGRESS"),
        ("bad", "DELETE", "COMPLETE"),
        ("good", "DELETE", "IN_PROGRESS"),
        ("good", "DELETE", "COMPLETE"),
        ("demo", "ROLLBACK", "COMPLETE"),
    ]
