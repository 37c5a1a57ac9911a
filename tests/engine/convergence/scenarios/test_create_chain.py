"""Scenario: a chain by depends_on and get_attr, values passed along in node data."""

from __future__ import annotations

from keel_app.engine.convergence import sync_point
from tests.engine.convergence.harness import Engine

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "secret": {"type": "OS::Heat::RandomString", "properties": {"length": 16}},
        "copy": {
            "type": "OS::Heat::Value",
            "properties": {"value": {"get_attr": ["secret", "value"]}},
        },
        "joined": {
            "type": "OS::Heat::TestResource",
            "depends_on": ["copy"],
            "properties": {
                "value": {
                    "list_join": [
                        "/",
                        [{"get_attr": ["copy", "value"]}, {"get_resource": "secret"}],
                    ]
                }
            },
        },
    },
}


def test_each_resource_is_created_after_what_it_needs(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    assert engine.stack_row(stack_id).status == "COMPLETE"
    creates = [
        name
        for name, action, status, _ in engine.events(stack_id)
        if (action, status) == ("CREATE", "IN_PROGRESS") and name != "demo"
    ]
    assert creates == ["secret", "copy", "joined"]


def test_values_flow_through_get_attr_and_get_resource(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    rows = {row.name: row for row in engine.resources(stack_id)}
    joined = {row.key: row.value for row in engine.resource_data(rows["joined"].id)}
    first, second = joined["value"].split("/")
    assert first == second
    assert len(first) == 16


def test_requires_name_the_rows_of_the_predecessors(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    rows = {row.name: row for row in engine.resources(stack_id)}
    assert rows["secret"].requires == []
    assert rows["copy"].requires == [rows["secret"].id]
    assert rows["joined"].requires == sorted([rows["secret"].id, rows["copy"].id], reverse=True)


def test_check_resource_carries_heats_node_data(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    rows = {row.name: row for row in engine.resources(stack_id)}
    to_copy = next(
        message.arguments
        for message in engine.queue.delivered
        if message.arguments["resource_id"] == rows["copy"].id
    )
    secret = rows["secret"]
    [stored] = engine.resource_data(secret.id)
    value = to_copy["data"]["input_data"][f"tuple:({secret.id}, True, 'resource')"]["attrs"][
        "value"
    ]
    assert to_copy["data"] == sync_point.serialize_input_data(
        {
            (secret.id, True, "resource"): {
                "id": secret.id,
                "name": "secret",
                "reference_id": value,
                "attrs": {"value": value},
                "status": "COMPLETE",
                "action": "CREATE",
                "uuid": secret.uuid,
            }
        }
    )
    assert to_copy["is_update"] is True
    assert to_copy["current_traversal"] == engine.stack_row(stack_id).current_traversal


def test_attributes_others_read_are_stored_unless_never_cached(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    rows = {row.name: row for row in engine.resources(stack_id)}
    [secret_data] = engine.resource_data(rows["secret"].id)
    # RandomString's value is never cached (it lives in resource_data); Value's is.
    assert rows["secret"].attr_data_id is None
    assert engine.attribute_data(rows["copy"]) == {"value": engine.decrypt(secret_data)}
    # Nothing reads the last resource's attributes.
    assert rows["joined"].attr_data_id is None
