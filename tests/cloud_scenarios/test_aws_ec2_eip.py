"""AWS::EC2::EIP and AWS::EC2::EIPAssociation against the real Neutron and Nova: floating
IPs on the cloud's one external network, bound to an instance's port by allocation (the
VPC's router given its gateway) or by address, given to an instance directly, moved and
released in place; gone after delete; and Heat's refusals of an association."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openstack
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
from tests.cloud_scenarios.external_network import (
    ExternalNetwork,
    external_network,
    wait_until_the_only_external_network,
)

# What a failed test leaves is deleted after it.
pytestmark = pytest.mark.usefixtures("stacks_left_behind")


@pytest.fixture(scope="module")
def public(cloud: Cloud) -> Iterator[ExternalNetwork]:
    """The cloud's external network (Heat's EIP expects exactly one)."""
    with external_network(cloud, "eip-public") as made:
        yield made


@pytest.fixture(scope="module")
def boot(admin: openstack.connection.Connection) -> Iterator[dict[str, str]]:
    """An image and a flavor for the instances."""
    flavor = admin.compute.create_flavor(name=unique("eip-flavor"), ram=64, vcpus=1, disk=1)
    image = admin.image.create_image(
        name=unique("eip-image"),
        data=b"\0" * 4096,
        disk_format="raw",
        container_format="bare",
        visibility="public",
    )
    yield {"ImageId": image.id, "InstanceType": flavor.id}
    admin.image.delete_image(image)
    admin.compute.delete_flavor(flavor)


def instance(subnet: Any) -> dict[str, Any]:
    return {
        "Type": "AWS::EC2::Instance",
        "Properties": {
            "ImageId": {"Ref": "ImageId"},
            "InstanceType": {"Ref": "InstanceType"},
            "SubnetId": subnet,
        },
    }


PARAMETERS = {"ImageId": {"Type": "String"}, "InstanceType": {"Type": "String"}}


def test_an_allocation_binds_the_floating_ip_to_the_instance_port(
    heat: Any,
    member: openstack.connection.Connection,
    public: ExternalNetwork,
    boot: dict[str, str],
) -> None:
    template: dict[str, Any] = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Parameters": PARAMETERS,
        "Resources": {
            "vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.73.0.0/16"}},
            "subnet": {
                "Type": "AWS::EC2::Subnet",
                "Properties": {"VpcId": {"Ref": "vpc"}, "CidrBlock": "10.73.1.0/24"},
            },
            "instance": instance({"Ref": "subnet"}),
            "eip": {"Type": "AWS::EC2::EIP", "Properties": {"Domain": "vpc"}},
        },
        "Outputs": {
            "address": {"Value": {"Ref": "eip"}},
            "allocation": {"Value": {"Fn::GetAtt": ["eip", "AllocationId"]}},
        },
    }
    wait_until_the_only_external_network(member, public)
    created = heat.stacks.create(stack_name=unique("eip-vpc"), template=template, parameters=boot)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)
    floating = member.network.get_ip(ids["eip"])
    assert (floating.floating_network_id, floating.port_id) == (public.network.id, None)
    assert outputs(stack) == {"address": floating.floating_ip_address, "allocation": floating.id}

    # The allocation is known once the EIP exists (an attribute has no value when the
    # template is validated, so Heat refuses one read from the EIP in the same stack).
    template["Resources"]["association"] = {
        "Type": "AWS::EC2::EIPAssociation",
        "Properties": {"InstanceId": {"Ref": "instance"}, "AllocationId": floating.id},
    }
    heat.stacks.update(stack_id, template=template, parameters=boot)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)
    floating = member.network.get_ip(ids["eip"])
    [port] = member.network.ports(device_id=ids["instance"])
    assert floating.port_id == port.id
    assert floating.fixed_ip_address == port.fixed_ips[0]["ip_address"]
    assert ids["association"] == floating.id
    # The VPC's router (named as its network) got a gateway on the external network.
    vpc_network = member.network.get_network(ids["vpc"])
    [router] = member.network.routers(name=vpc_network.name)
    assert router.external_gateway_info["network_id"] == public.network.id

    delete_stack(heat, stack_id)
    assert member.network.find_ip(floating.id) is None
    assert member.network.find_router(router.id) is None


def test_addresses_are_given_to_instances_and_moved_in_place(
    heat: Any,
    member: openstack.connection.Connection,
    public: ExternalNetwork,
    boot: dict[str, str],
) -> None:
    def template(eip_instance: str | None, associated: str) -> dict[str, Any]:
        eip: dict[str, Any] = {"Type": "AWS::EC2::EIP", "DependsOn": "interface"}
        if eip_instance:
            eip["Properties"] = {"InstanceId": {"Ref": eip_instance}}
        return {
            "AWSTemplateFormatVersion": "2010-09-09",
            "Parameters": PARAMETERS,
            "Resources": {
                "net": {"Type": "OS::Neutron::Net"},
                "subnet": {
                    "Type": "OS::Neutron::Subnet",
                    "Properties": {"network": {"Ref": "net"}, "cidr": "10.74.1.0/24"},
                },
                "router": {
                    "Type": "OS::Neutron::Router",
                    "Properties": {"external_gateway_info": {"network": public.network.id}},
                },
                "interface": {
                    "Type": "OS::Neutron::RouterInterface",
                    "Properties": {"router": {"Ref": "router"}, "subnet": {"Ref": "subnet"}},
                },
                "first": instance({"Ref": "subnet"}),
                "second": instance({"Ref": "subnet"}),
                "eip": eip,
                "spare": {"Type": "AWS::EC2::EIP", "DependsOn": "interface"},
                "association": {
                    "Type": "AWS::EC2::EIPAssociation",
                    # Moved onto an instance only once the other address has left it.
                    "DependsOn": "eip",
                    "Properties": {"InstanceId": {"Ref": associated}, "EIP": {"Ref": "spare"}},
                },
            },
        }

    wait_until_the_only_external_network(member, public)
    created = heat.stacks.create(
        stack_name=unique("eip-address"), template=template("first", "second"), parameters=boot
    )
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    [first_port] = member.network.ports(device_id=ids["first"])
    [second_port] = member.network.ports(device_id=ids["second"])
    spare = member.network.get_ip(ids["spare"])
    assert member.network.get_ip(ids["eip"]).port_id == first_port.id
    assert spare.port_id == second_port.id
    # The association is named by the address it binds.
    assert ids["association"] == spare.floating_ip_address

    # The EIP leaves its instance; the association moves its address onto that one.
    heat.stacks.update(stack_id, template=template(None, "first"), parameters=boot)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert member.network.get_ip(ids["eip"]).port_id is None
    assert member.network.get_ip(ids["spare"]).port_id == first_port.id

    delete_stack(heat, stack_id)
    for floating_id in (ids["eip"], ids["spare"]):
        assert member.network.find_ip(floating_id) is None


def test_an_allocation_read_from_an_eip_of_the_stack_is_refused_as_in_heat(heat: Any) -> None:
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "eip": {"Type": "AWS::EC2::EIP"},
            "association": {
                "Type": "AWS::EC2::EIPAssociation",
                "Properties": {
                    "NetworkInterfaceId": "5d2ba1c9-7a80-4ab3-8d4a-f61e30b8c6ba",
                    "AllocationId": {"Fn::GetAtt": ["eip", "AllocationId"]},
                },
            },
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("eip-refused"), template=template)
    error = refused.value.error["error"]
    assert (error["type"], error["message"]) == (
        "StackValidationFailed",
        "Either 'EIP' or 'AllocationId' must be provided.",
    )


@pytest.mark.parametrize(
    ("properties", "kind", "message"),
    [
        ({}, "StackValidationFailed", "Either 'EIP' or 'AllocationId' must be provided."),
        (
            {"EIP": "192.0.2.10", "AllocationId": "x"},
            "StackValidationFailed",
            "Either 'EIP' or 'AllocationId' must be provided.",
        ),
        (
            {"EIP": "192.0.2.10"},
            "StackValidationFailed",
            "Must specify 'InstanceId' if you specify 'EIP'.",
        ),
        (
            {"AllocationId": "x"},
            "PropertyUnspecifiedError",
            "At least one of the following properties must be specified: InstanceId, "
            "NetworkInterfaceId.",
        ),
    ],
)
def test_an_association_names_one_address_and_where_it_goes(
    heat: Any, properties: dict[str, Any], kind: str, message: str
) -> None:
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "association": {"Type": "AWS::EC2::EIPAssociation", "Properties": properties}
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("eip-refused"), template=template)
    error = refused.value.error["error"]
    assert (error["type"], error["message"]) == (kind, message)
