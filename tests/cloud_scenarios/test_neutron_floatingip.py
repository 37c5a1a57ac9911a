"""OS::Neutron::FloatingIP and OS::Neutron::FloatingIPAssociation against the real
Neutron: addresses allocated on an external network (named by name) behind a router,
bound to ports, moved to other ports in place, released on delete; Heat's refusal of a
fixed address without a port."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPInternalServerError

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
    with external_network(cloud, "fip-public") as made:
        yield made


def port(address: str) -> dict[str, Any]:
    return {
        "type": "OS::Neutron::Port",
        "properties": {
            "network": {"get_resource": "net"},
            "fixed_ips": [{"subnet": {"get_resource": "subnet"}, "ip_address": address}],
        },
    }


def floating_template(public_name: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "subnet": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.60.0.0/24"},
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
            "port_a": port("10.60.0.10"),
            "port_b": port("10.60.0.11"),
            "port_c": port("10.60.0.12"),
            "floating": {
                "type": "OS::Neutron::FloatingIP",
                "depends_on": ["interface"],
                "properties": {
                    "floating_network": public_name,
                    "port_id": {"get_resource": "port_a"},
                },
            },
            "spare": {
                "type": "OS::Neutron::FloatingIP",
                "depends_on": ["interface"],
                # The hidden floating_network_id becomes floating_network.
                "properties": {"floating_network_id": public_name},
            },
            "association": {
                "type": "OS::Neutron::FloatingIPAssociation",
                "properties": {
                    "floatingip_id": {"get_resource": "spare"},
                    "port_id": {"get_resource": "port_b"},
                },
            },
        },
        "outputs": {
            "address": {"value": {"get_attr": ["floating", "floating_ip_address"]}},
            "fixed": {"value": {"get_attr": ["floating", "fixed_ip_address"]}},
            "router_id": {"value": {"get_attr": ["floating", "router_id"]}},
            "network_id": {"value": {"get_attr": ["floating", "floating_network_id"]}},
        },
    }


def test_floating_ips_are_bound_moved_and_released(
    heat: Any, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    template = floating_template(public.network.name)
    created = heat.stacks.create(stack_name=unique("fip-life"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    floating = member.network.get_ip(ids["floating"])
    assert (floating.floating_network_id, floating.port_id, floating.fixed_ip_address) == (
        public.network.id,
        ids["port_a"],
        "10.60.0.10",
    )
    assert floating.router_id == ids["router"]
    assert outputs(heat.stacks.get(stack_id)) == {
        "address": floating.floating_ip_address,
        "fixed": "10.60.0.10",
        "router_id": ids["router"],
        "network_id": public.network.id,
    }
    spare = member.network.get_ip(ids["spare"])
    assert (spare.port_id, spare.fixed_ip_address) == (ids["port_b"], "10.60.0.11")
    association_id = ids["association"]

    # In place: the address moves to port_c, the association to port_a.
    changed = copy.deepcopy(template)
    changed["resources"]["floating"]["properties"]["port_id"] = {"get_resource": "port_c"}
    changed["resources"]["association"]["properties"]["port_id"] = {"get_resource": "port_a"}
    changed["resources"]["association"]["depends_on"] = ["floating"]  # port_a is free first
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert member.network.get_ip(ids["floating"]).port_id == ids["port_c"]
    assert member.network.get_ip(ids["spare"]).port_id == ids["port_a"]
    assert physical_ids(heat, stack_id)["association"] == association_id

    delete_stack(heat, stack_id)
    assert member.network.find_ip(ids["floating"]) is None
    assert member.network.find_ip(ids["spare"]) is None
    assert list(member.network.ips(floating_network_id=public.network.id)) == []


def test_an_association_let_go_leaves_the_address(
    heat: Any, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    template = floating_template(public.network.name)
    created = heat.stacks.create(stack_name=unique("fip-let-go"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)

    changed = copy.deepcopy(template)
    del changed["resources"]["association"]
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    spare = member.network.get_ip(ids["spare"])
    assert (spare.port_id, spare.fixed_ip_address) == (None, None)
    delete_stack(heat, stack_id)


def test_a_fixed_address_without_a_port_is_refused(heat: Any, public: ExternalNetwork) -> None:
    # Heat's fault map has no entry for this error: its API answers 500, as here.
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "floating": {
                "type": "OS::Neutron::FloatingIP",
                "properties": {
                    "floating_network": public.network.id,
                    "fixed_ip_address": "10.60.0.10",
                },
            }
        },
    }
    name = unique("fip-refused")
    with pytest.raises(HTTPInternalServerError) as refused:
        heat.stacks.create(stack_name=name, template=template)

    assert refused.value.error["error"]["type"] == "ResourcePropertyDependency"
    assert refused.value.error["error"]["message"] == (
        "fixed_ip_address cannot be specified without port_id."
    )
    assert [stack for stack in heat.stacks.list() if stack.stack_name == name] == []


def test_a_port_off_any_router_fails_the_binding(
    heat: Any, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    template = floating_template(public.network.name)
    resources = template["resources"]
    for name in ("router", "interface", "spare", "association"):
        del resources[name]
    del resources["floating"]["depends_on"]
    del template["outputs"]
    created = heat.stacks.create(stack_name=unique("fip-unreachable"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: NotFound: resources.floating: External network "
        f"{public.network.id} is not reachable from subnet "
    ), stack.stack_status_reason
    assert list(member.network.ips(floating_network_id=public.network.id)) == []
    delete_stack(heat, stack_id)
