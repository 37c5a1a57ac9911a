"""OS::Neutron::Subnet against the real Neutron: made on a network named by name, its
pools, routes, servers, gateway and tags as given; changed in place or replaced as Heat
decides; IPv6 modes; refusals before anything is made."""

from __future__ import annotations

import copy
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


def subnet_template(network_name: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"cidr": {"type": "string", "default": "10.20.0.0/24"}},
        "resources": {
            "net": {"type": "OS::Neutron::Net", "properties": {"name": network_name}},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {
                    "name": "web-subnet",
                    # By name: resolved to the network's id as Heat does.
                    "network": {"get_attr": ["net", "name"]},
                    "cidr": {"get_param": "cidr"},
                    "gateway_ip": None,
                    "enable_dhcp": False,
                    "dns_nameservers": ["10.0.0.53"],
                    "allocation_pools": [{"start": "10.20.0.10", "end": "10.20.0.20"}],
                    "host_routes": [{"destination": "192.168.7.0/24", "nexthop": "10.20.0.1"}],
                    "tags": ["web"],
                },
            },
        },
        "outputs": {
            "network_id": {"value": {"get_attr": ["subnet", "network_id"]}},
            "gateway_ip": {"value": {"get_attr": ["subnet", "gateway_ip"]}},
            "cidr": {"value": {"get_attr": ["subnet", "cidr"]}},
            "pools": {"value": {"get_attr": ["subnet", "allocation_pools"]}},
        },
    }


def test_a_subnet_is_made_changed_in_place_replaced_and_deleted(
    heat: Any, member: openstack.connection.Connection
) -> None:
    network_name = unique("subnet-net")
    template = subnet_template(network_name)
    created = heat.stacks.create(stack_name=unique("subnet-life"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    subnet = member.network.get_subnet(ids["subnet"])
    assert (subnet.name, subnet.network_id, subnet.cidr, subnet.gateway_ip) == (
        "web-subnet",
        ids["net"],
        "10.20.0.0/24",
        None,
    )
    assert subnet.is_dhcp_enabled is False
    assert subnet.dns_nameservers == ["10.0.0.53"]
    assert subnet.allocation_pools == [{"start": "10.20.0.10", "end": "10.20.0.20"}]
    assert subnet.host_routes == [{"destination": "192.168.7.0/24", "nexthop": "10.20.0.1"}]
    assert subnet.tags == ["web"]
    assert outputs(heat.stacks.get(stack_id)) == {
        "network_id": ids["net"],
        "gateway_ip": None,
        "cidr": "10.20.0.0/24",
        "pools": [{"start": "10.20.0.10", "end": "10.20.0.20"}],
    }

    # In place: name, gateway, servers, pools, routes, DHCP and tags.
    changed = copy.deepcopy(template)
    properties = changed["resources"]["subnet"]["properties"]
    properties.update(
        name="web-subnet-2",
        gateway_ip="10.20.0.1",
        enable_dhcp=True,
        dns_nameservers=["10.0.0.54", "10.0.0.55"],
        allocation_pools=[{"start": "10.20.0.30", "end": "10.20.0.40"}],
        host_routes=[],
        tags=["web", "green"],
    )
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["subnet"] == ids["subnet"]
    subnet = member.network.get_subnet(ids["subnet"])
    assert (subnet.name, subnet.gateway_ip, subnet.is_dhcp_enabled) == (
        "web-subnet-2",
        "10.20.0.1",
        True,
    )
    assert subnet.dns_nameservers == ["10.0.0.54", "10.0.0.55"]
    assert subnet.allocation_pools == [{"start": "10.20.0.30", "end": "10.20.0.40"}]
    assert subnet.host_routes == []
    assert sorted(subnet.tags) == ["green", "web"]

    # A new CIDR is a new subnet.
    del properties["allocation_pools"]
    heat.stacks.update(stack_id, template=changed, parameters={"cidr": "10.21.0.0/24"})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    replaced = physical_ids(heat, stack_id)["subnet"]
    assert replaced != ids["subnet"]
    assert member.network.find_subnet(ids["subnet"]) is None
    assert member.network.get_subnet(replaced).cidr == "10.21.0.0/24"

    delete_stack(heat, stack_id)
    assert member.network.find_subnet(replaced) is None
    assert member.network.find_network(ids["net"]) is None


def test_an_ipv6_subnet_takes_its_modes(heat: Any, member: openstack.connection.Connection) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {
                    "network_id": {"get_resource": "net"},
                    "ip_version": 6,
                    "cidr": "fd00:20::/64",
                    "ipv6_ra_mode": "slaac",
                    "ipv6_address_mode": "slaac",
                },
            },
        },
        "outputs": {"ip_version": {"value": {"get_attr": ["subnet", "ip_version"]}}},
    }
    created = heat.stacks.create(stack_name=unique("subnet-v6"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    subnet = member.network.get_subnet(ids["subnet"])
    assert (subnet.ip_version, subnet.ipv6_ra_mode, subnet.ipv6_address_mode) == (
        6,
        "slaac",
        "slaac",
    )
    # The hidden network_id became network, resolved to the network's id.
    assert subnet.network_id == ids["net"]
    # The name defaults to the stack's physical resource name.
    assert subnet.name.startswith(stack.stack_name + "-subnet-")
    assert outputs(heat.stacks.get(stack_id)) == {"ip_version": 6}
    delete_stack(heat, stack_id)
    assert member.network.find_subnet(ids["subnet"]) is None


@pytest.mark.parametrize(
    ("properties", "error_type", "message"),
    [
        (
            {"cidr": "10.1.0.0/24", "ipv6_ra_mode": "slaac"},
            "StackValidationFailed",
            "ipv6_ra_mode and ipv6_address_mode are not supported for ipv4.",
        ),
        (
            {},
            "PropertyUnspecifiedError",
            "At least one of the following properties must be specified: subnetpool, cidr.",
        ),
        (
            {"cidr": "10.1.0.0/24", "prefixlen": 26},
            "ResourcePropertyConflict",
            "Cannot define the following properties at the same time: prefixlen, cidr.",
        ),
        (
            {"cidr": "10.1.0.0/24", "gateway_ip": "not-an-ip"},
            "StackValidationFailed",
            "('Gateway IP address \"%(gateway)s\" is in invalid format.', 'not-an-ip')",
        ),
    ],
)
def test_heats_refusals_before_anything_is_made(
    heat: Any, properties: dict[str, Any], error_type: str, message: str
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, **properties},
            },
        },
    }
    name = unique("subnet-refused")
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=name, template=template)

    assert refused.value.error["error"]["type"] == error_type
    assert refused.value.error["error"]["message"] == message
    assert [stack for stack in heat.stacks.list() if stack.stack_name == name] == []


