"""referenced_attributes: which attributes of a resource the stack's definitions read."""

from __future__ import annotations

from typing import Any

from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.template import Template
from keel_app.engine.template.stack_definition import (
    ResourceData,
    StackDefinition,
    referenced_attributes,
    update_resource_data,
)

STACK_ID = HeatIdentifier("tenant", "stack", "1234")

TEMPLATE = {
    "heat_template_version": "2021-04-16",
    "parameters": {"which": {"type": "string", "default": "first"}},
    "resources": {
        "source": {"type": "OS::Heat::RandomString"},
        "chooser": {"type": "OS::Heat::Value"},
        "reader": {
            "type": "OS::Heat::Value",
            "properties": {
                "value": {"get_attr": ["source", "value"]},
                "chosen": {"get_attr": ["source", {"get_attr": ["chooser", "value"]}]},
            },
            "metadata": {"path": {"get_attr": ["source", "nested", "key"]}},
        },
        "other": {"type": "OS::Heat::None", "properties": {"v": {"get_attr": ["source", "value"]}}},
    },
    "outputs": {
        "all": {"value": {"get_attr": ["chooser"]}},
        "one": {"value": {"get_attr": ["source", "length"]}},
    },
}


def naive(stack: StackDefinition, name: str, in_resources: bool, in_outputs: bool) -> set[Any]:
    """What asking every definition gives (Heat's way)."""
    read: set[Any] = set()
    if in_resources:
        for resource in stack.enabled_rsrc_names():
            read.update(stack.resource_definition(resource).dep_attrs(name, True))
    if in_outputs:
        for output in stack.enabled_output_names():
            read.update(stack.output_definition(output).dep_attrs(name, True))
    return read


def test_answers_what_asking_every_definition_answers() -> None:
    stack = StackDefinition(None, Template(TEMPLATE), STACK_ID, {})
    for name in ("source", "chooser", "reader", "other", "absent"):
        for in_resources, in_outputs in ((True, True), (True, False), (False, True)):
            expected = naive(stack, name, in_resources, in_outputs)
            assert referenced_attributes(stack, name, in_resources, in_outputs) == expected


def test_attribute_names_read_from_data_follow_the_data() -> None:
    stack = StackDefinition(None, Template(TEMPLATE), STACK_ID, {})
    assert referenced_attributes(stack, "source", in_outputs=False) == {
        "value",
        None,
        ("nested", "key"),
    }
    chooser = ResourceData("chooser", attribute_values={"value": "length"})
    update_resource_data(stack, "chooser", chooser)
    assert referenced_attributes(stack, "source", in_outputs=False) == {
        "value",
        "length",
        ("nested", "key"),
    }
    assert referenced_attributes(stack, "source", in_outputs=False) == naive(
        stack, "source", True, False
    )


def test_the_all_attributes_form_is_reported_as_a_star() -> None:
    stack = StackDefinition(None, Template(TEMPLATE), STACK_ID, {})
    assert referenced_attributes(stack, "chooser", in_resources=False) == {"*"}
