"""Template resources through the engine: the provider template from the environment (or
named as the type) becomes a nested stack; properties are its parameters, outputs its
attributes, and its ``OS::stack_id`` output the resource's reference."""

from __future__ import annotations

from typing import Any

from tests.engine.convergence.nested import NestedEngine

PROVIDER = """\
heat_template_version: 2018-08-31
parameters:
  names: {type: comma_delimited_list}
  settings: {type: json, default: {}}
resources:
  first: {type: OS::Heat::Value, properties: {value: {get_param: [names, 0]}}}
outputs:
  first: {value: {get_attr: [first, value]}}
  count: {value: {list_join: ['+', {get_param: names}]}}
  settings: {value: {get_param: settings}}
"""
WITH_STACK_ID = PROVIDER + "  OS::stack_id: {value: custom-reference}\n"


def _template(resource_type: str, **outputs: Any) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "thing": {
                "type": resource_type,
                "properties": {"names": ["a", "b", "c"], "settings": {"deep": [1, 2]}},
            }
        },
        "outputs": {
            "first": {"value": {"get_attr": ["thing", "first"]}},
            "count": {"value": {"get_attr": ["thing", "count"]}},
            "settings": {"value": {"get_attr": ["thing", "settings", "deep", 1]}},
            "member": {"value": {"get_attr": ["thing", "resource.first.value"]}},
            "reference": {"value": {"get_resource": "thing"}},
            **outputs,
        },
    }


def test_a_provider_from_the_registry(nested: NestedEngine) -> None:
    identity = nested.create(
        _template("My::Thing"),
        environment={"resource_registry": {"My::Thing": "thing.yaml"}},
        files={"thing.yaml": PROVIDER},
    )

    child = nested.child(identity["stack_id"])
    assert nested.environment(child.id)["parameters"] == {
        "names": "a,b,c",
        "settings": {"deep": [1, 2]},
    }
    assert nested.outputs(identity) == {
        "first": "a",
        "count": "a+b+c",
        "settings": 2,
        "member": "a",
        "reference": f"arn:openstack:heat::project-a:stacks/{child.name}/{child.id}",
    }


def test_a_provider_named_as_the_type(nested: NestedEngine) -> None:
    identity = nested.create(_template("thing.yaml"), files={"thing.yaml": PROVIDER})

    assert nested.outputs(identity)["first"] == "a"
    assert nested.child(identity["stack_id"]).parent_resource_name == "thing"


def test_the_stack_id_output_is_the_reference(nested: NestedEngine) -> None:
    identity = nested.create(_template("thing.yaml"), files={"thing.yaml": WITH_STACK_ID})

    assert nested.outputs(identity)["reference"] == "custom-reference"


def test_a_provider_for_a_type_may_use_that_type_itself(nested: NestedEngine) -> None:
    wrapper = (
        "heat_template_version: 2018-08-31\n"
        "resources:\n"
        "  real: {type: OS::Heat::None}\n"
        "outputs:\n"
        "  inside: {value: {get_resource: real}}\n"
    )
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"thing": {"type": "OS::Heat::None"}},
        "outputs": {"inside": {"value": {"get_attr": ["thing", "inside"]}}},
    }

    identity = nested.create(
        template,
        environment={"resource_registry": {"OS::Heat::None": "wrapper.yaml"}},
        files={"wrapper.yaml": wrapper},
    )

    # Inside the provider the type is the plugin again, not the provider.
    child = nested.child(identity["stack_id"])
    assert nested.children(child.id) == []
    real = nested.resources(child.id)["real"]
    assert nested.outputs(identity) == {"inside": real.physical_resource_id}


def test_deleting_the_parent_deletes_the_provider_stack(nested: NestedEngine) -> None:
    identity = nested.create(_template("thing.yaml"), files={"thing.yaml": PROVIDER})
    child_id = nested.child(identity["stack_id"]).id

    nested.delete(identity)

    child = nested.stack(child_id)
    assert (child.action, child.status) == ("DELETE", "COMPLETE")
    assert child.deleted_at is not None