def test_neutrons_refusal_fails_the_create(
    heat: Any, member: openstack.connection.Connection
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {
                    "network": {"get_resource": "net"},
                    "cidr": "10.30.0.0/24",
                    "allocation_pools": [{"start": "10.99.0.10", "end": "10.99.0.20"}],
                },
            },
        },
    }
    created = heat.stacks.create(stack_name=unique("subnet-bad-pool"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: BadRequest: resources.subnet: "
    ), stack.stack_status_reason
    assert "Neutron server returns request_ids: ['req-" in stack.stack_status_reason
    network_id = physical_ids(heat, stack_id)["net"]
    assert list(member.network.subnets(network_id=network_id)) == []
    delete_stack(heat, stack_id)


@pytest.fixture
def subnet_pool(member: openstack.connection.Connection) -> Iterator[Any]:
    """A subnet pool of alice's, named uniquely, that the subnet names by name."""
    pool = member.network.create_subnet_pool(
        name=unique("subnet-pool"), prefixes=["10.70.0.0/16"], default_prefix_length=24
    )
    yield pool
    member.network.delete_subnet_pool(pool, ignore_missing=True)


def test_a_subnet_takes_its_block_from_a_pool_named_by_name(
    heat: Any, member: openstack.connection.Connection, subnet_pool: Any
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {
                    "network": {"get_resource": "net"},
                    "subnetpool": subnet_pool.name,
                    "prefixlen": 26,
                },
            },
        },
        "outputs": {"cidr": {"value": {"get_attr": ["subnet", "cidr"]}}},
    }
    created = heat.stacks.create(stack_name=unique("subnet-pooled"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    subnet = member.network.get_subnet(physical_ids(heat, stack_id)["subnet"])
    assert subnet.subnet_pool_id == subnet_pool.id
    assert subnet.cidr.startswith("10.70.") and subnet.cidr.endswith("/26")
    assert outputs(heat.stacks.get(stack_id)) == {"cidr": subnet.cidr}
    delete_stack(heat, stack_id)
    assert member.network.find_subnet(subnet.id) is None


def test_auto_lets_neutron_pick_the_gateway_on_create_only(
    heat: Any, member: openstack.connection.Connection
) -> None:
    def template(gateway: str) -> dict[str, Any]:
        return {
            "heat_template_version": "2018-08-31",
            "resources": {
                "net": {"type": "OS::Neutron::Net"},
                "subnet": {
                    "type": "OS::Neutron::Subnet",
                    "properties": {
                        "network": {"get_resource": "net"},
                        "cidr": "10.80.0.0/24",
                        "allocation_pools": [{"start": "10.80.0.10", "end": "10.80.0.200"}],
                        "gateway_ip": gateway,
                    },
                },
            },
        }

    created = heat.stacks.create(stack_name=unique("subnet-auto"), template=template("auto"))
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    subnet_id = physical_ids(heat, stack_id)["subnet"]
    assert member.network.get_subnet(subnet_id).gateway_ip == "10.80.0.1"

    heat.stacks.update(stack_id, template=template("10.80.0.254"))
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert member.network.get_subnet(subnet_id).gateway_ip == "10.80.0.254"

    heat.stacks.update(stack_id, template=template("auto"))
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert (stack.stack_status, stack.stack_status_reason) == (
        "UPDATE_FAILED",
        "Resource UPDATE failed: ResourceActionNotSupported: resources.subnet: "
        'The value "auto" for gateway_ip cannot be used to update an existing subnet. '
        "It is only supported during subnet creation. is not supported for resource.",
    )
    assert member.network.get_subnet(subnet_id).gateway_ip == "10.80.0.254"
    delete_stack(heat, stack_id)
