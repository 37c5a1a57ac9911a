"""OS::Neutron::FloatingIPPortForward against the real Neutron (its port_forwarding service
plugin): a floating IP no port holds forwards one of its ports to a port's fixed address
behind a router, changes in place, and goes before its floating IP on delete."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest

from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import delete_stack, physical_ids, unique, wait_for_stack
from tests.cloud_scenarios.external_network import ExternalNetwork, external_network

# What a failed test leaves is deleted after it.
pytestmark = pytest.mark.usefixtures("stacks_left_behind")


@pytest.fixture(scope="module")
def public(cloud: Cloud) -> Iterator[ExternalNetwork]:
    with external_network(cloud, "forward-public") as made:
        yield made


def forward_template(public_name: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.61.0.0/24"},
            },
            "router": {
                "type": "OS::Neutron::Router",
                "properties": {"external_gateway_info": {"network": public_name}},
            },
            "interface": {
                "type": "OS::Neutron::RouterInterface",
                "properties": {
                    "router": {"get_resource": "router"},
                    "subnet": {"get_resource": "subnet"},
                },
            },
            "port": {
                "type": "OS::Neutron::Port",
                "properties": {
                    "network": {"get_resource": "net"},
                    "fixed_ips": [
                        {"subnet": {"get_resource": "subnet"}, "ip_address": "10.61.0.20"}
                    ],
                },
            },
            "floating": {
                "type": "OS::Neutron::FloatingIP",
                "depends_on": ["router"],
                "properties": {"floating_network": public_name},
            },
            # No depends_on: the port's subnet on the router interface makes it wait.
            "forward": {
                "type": "OS::Neutron::FloatingIPPortForward",
                "properties": {
                    "floating_ip": {"get_resource": "floating"},
                    "internal_port": {"get_resource": "port"},
                    "internal_ip_address": "10.61.0.20",
                    "internal_port_number": 22,
                    "external_port": 2222,
                    "protocol": "tcp",
                },
            },
        },
    }


def forwardings(member: openstack.connection.Connection, floating_ip_id: str) -> list[Any]:
    return [
        (
            forwarding.id,
            forwarding.internal_port_id,
            forwarding.internal_ip_address,
            forwarding.internal_port,
            forwarding.external_port,
            forwarding.protocol,
        )
        for forwarding in member.network.port_forwardings(floating_ip_id)
    ]


def test_a_floating_ip_forwards_a_port_changes_in_place_and_lets_go(
    heat: Any, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    template = forward_template(public.network.name)
    stack_id = heat.stacks.create(stack_name=unique("forward"), template=template)["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)
    assert forwardings(member, ids["floating"]) == [
        (ids["forward"], ids["port"], "10.61.0.20", 22, 2222, "tcp")
    ]
    # The floating IP stays free of ports: the forwarding is what reaches the port.
    assert member.network.get_ip(ids["floating"]).port_id is None

    changed = copy.deepcopy(template)
    forward = changed["resources"]["forward"]["properties"]
    forward.update(internal_port_number=8080, external_port=8000, protocol="udp")
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert forwardings(member, ids["floating"]) == [
        (ids["forward"], ids["port"], "10.61.0.20", 8080, 8000, "udp")
    ]

    delete_stack(heat, stack_id)
    assert member.network.find_ip(ids["floating"]) is None
    assert member.network.find_port(ids["port"]) is None


def test_the_forwarding_waits_for_the_router_interface_of_its_ports_subnet(
    heat: Any, public: ExternalNetwork
) -> None:
    # Heat's dependency: no explicit depends_on, yet made after the interface.
    template = forward_template(public.network.name)
    stack_id = heat.stacks.create(stack_name=unique("forward-order"), template=template)["stack"][
        "id"
    ]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    events = [
        (event.resource_name, event.resource_status)
        for event in heat.events.list(stack_id, sort_dir="asc", sort_keys="event_time")
    ]
    interface_done = events.index(("interface", "CREATE_COMPLETE"))
    forward_started = events.index(("forward", "CREATE_IN_PROGRESS"))
    assert interface_done < forward_started
    delete_stack(heat, stack_id)


def test_a_forwarding_without_an_internal_port_number_fails_as_in_heat(
    heat: Any, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    # As in Heat, the create fails on the missing property's name (Neutron itself would
    # answer with an internal server error).
    template = forward_template(public.network.name)
    del template["resources"]["forward"]["properties"]["internal_port_number"]
    stack_id = heat.stacks.create(stack_name=unique("forward-no-port"), template=template)["stack"][
        "id"
    ]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: KeyError: resources.forward: 'internal_port_number'"
    )
    floating_ip_id = physical_ids(heat, stack_id)["floating"]
    assert forwardings(member, floating_ip_id) == []
    delete_stack(heat, stack_id)
