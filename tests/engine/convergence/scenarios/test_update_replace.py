"""Scenario: an update that needs a replacement (TestResource's update_replace)."""

from __future__ import annotations

from typing import Any

from tests.engine.convergence.harness import Engine


def template(value: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "test": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": value, "update_replace": True},
            },
            "copy": {
                "type": "OS::Heat::Value",
                "properties": {"value": {"get_attr": ["test", "output"]}},
            },
        },
    }


def test_the_replacement_is_a_new_row_and_the_old_row_is_gone(engine: Engine) -> None:
    stack_id = engine.create(template("a"))
    old = {row.name: row for row in engine.resources(stack_id)}

    engine.update(stack_id, template("b"))

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status) == ("UPDATE", "COMPLETE")
    new = {row.name: row for row in engine.resources(stack_id)}
    assert new["test"].id != old["test"].id
    assert new["test"].physical_resource_id != old["test"].physical_resource_id
    assert (new["test"].action, new["test"].status) == ("CREATE", "COMPLETE")
    # Once the old row is cleaned up, the new one no longer points at it.
    assert (new["test"].replaces, new["test"].replaced_by) == (None, None)
    assert new["copy"].id == old["copy"].id
    assert new["copy"].requires == [new["test"].id]
    assert sorted(row.id for row in engine.resources(stack_id)) == sorted(
        [new["test"].id, old["copy"].id]
    )
    assert engine.sync_points(stack_id) == []


def test_the_requirer_sees_the_replacements_value(engine: Engine) -> None:
    stack_id = engine.create(template("a"))

    engine.update(stack_id, template("b"))

    rows = {row.name: row for row in engine.resources(stack_id)}
    assert engine.properties_data(rows["copy"]) == {"value": "b"}


def test_replacement_events_are_heats(engine: Engine) -> None:
    stack_id = engine.create(template("a"))
    old_test = next(row for row in engine.resources(stack_id) if row.name == "test")
    created = len(engine.events(stack_id))

    engine.update(stack_id, template("b"))

    events = engine.events(stack_id)[created:]
    requires_replacement = (
        f'The Resource TestResource "test" [{old_test.physical_resource_id}] '
        f'Stack "demo" [{stack_id}] requires replacement.'
    )
    assert events == [
        ("demo", "UPDATE", "IN_PROGRESS", "Stack UPDATE started"),
        ("test", "UPDATE", "IN_PROGRESS", "state changed"),
        ("test", "UPDATE", "COMPLETE", requires_replacement),
        ("test", "CREATE", "IN_PROGRESS", "state changed"),
        ("test", "CREATE", "COMPLETE", "state changed"),
        ("copy", "UPDATE", "IN_PROGRESS", "state changed"),
        ("copy", "UPDATE", "COMPLETE", "state changed"),
        ("test", "DELETE", "IN_PROGRESS", "state changed"),
        ("test", "DELETE", "COMPLETE", "state changed"),
        ("demo", "UPDATE", "COMPLETE", "Stack UPDATE completed successfully"),
    ]
