"""ResourceGroup and ResourceChain: declarations and the checks their validate makes."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.common.exception import InvalidTemplateAttribute, StackValidationFailed
from tests.resources.heat.stacks import build


def test_group_member_type_must_resolve() -> None:
    stack = build(
        "  g: {type: OS::Heat::ResourceGroup, properties: {resource_def: {type: X::Y}}}\n"
    )
    with pytest.raises(StackValidationFailed) as raised:
        stack["g"].validate()
    assert str(raised.value) == "The Resource Type (X::Y) could not be found."


def test_empty_group_skips_the_member_check() -> None:
    stack = build(
        "  g: {type: OS::Heat::ResourceGroup, properties: {count: 0, resource_def: {type: X::Y}}}\n"
    )
    assert stack["g"].validate() is None


def test_group_with_known_member_type_validates() -> None:
    stack = build(
        "  g: {type: OS::Heat::ResourceGroup, properties: {resource_def: {type: OS::Heat::None}}}\n"
    )
    assert stack["g"].validate() is None


def test_group_answers_synthetic_attributes() -> None:
    stack = build(
        "  g: {type: OS::Heat::ResourceGroup, properties: {resource_def: {type: OS::Heat::None}}}\n"
    )
    assert stack["g"].get_attribute("resource.0.name") is None


def test_group_update_policy_defaults() -> None:
    stack = build(
        "  g:\n"
        "    type: OS::Heat::ResourceGroup\n"
        "    properties: {resource_def: {type: OS::Heat::None}}\n"
        "    update_policy: {rolling_update: {}}\n"
    )
    assert stack["g"].update_policy["rolling_update"] == {
        "min_in_service": 0,
        "max_batch_size": 1,
        "pause_time": 0,
    }


def test_chain_unknown_type_fails_validate() -> None:
    stack = build("  c: {type: OS::Heat::ResourceChain, properties: {resources: [A::B]}}\n")
    with pytest.raises(StackValidationFailed) as raised:
        stack["c"].validate()
    assert str(raised.value) == "The Resource Type (A::B) could not be found."


def test_chain_attributes_attribute_needs_a_path() -> None:
    stack = build("  c: {type: OS::Heat::ResourceChain, properties: {resources: []}}\n")
    with pytest.raises(InvalidTemplateAttribute):
        stack["c"].get_attribute("attributes")
    assert stack["c"].get_attribute("attributes", "name") is None
    assert stack["c"].template_url == "nested_stack"


def validation_stack(resources: str) -> Any:
    from keel_app.engine.environment import Environment
    from keel_app.engine.template import Template
    from keel_app.engine.template.format import parse
    from keel_app.engine.validate.stack import ValidationStack

    template = Template(
        parse(f"heat_template_version: 2015-04-30\nresources:\n{resources}"), env=Environment({})
    )
    return ValidationStack(None, "outer", template)


def test_group_validates_one_member_as_a_nested_stack() -> None:
    stack = validation_stack(
        "  g:\n"
        "    type: OS::Heat::ResourceGroup\n"
        "    properties: {resource_def: {type: OS::Heat::RandomString, properties: {length: 0}}}\n"
    )
    with pytest.raises(StackValidationFailed) as raised:
        stack["g"].validate()
    # The member is validated leniently (values unchecked), but its own checks run; the
    # error keeps its message under the group's path (Heat 27.0.1 answers the same).
    assert str(raised.value) == (
        "resources.g<nested_stack>: Length property cannot be smaller than combined "
        "character class and character sequence minimums"
    )


def test_group_nested_parameters_stack_has_one_member_named_by_index() -> None:
    stack = validation_stack(
        "  g:\n"
        "    type: OS::Heat::ResourceGroup\n"
        "    properties:\n"
        "      count: 3\n"
        "      removal_policies: [{resource_list: ['0']}]\n"
        "      resource_def: {type: OS::Heat::Value, properties: {value: 'member %index%'}}\n"
    )
    nested = stack["g"].get_nested_parameters_stack()
    assert nested.name == "outer-g"
    assert nested.t.t["resources"] == {
        "1": {"type": "OS::Heat::Value", "properties": {"value": "member 1"}}
    }
