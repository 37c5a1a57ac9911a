"""OS::Neutron::Port against the real Neutron: made with its addresses, groups (named by
name), pairs and MAC; its attributes; changed in place; replaced when its policy says
REPLACE_ALWAYS; deleted; and the failures reported as Heat reports them."""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)

# What a failed test leaves is deleted after it.
pytestmark = pytest.mark.usefixtures("stacks_left_behind")


@pytest.fixture
def security_group(member: openstack.connection.Connection) -> Iterator[Any]:
    """A security group of alice's, named uniquely, that the port names by name."""
    group = member.network.create_security_group(name=unique("port-sg"))
    yield group
    member.network.delete_security_group(group, ignore_missing=True)


def port_template(group_name: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {
                    "name": unique("port-subnet"),
                    "network": {"get_resource": "net"},
                    "cidr": "10.40.0.0/24",
                },
            },
            "port": {
                "type": "OS::Neutron::Port",
                "properties": {
                    "name": "web-port",
                    "network": {"get_resource": "net"},
                    # The subnet by name: resolved to its id.
                    "fixed_ips": [
                        {"subnet": {"get_attr": ["subnet", "name"]}, "ip_address": "10.40.0.50"}
                    ],
                    "security_groups": [group_name],
                    "allowed_address_pairs": [{"ip_address": "10.40.0.200"}],
                    "mac_address": "fa:16:3e:40:00:50",
                    "binding:vnic_type": "normal",
                    "port_security_enabled": True,
                    "value_specs": {"description": "made by a stack"},
                    "tags": ["web"],
                },
            },
        },
        "outputs": {
            "fixed_ips": {"value": {"get_attr": ["port", "fixed_ips"]}},
            "mac_address": {"value": {"get_attr": ["port", "mac_address"]}},
            "network_id": {"value": {"get_attr": ["port", "network_id"]}},
            "status": {"value": {"get_attr": ["port", "status"]}},
            "subnet_cidrs": {"value": {"get_attr": ["port", "subnets", 0, "cidr"]}},
            "network": {"value": {"get_attr": ["port", "network", "id"]}},
        },
    }


