"""Software configs, wait conditions and stack resources: declarations and checks."""

from __future__ import annotations

import pytest

from keel_app.common.exception import InvalidTemplateAttribute, StackValidationFailed
from keel_app.resources.heat.software_config import SoftwareConfig, StructuredConfig
from keel_app.resources.heat.stack import NestedStack, RemoteStack
from keel_app.resources.heat.wait_condition import (
    HeatWaitConditionHandle,
    UpdateWaitConditionHandle,
    WaitCondition,
)
from tests.resources.heat.stacks import build


def test_software_component_refuses_two_configs_for_one_action() -> None:
    stack = build(
        "  c:\n"
        "    type: OS::Heat::SoftwareComponent\n"
        "    properties:\n"
        "      configs: [{tool: a, actions: [CREATE]}, {tool: b, actions: [CREATE]}]\n"
    )
    with pytest.raises(StackValidationFailed) as raised:
        stack["c"].validate()
    assert str(raised.value) == (
        'Defining more than one configuration for the same action in SoftwareComponent "c" '
        "is not allowed."
    )


def test_structured_config_shares_all_but_config() -> None:
    shared = ("group", "options", "inputs", "outputs")
    for name in shared:
        assert StructuredConfig.properties_schema[name] is SoftwareConfig.properties_schema[name]
    assert StructuredConfig.properties_schema["config"].type == "Map"


def test_config_types_need_the_orchestration_service() -> None:
    assert SoftwareConfig.default_client_name == "heat"
    assert RemoteStack.default_client_name == "heat"
    assert HeatWaitConditionHandle.default_client_name is None


def test_handles_need_deferred_auth() -> None:
    assert HeatWaitConditionHandle.requires_deferred_auth is True
    assert UpdateWaitConditionHandle.requires_deferred_auth is True


def test_cfn_wait_condition_has_no_description() -> None:
    assert WaitCondition.getdoc() == "No description available"


def test_nested_stack_attributes_are_its_outputs() -> None:
    stack = build("  s: {type: AWS::CloudFormation::Stack, properties: {TemplateURL: x}}\n")
    assert stack["s"].get_attribute("Outputs.name") is None
    with pytest.raises(InvalidTemplateAttribute):
        stack["s"].get_attribute("name")
    assert NestedStack.requires_deferred_auth is True
