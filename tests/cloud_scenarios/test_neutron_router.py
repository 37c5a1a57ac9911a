"""OS::Neutron::Router, RouterInterface, ExtraRoute and ExtraRouteSet against the real
Neutron: a router with a gateway on an external network (named by name), plugged into a
subnet and a port, with static routes; changed in place; deleted; Heat's refusals."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)
from tests.cloud_scenarios.external_network import ExternalNetwork, external_network

# What a failed test leaves is deleted after it.
pytestmark = pytest.mark.usefixtures("stacks_left_behind")


@pytest.fixture(scope="module")
def public(cloud: Cloud) -> Iterator[ExternalNetwork]:
    with external_network(cloud, "router-public") as made:
        yield made


def router_template(public_name: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "router": {
                "type": "OS::Neutron::Router",
                "properties": {
                    "name": "edge",
                    "external_gateway_info": {"network": public_name},
                    "tags": ["edge"],
                },
            },
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.50.0.0/24"},
            },
            "subnet_b": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.51.0.0/24"},
            },
            "port_b": {
                "type": "OS::Neutron::Port",
                "properties": {
                    "network": {"get_resource": "net"},
                    "fixed_ips": [
                        {"subnet": {"get_resource": "subnet_b"}, "ip_address": "10.51.0.1"}
                    ],
                },
            },
            "on_subnet": {
                "type": "OS::Neutron::RouterInterface",
                "properties": {
                    "router": {"get_resource": "router"},
                    "subnet": {"get_resource": "subnet"},
                },
            },
            "on_port": {
                "type": "OS::Neutron::RouterInterface",
                "properties": {
                    # The hidden router_id and port_id become router and port.
                    "router_id": {"get_resource": "router"},
                    "port_id": {"get_resource": "port_b"},
                },
            },
            "routes": {
                "type": "OS::Neutron::ExtraRouteSet",
                "depends_on": ["on_subnet"],
                "properties": {
                    "router": {"get_resource": "router"},
                    "routes": [{"destination": "192.168.60.0/24", "nexthop": "10.50.0.60"}],
                },
            },
            "route": {
                "type": "OS::Neutron::ExtraRoute",
                "depends_on": ["on_port", "routes"],
                "properties": {
                    "router_id": {"get_resource": "router"},
                    "destination": "192.168.70.0/24",
                    "nexthop": "10.51.0.70",
                },
            },
        },
        "outputs": {
            "gateway": {"value": {"get_attr": ["router", "external_gateway_info"]}},
            "status": {"value": {"get_attr": ["router", "status"]}},
        },
    }


def interface_ports(member: openstack.connection.Connection, router_id: str) -> dict[str, str]:
    """The router's interface ports: subnet id -> port id."""
    return {
        port.fixed_ips[0]["subnet_id"]: port.id
        for port in member.network.ports(device_id=router_id)
        if port.device_owner == "network:router_interface"
    }


def routes(member: openstack.connection.Connection, router_id: str) -> list[dict[str, str]]:
    found = member.network.get_router(router_id).routes
    return sorted(found, key=lambda route: route["destination"])


