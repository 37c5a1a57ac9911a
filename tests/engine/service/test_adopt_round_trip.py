"""Abandon, then adopt: a stack's data handed over by abandon_stack and taken back by
create_stack with ``adopt_stack_data``. The new stack's resources are the old ones
(their physical ids, their ``resource_data``, a random string's value), each
ADOPT_COMPLETE after ADOPT_IN_PROGRESS. A resource group's members and a template
resource's are adopted in a nested stack of their own, adopted in turn; an
OS::Heat::Stack's stack, a stack of its own that the abandon left alone, is taken over
as it is."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.engine.service.stack_abandon import abandon_stack
from tests.engine.convergence.nested import NestedEngine, nested_engine

PAIR = """\
heat_template_version: 2018-08-31
parameters:
  length: {type: number}
resources:
  inner: {type: OS::Heat::RandomString, properties: {length: {get_param: length}}}
outputs:
  inner: {value: {get_attr: [inner, value]}}
"""
OTHER = """\
heat_template_version: 2018-08-31
resources:
  elsewhere: {type: OS::Heat::None}
"""
TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "parameters": {"greeting": {"type": "string", "default": "hi"}},
    "resources": {
        "secret": {"type": "OS::Heat::RandomString", "properties": {"length": 12}},
        "told": {
            "type": "OS::Heat::Value",
            "properties": {
                "value": {
                    "list_join": ["-", [{"get_param": "greeting"}, {"get_resource": "secret"}]]
                }
            },
        },
        "nothing": {"type": "OS::Heat::None", "depends_on": ["told"]},
        "group": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {
                "count": 2,
                "resource_def": {"type": "OS::Heat::RandomString", "properties": {"length": 8}},
            },
        },
        "pair": {"type": "pair.yaml", "properties": {"length": 6}},
        "other": {"type": "OS::Heat::Stack", "properties": {"template": OTHER}},
    },
    "outputs": {
        "told": {"value": {"get_attr": ["told", "value"]}},
        "secret": {"value": {"get_attr": ["secret", "value"]}},
        "members": {"value": {"get_attr": ["group", "value"]}},
        "inner": {"value": {"get_attr": ["pair", "inner"]}},
    },
}

OWN_RESOURCES = ("secret", "told", "nothing", "group", "pair", "other")
NESTED_OWNERS = ("group", "pair")


@pytest.fixture
def nested(empty_database_url: str) -> Iterator[NestedEngine]:
    yield from nested_engine(empty_database_url, enable_stack_abandon=True, enable_stack_adopt=True)


def _abandon(nested: NestedEngine, identity: dict[str, str]) -> dict[str, Any]:
    data = abandon_stack(
        nested.context, nested.settings, nested.database, nested.queue, stack_identity=identity
    )
    nested.queue.run_until_idle()
    # What the API hands over travels as JSON.
    return json.loads(json.dumps(data))


def _adopt(nested: NestedEngine, data: dict[str, Any], **args: Any) -> dict[str, str]:
    # As the API calls the engine: the template is the data's, the files the caller's.
    return nested.create(
        data["template"],
        name="adopted",
        files={"pair.yaml": PAIR},
        adopt_stack_data=json.dumps(data),
        **args,
    )


@pytest.fixture
def round_trip(nested: NestedEngine) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """The abandoned stack's outputs and data, and the identity of the adopted stack."""
    original = nested.create(
        TEMPLATE, environment={"parameters": {"greeting": "hello"}}, files={"pair.yaml": PAIR}
    )
    outputs = nested.outputs(original)
    data = _abandon(nested, original)
    return outputs, data, _adopt(nested, data)


def test_the_adopted_stack_completes_as_an_adopt(nested: NestedEngine, round_trip) -> None:
    _, _, identity = round_trip

    row = nested.stack(identity["stack_id"])

    assert (row.action, row.status, row.status_reason) == (
        "ADOPT",
        "COMPLETE",
        "Stack ADOPT completed successfully",
    )
    assert nested.reasons(row.id, "adopted") == [
        "Stack ADOPT started",
        "Stack ADOPT completed successfully",
    ]


def test_each_resource_is_the_abandoned_one(nested: NestedEngine, round_trip) -> None:
    _, data, identity = round_trip
    taken_over = ("secret", "told", "nothing", "other")

    adopted = nested.resources(identity["stack_id"])

    assert {name: adopted[name].physical_resource_id for name in taken_over} == {
        name: data["resources"][name]["resource_id"] for name in taken_over
    }
    assert {name: (row.action, row.status) for name, row in adopted.items()} == {
        name: ("ADOPT", "COMPLETE") for name in OWN_RESOURCES
    }
    for name in taken_over:
        assert nested.reasons(identity["stack_id"], name) == ["state changed", "state changed"]
        assert nested.resource_data(adopted[name].id) == data["resources"][name]["resource_data"]


def test_the_other_stack_lives_on_untouched(nested: NestedEngine, round_trip) -> None:
    _, data, identity = round_trip

    other = nested.stack(nested.resources(identity["stack_id"])["other"].physical_resource_id)

    assert other.id == data["resources"]["other"]["resource_id"]
    assert (other.action, other.status, other.deleted_at) == ("CREATE", "COMPLETE", None)


def test_the_random_strings_keep_their_values(nested: NestedEngine, round_trip) -> None:
    outputs, _, identity = round_trip

    assert nested.outputs(identity) == outputs
    assert outputs["told"] == f"hello-{outputs['secret']}"
    assert len(outputs["secret"]) == 12


@pytest.mark.parametrize("owner", NESTED_OWNERS)
def test_a_nested_stack_is_adopted_in_turn(nested: NestedEngine, round_trip, owner) -> None:
    _, data, identity = round_trip
    handed_over = data["resources"][owner]

    resource = nested.resources(identity["stack_id"])[owner]
    child = nested.stack(resource.physical_resource_id)

    assert child.id != handed_over["id"]
    assert (child.action, child.status, child.status_reason, child.parent_resource_name) == (
        "ADOPT",
        "COMPLETE",
        "Stack ADOPT completed successfully",
        owner,
    )
    assert child.owner_id == identity["stack_id"]
    members = nested.resources(child.id)
    assert {name: row.physical_resource_id for name, row in members.items()} == {
        name: member["resource_id"] for name, member in handed_over["resources"].items()
    }
    assert {name: nested.resource_data(row.id) for name, row in members.items()} == {
        name: member["resource_data"] for name, member in handed_over["resources"].items()
    }
    assert {name: (row.action, row.status) for name, row in members.items()} == {
        name: ("ADOPT", "COMPLETE") for name in handed_over["resources"]
    }
