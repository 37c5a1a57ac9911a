"""Scenario: an update fails; the rollback goes back to the previous template."""

from __future__ import annotations

from typing import Any

from tests.engine.convergence.harness import Engine

FAILURE = "ValueError: resources.test: Test Resource failed test"


def template(value: str, fail: bool = False) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "test": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": value, "fail": fail},
            },
            "copy": {
                "type": "OS::Heat::Value",
                "properties": {"value": {"get_attr": ["test", "output"]}},
            },
        },
    }


def test_rollback_ends_on_the_previous_template(engine: Engine) -> None:
    stack_id = engine.create(template("a"), disable_rollback=False)
    first_template = engine.stack_row(stack_id).raw_template_id

    engine.update(stack_id, template("b", fail=True))

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == (
        "ROLLBACK",
        "COMPLETE",
        "Stack ROLLBACK completed successfully",
    )
    assert stack.raw_template_id == first_template
    assert stack.prev_raw_template_id is None
    assert engine.template_ids() == [first_template]
    rows = {row.name: row for row in engine.resources(stack_id)}
    # The failed resource was replaced by one made from the old template.
    assert {name: (row.action, row.status) for name, row in rows.items()} == {
        "test": ("CREATE", "COMPLETE"),
        "copy": ("CREATE", "COMPLETE"),
    }
    assert engine.properties_data(rows["test"])["value"] == "a"
    assert len(engine.resources(stack_id)) == 2
    assert engine.sync_points(stack_id) == []


def test_rollback_events(engine: Engine) -> None:
    stack_id = engine.create(template("a"), disable_rollback=False)
    created = len(engine.events(stack_id))

    engine.update(stack_id, template("b", fail=True))

    assert engine.events(stack_id)[created:] == [
        ("demo", "UPDATE", "IN_PROGRESS", "Stack UPDATE started"),
        ("test", "UPDATE", "IN_PROGRESS", "state changed"),
        ("test", "UPDATE", "FAILED", FAILURE),
        ("demo", "UPDATE", "FAILED", f"Resource UPDATE failed: {FAILURE}"),
        ("demo", "ROLLBACK", "IN_PROGRESS", "Stack ROLLBACK started"),
        ("test", "CREATE", "IN_PROGRESS", "state changed"),
        ("test", "CREATE", "COMPLETE", "state changed"),
        ("test", "DELETE", "IN_PROGRESS", "state changed"),
        ("test", "DELETE", "COMPLETE", "state changed"),
        ("demo", "ROLLBACK", "COMPLETE", "Stack ROLLBACK completed successfully"),
    ]


def test_without_rollback_the_update_ends_failed(engine: Engine) -> None:
    stack_id = engine.create(template("a"), disable_rollback=True)

    engine.update(stack_id, template("b", fail=True))

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == (
        "UPDATE",
        "FAILED",
        f"Resource UPDATE failed: {FAILURE}",
    )
    rows = {row.name: row for row in engine.resources(stack_id)}
    assert (rows["test"].action, rows["test"].status, rows["test"].status_reason) == (
        "UPDATE",
        "FAILED",
        FAILURE,
    )
    assert rows["test"].current_template_id == stack.raw_template_id