def test_a_router_with_gateway_interfaces_and_routes_lives_and_goes(
    heat: Any, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    template = router_template(public.network.name)
    created = heat.stacks.create(stack_name=unique("router-life"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    router = member.network.get_router(ids["router"])
    assert (router.name, router.tags) == ("edge", ["edge"])
    assert router.external_gateway_info["network_id"] == public.network.id
    [gateway_ip] = router.external_gateway_info["external_fixed_ips"]
    assert gateway_ip["subnet_id"] == public.subnet.id
    assert outputs(heat.stacks.get(stack_id)) == {
        "gateway": router.external_gateway_info,
        "status": "ACTIVE",
    }
    interfaces = interface_ports(member, ids["router"])
    assert sorted(interfaces) == sorted([ids["subnet"], ids["subnet_b"]])
    assert interfaces[ids["subnet_b"]] == ids["port_b"]
    assert ids["on_subnet"] == f"{ids['router']}:subnet_id={ids['subnet']}"
    assert ids["on_port"] == f"{ids['router']}:port_id={ids['port_b']}"
    assert ids["routes"] == ids["router"]
    assert ids["route"] == f"{ids['router']}:192.168.70.0/24:10.51.0.70"
    assert routes(member, ids["router"]) == [
        {"destination": "192.168.60.0/24", "nexthop": "10.50.0.60"},
        {"destination": "192.168.70.0/24", "nexthop": "10.51.0.70"},
    ]

    # In place: the router's name and gateway (taken away), the set's routes.
    changed = copy.deepcopy(template)
    router_properties = changed["resources"]["router"]["properties"]
    router_properties["name"] = "edge-2"
    del router_properties["external_gateway_info"]
    changed["resources"]["routes"]["properties"]["routes"] = [
        {"destination": "192.168.60.0/24", "nexthop": "10.50.0.60"},
        {"destination": "192.168.61.0/24", "nexthop": "10.50.0.61"},
    ]
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    router = member.network.get_router(ids["router"])
    assert (router.name, router.external_gateway_info) == ("edge-2", None)
    assert routes(member, ids["router"]) == [
        {"destination": "192.168.60.0/24", "nexthop": "10.50.0.60"},
        {"destination": "192.168.61.0/24", "nexthop": "10.50.0.61"},
        {"destination": "192.168.70.0/24", "nexthop": "10.51.0.70"},
    ]

    delete_stack(heat, stack_id)
    assert member.network.find_router(ids["router"]) is None
    assert member.network.find_port(ids["port_b"]) is None
    assert list(member.network.ports(network_id=public.network.id)) == []


def test_a_routes_removal_leaves_the_others(
    heat: Any, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    template = router_template(public.network.name)
    del template["resources"]["route"]
    created = heat.stacks.create(stack_name=unique("router-routes"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    router_id = physical_ids(heat, stack_id)["router"]
    # A route of someone else's on the same router.
    member.network.add_extra_routes_to_router(
        router_id,
        body={"router": {"routes": [{"destination": "192.168.80.0/24", "nexthop": "10.50.0.80"}]}},
    )

    changed = copy.deepcopy(template)
    changed["resources"]["routes"]["properties"]["routes"] = []
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert routes(member, router_id) == [
        {"destination": "192.168.80.0/24", "nexthop": "10.50.0.80"}
    ]
    member.network.remove_extra_routes_from_router(
        router_id,
        body={"router": {"routes": [{"destination": "192.168.80.0/24", "nexthop": "10.50.0.80"}]}},
    )
    delete_stack(heat, stack_id)


@pytest.mark.parametrize(
    ("interface", "error_type", "message"),
    [
        (
            {},
            "PropertyUnspecifiedError",
            "At least one of the following properties must be specified: subnet, port.",
        ),
        (
            {"subnet": {"get_resource": "subnet"}, "port": {"get_resource": "port"}},
            "ResourcePropertyConflict",
            "Cannot define the following properties at the same time: subnet, port.",
        ),
    ],
)
def test_an_interface_needs_one_subnet_or_port(
    heat: Any, interface: dict[str, Any], error_type: str, message: str
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "router": {"type": "OS::Neutron::Router"},
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.52.0.0/24"},
            },
            "port": {
                "type": "OS::Neutron::Port",
                "properties": {"network": {"get_resource": "net"}},
            },
            "interface": {
                "type": "OS::Neutron::RouterInterface",
                "properties": {"router": {"get_resource": "router"}, **interface},
            },
        },
    }
    name = unique("router-refused")
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=name, template=template)

    assert refused.value.error["error"]["type"] == error_type
    assert refused.value.error["error"]["message"] == message
    assert [stack for stack in heat.stacks.list() if stack.stack_name == name] == []


def test_a_gateway_on_an_internal_network_is_refused_by_neutron(
    heat: Any, member: openstack.connection.Connection
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "router": {
                "type": "OS::Neutron::Router",
                "properties": {"external_gateway_info": {"network": {"get_resource": "net"}}},
            },
        },
    }
    created = heat.stacks.create(stack_name=unique("router-bad-gateway"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    network_id = physical_ids(heat, stack_id)["net"]
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: BadRequest: resources.router: Bad router request: "
        f"Network {network_id} is not an external network.\n"
        "Neutron server returns request_ids: ['req-"
    ), stack.stack_status_reason
    delete_stack(heat, stack_id)


def test_a_route_set_refuses_a_route_the_router_has(
    heat: Any, member: openstack.connection.Connection
) -> None:
    route = {"destination": "192.168.90.0/24", "nexthop": "10.53.0.90"}
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "router": {"type": "OS::Neutron::Router"},
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.53.0.0/24"},
            },
            "interface": {
                "type": "OS::Neutron::RouterInterface",
                "properties": {
                    "router": {"get_resource": "router"},
                    "subnet": {"get_resource": "subnet"},
                },
            },
            "route": {
                "type": "OS::Neutron::ExtraRoute",
                "depends_on": ["interface"],
                "properties": {"router_id": {"get_resource": "router"}, **route},
            },
            "routes": {
                "type": "OS::Neutron::ExtraRouteSet",
                "depends_on": ["route"],
                "properties": {"router": {"get_resource": "router"}, "routes": [route]},
            },
        },
    }
    created = heat.stacks.create(stack_name=unique("router-duplicate"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")

    router_id = physical_ids(heat, stack_id)["router"]
    # Heat names the router by its plugin module's repr (the server's install path)
    # here: OpenKeel names it by its id.
    assert (stack.stack_status, stack.stack_status_reason) == (
        "CREATE_FAILED",
        "Resource CREATE failed: PhysicalResourceExists: resources.routes: The physical "
        f"resource for ({router_id},192.168.90.0/24=10.53.0.90) exists.",
    )
    assert routes(member, router_id) == [route]
    delete_stack(heat, stack_id)
    assert member.network.find_router(router_id) is None
