"""Scenario: delete a created stack: resources deleted in reverse order, rows gone."""

from __future__ import annotations

import sqlalchemy as sa

from keel_app.models import ResourceData, Stack
from tests.engine.convergence.harness import Engine

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "secret": {"type": "OS::Heat::RandomString"},
        "copy": {
            "type": "OS::Heat::Value",
            "properties": {"value": {"get_attr": ["secret", "value"]}},
        },
        "last": {"type": "OS::Heat::None", "depends_on": ["copy"]},
    },
}


def test_delete_ends_delete_complete_and_soft_deletes_the_stack(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    engine.delete(stack_id)

    with engine.database.transaction() as session:
        stack = session.get(Stack, stack_id)
        assert stack is not None
        assert (stack.action, stack.status, stack.status_reason) == (
            "DELETE",
            "COMPLETE",
            "Stack DELETE completed successfully",
        )
        assert stack.deleted_at is not None


def test_delete_removes_resource_rows_their_data_and_sync_points(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    engine.delete(stack_id)

    assert engine.resources(stack_id) == []
    assert engine.sync_points(stack_id) == []
    with engine.database.transaction() as session:
        assert session.scalars(sa.select(ResourceData)).all() == []


def test_resources_are_deleted_after_what_needs_them(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    engine.delete(stack_id)

    deletes = [
        name
        for name, action, status, _ in engine.events(stack_id)
        if (action, status) == ("DELETE", "COMPLETE") and name != "demo"
    ]
    assert deletes == ["last", "copy", "secret"]


def test_delete_of_a_stack_never_created_deletes_its_init_rows(engine: Engine) -> None:
    stack_id = engine.create(
        {
            "heat_template_version": "2018-08-31",
            "resources": {
                "bad": {"type": "OS::Heat::TestResource", "properties": {"fail": True}},
                "never": {"type": "OS::Heat::None", "depends_on": ["bad"]},
            },
        }
    )

    engine.delete(stack_id)

    assert engine.stack_row_deleted(stack_id) == ("DELETE", "COMPLETE")
    assert engine.resources(stack_id) == []


def test_a_retained_resource_goes_through_delete_without_its_handler(engine: Engine) -> None:
    stack_id = engine.create(
        {
            "heat_template_version": "2018-08-31",
            "resources": {
                "kept": {
                    "type": "OS::Heat::TestResource",
                    "deletion_policy": "Retain",
                    # Its delete would wait forever if it ran.
                    "properties": {"action_wait_secs": {"delete": -1}},
                },
            },
        }
    )

    engine.delete(stack_id)

    assert engine.stack_row_deleted(stack_id) == ("DELETE", "COMPLETE")
    assert [(name, action, status) for name, action, status, _ in engine.events(stack_id)[-3:]] == [
        ("kept", "DELETE", "IN_PROGRESS"),
        ("kept", "DELETE", "COMPLETE"),
        ("demo", "DELETE", "COMPLETE"),
    ]