def test_a_port_is_made_changed_in_place_replaced_and_deleted(
    heat: Any, member: openstack.connection.Connection, security_group: Any
) -> None:
    template = port_template(security_group.name)
    created = heat.stacks.create(stack_name=unique("port-life"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    port = member.network.get_port(ids["port"])
    assert (port.name, port.network_id, port.mac_address, port.description) == (
        "web-port",
        ids["net"],
        "fa:16:3e:40:00:50",
        "made by a stack",
    )
    assert port.fixed_ips == [{"subnet_id": ids["subnet"], "ip_address": "10.40.0.50"}]
    assert port.security_group_ids == [security_group.id]
    assert port.allowed_address_pairs == [
        {"ip_address": "10.40.0.200", "mac_address": "fa:16:3e:40:00:50"}
    ]
    assert (port.binding_vnic_type, port.is_port_security_enabled) == ("normal", True)
    assert port.tags == ["web"]
    assert outputs(heat.stacks.get(stack_id)) == {
        "fixed_ips": [{"subnet_id": ids["subnet"], "ip_address": "10.40.0.50"}],
        "mac_address": "fa:16:3e:40:00:50",
        "network_id": ids["net"],
        "status": port.status,
        "subnet_cidrs": "10.40.0.0/24",
        "network": ids["net"],
    }

    # In place: name, address, groups (none at all), pairs, tags.
    changed = copy.deepcopy(template)
    changed["resources"]["port"]["properties"].update(
        name="web-port-2",
        fixed_ips=[{"subnet": {"get_attr": ["subnet", "name"]}, "ip_address": "10.40.0.51"}],
        security_groups=[],
        allowed_address_pairs=[],
        tags=["web", "green"],
    )
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["port"] == ids["port"]
    port = member.network.get_port(ids["port"])
    assert port.name == "web-port-2"
    assert port.fixed_ips == [{"subnet_id": ids["subnet"], "ip_address": "10.40.0.51"}]
    assert (port.security_group_ids, port.allowed_address_pairs) == ([], [])
    assert sorted(port.tags) == ["green", "web"]

    # Groups taken off the template: the project's default group again.
    del changed["resources"]["port"]["properties"]["security_groups"]
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["port"] == ids["port"]
    default = member.network.find_security_group("default", project_id=port.project_id)
    assert member.network.get_port(ids["port"]).security_group_ids == [default.id]

    # REPLACE_ALWAYS: a new port whatever else changes.
    changed["resources"]["port"]["properties"].update(
        replacement_policy="REPLACE_ALWAYS", mac_address="fa:16:3e:40:00:52"
    )
    changed["resources"]["port"]["properties"]["fixed_ips"][0]["ip_address"] = "10.40.0.52"
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    replaced = physical_ids(heat, stack_id)["port"]
    assert replaced != ids["port"]
    assert member.network.find_port(ids["port"]) is None
    assert member.network.get_port(replaced).mac_address == "fa:16:3e:40:00:52"

    delete_stack(heat, stack_id)
    assert member.network.find_port(replaced) is None
    assert member.network.find_network(ids["net"]) is None


def test_a_port_without_groups_listed_gets_the_default_group(
    heat: Any, member: openstack.connection.Connection
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "port": {
                "type": "OS::Neutron::Port",
                "properties": {"network": {"get_resource": "net"}},
            },
        },
    }
    created = heat.stacks.create(stack_name=unique("port-default"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    port = member.network.get_port(physical_ids(heat, stack_id)["port"])
    default = member.network.find_security_group("default", project_id=port.project_id)
    assert port.security_group_ids == [default.id]
    assert port.fixed_ips == []  # a network without subnets: no address to give
    assert port.name.startswith(stack.stack_name + "-port-")
    delete_stack(heat, stack_id)


def test_neutrons_refusal_and_an_unknown_group_fail_the_create(
    heat: Any, member: openstack.connection.Connection
) -> None:
    template = port_template("no-such-group-" + uuid.uuid4().hex[:8])
    created = heat.stacks.create(stack_name=unique("port-no-group"), template=template)
    stack = wait_for_stack(heat, created["stack"]["id"], "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    group = template["resources"]["port"]["properties"]["security_groups"][0]
    assert stack.stack_status_reason == (
        f"Resource CREATE failed: EntityNotFound: resources.port: "
        f"The Resource ({group}) could not be found."
    )
    delete_stack(heat, created["stack"]["id"])

    template = port_template("default")
    template["resources"]["port"]["properties"]["fixed_ips"][0]["ip_address"] = "10.99.0.5"
    created = heat.stacks.create(stack_name=unique("port-bad-ip"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: InvalidIpForSubnetClient: resources.port: IP address "
        "10.99.0.5 is not a "
        "valid IP for the specified subnet.\nNeutron server returns request_ids: ['req-"
    ), stack.stack_status_reason
    network_id = physical_ids(heat, stack_id)["net"]
    assert list(member.network.ports(network_id=network_id, device_owner="")) == []
    delete_stack(heat, stack_id)


def test_fixed_ips_and_no_fixed_ips_are_refused_together(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "port": {
                "type": "OS::Neutron::Port",
                "properties": {
                    "network": {"get_resource": "net"},
                    "fixed_ips": [{"ip_address": "10.0.0.4"}],
                    "no_fixed_ips": True,
                },
            },
        },
    }
    name = unique("port-refused")
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=name, template=template)

    assert refused.value.error["error"]["type"] == "ResourcePropertyConflict"
    assert refused.value.error["error"]["message"] == (
        "Cannot define the following properties at the same time: fixed_ips, no_fixed_ips."
    )
    assert [stack for stack in heat.stacks.list() if stack.stack_name == name] == []


def test_a_port_waits_for_the_subnets_of_its_network(
    heat: Any, member: openstack.connection.Connection
) -> None:
    # Nothing in the template ties the port to the subnet: Heat's Port adds the edge.
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.41.0.0/24"},
            },
            "port": {
                "type": "OS::Neutron::Port",
                "properties": {"network": {"get_resource": "net"}},
            },
        },
    }
    created = heat.stacks.create(stack_name=unique("port-implied"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    port = member.network.get_port(ids["port"])
    assert [fixed_ip["subnet_id"] for fixed_ip in port.fixed_ips] == [ids["subnet"]]
    delete_stack(heat, stack_id)


def test_a_replaced_port_hands_its_fixed_ip_to_its_replacement(
    heat: Any, member: openstack.connection.Connection
) -> None:
    template: dict[str, Any] = {
        "heat_template_version": "2018-08-31",
        "parameters": {"name": {"type": "string", "default": "before"}},
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.43.0.0/24"},
            },
            "port": {
                "type": "OS::Neutron::Port",
                "depends_on": ["subnet"],
                "properties": {
                    "name": {"get_param": "name"},
                    "network": {"get_resource": "net"},
                    "fixed_ips": [{"ip_address": "10.43.0.10"}],
                    "replacement_policy": "REPLACE_ALWAYS",
                },
            },
        },
    }
    created = heat.stacks.create(stack_name=unique("port-handover"), template=template)
    stack_id = created["stack"]["id"]
    assert wait_for_stack(heat, stack_id, "CREATE").stack_status == "CREATE_COMPLETE"
    before = physical_ids(heat, stack_id)["port"]

    heat.stacks.update(stack_id, template=template, parameters={"name": "after"})
    stack = wait_for_stack(heat, stack_id, "UPDATE")

    # Heat's Port.prepare_for_replace frees the address before the new port asks for it.
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    after = physical_ids(heat, stack_id)["port"]
    assert after != before
    assert [ip["ip_address"] for ip in member.network.get_port(after).fixed_ips] == ["10.43.0.10"]
    assert member.network.find_port(before) is None
    delete_stack(heat, stack_id)
