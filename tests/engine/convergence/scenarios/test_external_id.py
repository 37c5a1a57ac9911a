"""Scenario: a resource with ``external_id`` is taken over and checked, never made, and an
update may neither change nor drop that id (Heat's create and update of external
resources)."""

from __future__ import annotations

from typing import Any

from tests.engine.convergence.harness import Engine


def template(external_id: str | None, value: str = "a") -> dict[str, Any]:
    outside: dict[str, Any] = {"type": "OS::Heat::None", "properties": {"a": value}}
    if external_id is not None:
        outside["external_id"] = external_id
    return {
        "heat_template_version": "2016-10-14",
        "resources": {"outside": outside, "made": {"type": "OS::Heat::None"}},
    }


def test_an_external_resource_is_adopted_then_checked(engine: Engine) -> None:
    stack_id = engine.create(template("physical-1"))

    stack = engine.stack_row(stack_id)
    rows = {row.name: row for row in engine.resources(stack_id)}
    assert (stack.action, stack.status) == ("CREATE", "COMPLETE")
    outside = rows["outside"]
    assert (outside.action, outside.status, outside.status_reason) == (
        "CHECK",
        "COMPLETE",
        "CHECK not supported for OS::Heat::None",
    )
    assert outside.physical_resource_id == "physical-1"
    assert (rows["made"].action, rows["made"].status) == ("CREATE", "COMPLETE")
    events = [event for event in engine.events(stack_id) if event[0] == "outside"]
    assert [(action, status) for _, action, status, _ in events] == [
        ("ADOPT", "IN_PROGRESS"),
        ("ADOPT", "COMPLETE"),
        ("CHECK", "COMPLETE"),
    ]


def test_a_resource_with_a_check_of_its_own_is_checked_by_it(engine: Engine) -> None:
    stack_id = engine.create(
        {
            "heat_template_version": "2016-10-14",
            "resources": {"outside": {"type": "OS::Heat::TestResource", "external_id": "tr-1"}},
        }
    )

    [row] = engine.resources(stack_id)
    assert (row.action, row.status, row.physical_resource_id) == ("CHECK", "COMPLETE", "tr-1")
    assert engine.stack_row(stack_id).status == "COMPLETE"


def test_an_update_leaves_an_external_resource_alone(engine: Engine) -> None:
    stack_id = engine.create(template("physical-1"))
    before = {row.name: row for row in engine.resources(stack_id)}

    engine.update(stack_id, template("physical-1", value="b"))

    stack = engine.stack_row(stack_id)
    rows = {row.name: row for row in engine.resources(stack_id)}
    assert (stack.action, stack.status) == ("UPDATE", "COMPLETE")
    outside = rows["outside"]
    assert (outside.id, outside.action, outside.status) == (
        before["outside"].id,
        "CHECK",
        "COMPLETE",
    )
    assert outside.current_template_id == stack.raw_template_id


def test_changing_the_external_id_fails_the_update(engine: Engine) -> None:
    stack_id = engine.create(template("physical-1"))

    engine.update(stack_id, template("physical-2"))

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status) == ("UPDATE", "FAILED")
    assert stack.status_reason == (
        "Resource UPDATE failed: NotSupported: resources.outside: Update to property "
        "external_id of outside (OS::Heat::None) is not supported."
    )
    [outside] = [row for row in engine.resources(stack_id) if row.name == "outside"]
    assert (outside.physical_resource_id, outside.action, outside.status) == (
        "physical-1",
        "CHECK",
        "COMPLETE",
    )


def test_dropping_the_external_id_fails_the_update(engine: Engine) -> None:
    stack_id = engine.create(template("physical-1"))

    engine.update(stack_id, template(None))

    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status) == ("UPDATE", "FAILED")
    assert "Update to property external_id of outside (OS::Heat::None)" in stack.status_reason
