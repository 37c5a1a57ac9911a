"""Scenario: a template resource from the environment owns a nested stack, created with
the parent and deleted with it (the stack rows soft-deleted, as Heat leaves them)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine.convergence.nested import NestedEngine, nested_engine

SERVER = """\
heat_template_version: 2018-08-31
parameters:
  size: {type: number}
  label: {type: string, default: plain}
resources:
  secret: {type: OS::Heat::RandomString, properties: {length: {get_param: size}}}
  tag: {type: OS::Heat::Value, properties: {value: {get_param: label}}}
outputs:
  secret: {value: {get_attr: [secret, value]}}
  label: {value: {get_attr: [tag, value]}}
"""
TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "server": {"type": "My::Server", "properties": {"size": 12, "label": "blue"}},
        "after": {
            "type": "OS::Heat::Value",
            "properties": {"value": {"get_attr": ["server", "label"]}},
        },
    },
    "outputs": {
        "label": {"value": {"get_attr": ["server", "label"]}},
        "secret": {"value": {"get_attr": ["server", "secret"]}},
        "reference": {"value": {"get_resource": "server"}},
        "after": {"value": {"get_attr": ["after", "value"]}},
    },
}
ENVIRONMENT = {"resource_registry": {"My::Server": "server.yaml"}}
FILES = {"server.yaml": SERVER}


@pytest.fixture
def nested(empty_database_url: str) -> Iterator[NestedEngine]:
    yield from nested_engine(empty_database_url)


def _create(nested: NestedEngine) -> dict[str, str]:
    return nested.create(TEMPLATE, environment=ENVIRONMENT, files=FILES)


def test_the_child_is_owned_by_the_parent_one_level_down(nested: NestedEngine) -> None:
    identity = _create(nested)

    parent = nested.stack(identity["stack_id"])
    child = nested.child(parent.id)
    resource = nested.resources(parent.id)["server"]
    assert (child.action, child.status, child.status_reason) == (
        "CREATE",
        "COMPLETE",
        "Stack CREATE completed successfully",
    )
    assert resource.physical_resource_id == child.id
    assert (child.nested_depth, child.parent_resource_name, child.tenant) == (
        1,
        "server",
        "project-a",
    )
    assert child.user_creds_id == parent.user_creds_id
    assert child.disable_rollback is True
    assert child.name.startswith("web-server-") and len(child.name) == len("web-server-") + 12


def test_the_parameters_are_the_resource_properties(nested: NestedEngine) -> None:
    identity = _create(nested)

    child = nested.child(identity["stack_id"])
    assert nested.states(child.id) == {
        "secret": ("CREATE", "COMPLETE"),
        "tag": ("CREATE", "COMPLETE"),
    }
    assert nested.environment(child.id)["parameters"] == {"size": 12, "label": "blue"}
    assert len(nested.outputs(identity)["secret"]) == 12


def test_the_attributes_are_the_child_outputs(nested: NestedEngine) -> None:
    identity = _create(nested)

    child = nested.child(identity["stack_id"])
    secret = nested.resource_data(nested.resources(child.id)["secret"].id)["value"]
    outputs = nested.outputs(identity)
    assert outputs == {
        "label": "blue",
        "secret": secret,
        "reference": f"arn:openstack:heat::project-a:stacks/{child.name}/{child.id}",
        "after": "blue",
    }


def test_an_update_passes_the_new_properties_on(nested: NestedEngine) -> None:
    identity = _create(nested)
    template = {**TEMPLATE, "resources": dict(TEMPLATE["resources"])}
    template["resources"]["server"] = {
        "type": "My::Server",
        "properties": {"size": 12, "label": "red"},
    }

    nested.update(identity, template, environment=ENVIRONMENT, files=FILES)

    child = nested.child(identity["stack_id"])
    assert (child.action, child.status) == ("UPDATE", "COMPLETE")
    assert nested.states(identity["stack_id"]) == {
        "server": ("UPDATE", "COMPLETE"),
        "after": ("UPDATE", "COMPLETE"),
    }
    assert nested.outputs(identity)["label"] == "red"
    assert nested.outputs(identity)["after"] == "red"


def test_delete_deletes_the_child_and_leaves_its_row_soft_deleted(nested: NestedEngine) -> None:
    identity = _create(nested)
    child_id = nested.child(identity["stack_id"]).id

    nested.delete(identity)

    for stack_id in (identity["stack_id"], child_id):
        row = nested.stack(stack_id)
        assert (row.action, row.status, row.status_reason) == (
            "DELETE",
            "COMPLETE",
            "Stack DELETE completed successfully",
        )
        assert row.deleted_at is not None
        assert nested.resources(stack_id) == {}
    assert nested.events(identity["stack_id"])[-4:] == [
        ("after", "DELETE", "COMPLETE"),
        ("server", "DELETE", "IN_PROGRESS"),
        ("server", "DELETE", "COMPLETE"),
        ("web", "DELETE", "COMPLETE"),
    ]


def test_delete_goes_down_every_level(nested: NestedEngine) -> None:
    outer = (
        "heat_template_version: 2018-08-31\n"
        "resources:\n"
        "  inner: {type: My::Server, properties: {size: 4}}\n"
    )
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"outer": {"type": "My::Outer"}},
    }
    environment = {"resource_registry": {"My::Server": "server.yaml", "My::Outer": "outer.yaml"}}
    identity = nested.create(
        template, environment=environment, files={**FILES, "outer.yaml": outer}
    )
    middle = nested.child(identity["stack_id"])
    bottom = nested.child(middle.id)
    assert (middle.nested_depth, bottom.nested_depth) == (1, 2)
    assert (bottom.action, bottom.status) == ("CREATE", "COMPLETE")

    nested.delete(identity)

    for stack_id in (identity["stack_id"], middle.id, bottom.id):
        row = nested.stack(stack_id)
        assert (row.action, row.status, row.deleted_at is not None) == ("DELETE", "COMPLETE", True)
