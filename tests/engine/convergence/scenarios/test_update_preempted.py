"""Scenario: a second update starts while the first is still updating a slow resource."""

from __future__ import annotations

from typing import Any

from tests.engine.convergence.harness import ENGINE_ID, Engine


def template(value: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "slow": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": value, "action_wait_secs": {"update": 5}},
            },
            "copy": {
                "type": "OS::Heat::Value",
                "properties": {"value": {"get_attr": ["slow", "output"]}},
            },
        },
    }


def start_first_update(engine: Engine, stack_id: str) -> None:
    """Run the first update until the slow resource is waiting, locked, mid-update."""
    engine.update(stack_id, template("b"), run=False)
    while engine.states(stack_id)["slow"] != ("UPDATE", "IN_PROGRESS"):
        engine.queue.run_one()
    assert [message.countdown for message in engine.queue.pending()] == [0.1]


def test_the_waiting_update_holds_the_lock_of_its_engine(engine: Engine) -> None:
    stack_id = engine.create(template("a"))

    start_first_update(engine, stack_id)

    slow = next(row for row in engine.resources(stack_id) if row.name == "slow")
    assert slow.engine_id == ENGINE_ID


def test_the_second_update_wins_and_the_stack_ends_on_its_template(engine: Engine) -> None:
    stack_id = engine.create(template("a"))
    start_first_update(engine, stack_id)

    engine.update(stack_id, template("c"))

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == (
        "UPDATE",
        "COMPLETE",
        "Stack UPDATE completed successfully",
    )
    rows = {row.name: row for row in engine.resources(stack_id)}
    assert {row.current_template_id for row in rows.values()} == {stack.raw_template_id}
    assert {row.engine_id for row in rows.values()} == {None}
    assert engine.properties_data(rows["copy"]) == {"value": "c"}
    assert [(row.key, row.value) for row in engine.resource_data(rows["slow"].id)] == [
        ("value", "c")
    ]
    assert engine.sync_points(stack_id) == []


def test_the_first_update_finishes_its_step_then_the_second_takes_over(engine: Engine) -> None:
    stack_id = engine.create(template("a"))
    created = len(engine.events(stack_id))
    start_first_update(engine, stack_id)

    engine.update(stack_id, template("c"))

    assert engine.events(stack_id)[created:] == [
        ("demo", "UPDATE", "IN_PROGRESS", "Stack UPDATE started"),
        ("slow", "UPDATE", "IN_PROGRESS", "state changed"),
        ("demo", "UPDATE", "IN_PROGRESS", "Stack UPDATE started"),
        ("slow", "UPDATE", "COMPLETE", "state changed"),
        ("slow", "UPDATE", "IN_PROGRESS", "state changed"),
        ("slow", "UPDATE", "COMPLETE", "state changed"),
        ("copy", "UPDATE", "IN_PROGRESS", "state changed"),
        ("copy", "UPDATE", "COMPLETE", "state changed"),
        ("demo", "UPDATE", "COMPLETE", "Stack UPDATE completed successfully"),
    ]
