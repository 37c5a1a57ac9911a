"""Scenario: update a property that may change in place; unchanged resources are kept."""

from __future__ import annotations

from typing import Any

from tests.engine.convergence.harness import Engine


def template(value: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "test": {"type": "OS::Heat::TestResource", "properties": {"value": value}},
            "copy": {
                "type": "OS::Heat::Value",
                "properties": {"value": {"get_attr": ["test", "output"]}},
            },
            "keep": {"type": "OS::Heat::None"},
        },
    }


def test_update_in_place_keeps_the_rows_and_moves_them_to_the_new_template(
    engine: Engine,
) -> None:
    stack_id = engine.create(template("a"))
    before = {row.name: row for row in engine.resources(stack_id)}

    engine.update(stack_id, template("b"))

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == (
        "UPDATE",
        "COMPLETE",
        "Stack UPDATE completed successfully",
    )
    after = {row.name: row for row in engine.resources(stack_id)}
    assert {name: row.id for name, row in after.items()} == {
        name: row.id for name, row in before.items()
    }
    assert {name: (row.action, row.status) for name, row in after.items()} == {
        "test": ("UPDATE", "COMPLETE"),
        "copy": ("UPDATE", "COMPLETE"),
        # Nothing changed for it: it keeps its state and only follows the template.
        "keep": ("CREATE", "COMPLETE"),
    }
    assert {row.current_template_id for row in after.values()} == {stack.raw_template_id}
    assert stack.prev_raw_template_id is None
    assert engine.sync_points(stack_id) == []


def test_update_in_place_passes_the_new_value_on(engine: Engine) -> None:
    stack_id = engine.create(template("a"))

    engine.update(stack_id, template("b"))

    rows = {row.name: row for row in engine.resources(stack_id)}
    assert [(row.key, row.value) for row in engine.resource_data(rows["test"].id)] == [
        ("value", "b")
    ]
    assert engine.properties_data(rows["copy"]) == {"value": "b"}


def test_update_in_place_events(engine: Engine) -> None:
    stack_id = engine.create(template("a"))
    created = len(engine.events(stack_id))

    engine.update(stack_id, template("b"))

    assert engine.events(stack_id)[created:] == [
        ("demo", "UPDATE", "IN_PROGRESS", "Stack UPDATE started"),
        ("test", "UPDATE", "IN_PROGRESS", "state changed"),
        ("test", "UPDATE", "COMPLETE", "state changed"),
        ("copy", "UPDATE", "IN_PROGRESS", "state changed"),
        ("copy", "UPDATE", "COMPLETE", "state changed"),
        ("demo", "UPDATE", "COMPLETE", "Stack UPDATE completed successfully"),
    ]


def test_the_replaced_template_row_is_deleted(engine: Engine) -> None:
    stack_id = engine.create(template("a"))
    first_template = engine.stack_row(stack_id).raw_template_id

    engine.update(stack_id, template("b"))

    assert engine.template_ids() == [engine.stack_row(stack_id).raw_template_id]
    assert first_template not in engine.template_ids()
