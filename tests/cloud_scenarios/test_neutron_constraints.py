"""The neutron.* custom constraints against the real Neutron: a value is looked up by name
or id, and where the kind of thing lives in an extension the cloud lacks (SFC here), the
value is refused for the missing extension before any look-up, as Heat refuses it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from heatclient.exc import HTTPBadRequest


def refusal(heat: Any, template: dict[str, Any], parameters: dict[str, Any]) -> Any:
    stack_name = f"constraint-{uuid.uuid4().hex[:8]}"
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=stack_name, template=template, parameters=parameters)
    assert [stack for stack in heat.stacks.list() if stack.stack_name == stack_name] == []
    return refused.value.error["error"]


def test_a_network_naming_no_qos_policy_is_refused(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "parameters": {"policy": {"type": "string"}},
        "resources": {
            "net": {
                "type": "OS::Neutron::Net",
                "properties": {"qos_policy": {"get_param": "policy"}},
            }
        },
    }
    missing = f"no-such-policy-{uuid.uuid4().hex[:8]}"

    assert refusal(heat, template, {"policy": missing}) == {
        "message": "Property error: : resources.net.properties.qos_policy: : Error validating "
        f"value '{missing}': Unable to find policy with name or id '{missing}'",
        "traceback": None,
        "type": "StackValidationFailed",
    }


def test_a_port_pair_is_refused_where_neutron_has_no_sfc_extension(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "pair": {"type": "string", "constraints": [{"custom_constraint": "neutron.port_pair"}]}
        },
        "resources": {},
    }

    assert refusal(heat, template, {"pair": "pair-1"}) == {
        "message": "Parameter 'pair' is invalid: Error validating value 'pair-1': "
        "The neutron extension (sfc) could not be found.",
        "traceback": None,
        "type": "StackValidationFailed",
    }


def test_a_parameter_naming_no_address_scope_is_refused(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "scope": {
                "type": "string",
                "constraints": [{"custom_constraint": "neutron.address_scope"}],
            }
        },
        "resources": {},
    }
    missing = f"no-such-scope-{uuid.uuid4().hex[:8]}"

    assert refusal(heat, template, {"scope": missing}) == {
        "message": f"Parameter 'scope' is invalid: Error validating value '{missing}': "
        f"Unable to find address_scope with name or id '{missing}'",
        "traceback": None,
        "type": "StackValidationFailed",
    }


def test_a_subnet_naming_no_segment_is_refused(heat: Any) -> None:
    # neutron.segment is served by Heat's ``openstack`` client plugin (openstacksdk).
    template = {
        "heat_template_version": "2018-08-31",
        "parameters": {"segment": {"type": "string"}},
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {
                    "network": {"get_resource": "net"},
                    "cidr": "10.44.0.0/24",
                    "segment": {"get_param": "segment"},
                },
            },
        },
    }
    missing = f"no-such-segment-{uuid.uuid4().hex[:8]}"

    assert refusal(heat, template, {"segment": missing}) == {
        "message": "Property error: : resources.subnet.properties.segment: : Error validating "
        f"value '{missing}': No Segment found for {missing}",
        "traceback": None,
        "type": "StackValidationFailed",
    }
