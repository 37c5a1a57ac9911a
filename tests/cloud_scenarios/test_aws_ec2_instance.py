"""AWS::EC2::Instance against the real Nova (fake driver), Neutron and Cinder, from CFN
templates: booted from an image on a VPC subnet (in a port of its own with its security
group) with a volume attached after boot, tags as server metadata and user data for
heat-cfntools; resized in place for a new InstanceType, retagged, suspended and resumed;
gone with its port after delete (the volume free again); and Heat's refusals."""

from __future__ import annotations

import base64
import copy
import time
from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud_scenarios import boot_material
from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)

# What a failed test leaves is deleted after it.
pytestmark = pytest.mark.usefixtures("stacks_left_behind")


@pytest.fixture(scope="module")
def flavors(admin: openstack.connection.Connection) -> Iterator[tuple[Any, ...]]:
    with boot_material.flavors(admin, "ec2-flavor", 64, 128) as made:
        yield made


@pytest.fixture(scope="module")
def image(admin: openstack.connection.Connection) -> Iterator[Any]:
    with boot_material.public_images(admin, "ec2-image", 1) as (made,):
        yield made


def instance_template() -> dict[str, Any]:
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Parameters": {
            "ImageId": {"Type": "String"},
            "InstanceType": {"Type": "String"},
            "Role": {"Type": "String"},
        },
        "Resources": {
            "vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.72.0.0/16"}},
            "subnet": {
                "Type": "AWS::EC2::Subnet",
                "Properties": {"VpcId": {"Ref": "vpc"}, "CidrBlock": "10.72.1.0/24"},
            },
            "group": {
                "Type": "AWS::EC2::SecurityGroup",
                "Properties": {"GroupDescription": "web servers", "VpcId": {"Ref": "vpc"}},
            },
            "volume": {
                "Type": "AWS::EC2::Volume",
                "Properties": {"AvailabilityZone": "nova", "Size": 1},
            },
            "instance": {
                "Type": "AWS::EC2::Instance",
                "Metadata": {"AWS::CloudFormation::Init": {"config": {}}},
                "Properties": {
                    "ImageId": {"Ref": "ImageId"},
                    "InstanceType": {"Ref": "InstanceType"},
                    "AvailabilityZone": "nova",
                    "SubnetId": {"Ref": "subnet"},
                    "SecurityGroupIds": [{"Ref": "group"}],
                    "Tags": [{"Key": "role", "Value": {"Ref": "Role"}}],
                    "UserData": "echo booted",
                    "Volumes": [{"Device": "/dev/vdb", "VolumeId": {"Ref": "volume"}}],
                },
            },
        },
        "Outputs": {
            "zone": {"Value": {"Fn::GetAtt": ["instance", "AvailabilityZone"]}},
            "private_ip": {"Value": {"Fn::GetAtt": ["instance", "PrivateIp"]}},
            "public_ip": {"Value": {"Fn::GetAtt": ["instance", "PublicIp"]}},
            "private_dns": {"Value": {"Fn::GetAtt": ["instance", "PrivateDnsName"]}},
        },
    }


def test_an_instance_boots_resizes_in_place_and_goes_with_its_port(
    heat: Any,
    member: openstack.connection.Connection,
    admin: openstack.connection.Connection,
    flavors: tuple[Any, Any],
    image: Any,
) -> None:
    small, large = flavors
    parameters = {"ImageId": image.name, "InstanceType": small.name, "Role": "web"}
    template = instance_template()
    created = heat.stacks.create(
        stack_name=unique("ec2-instance"), template=template, parameters=parameters
    )
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    server = admin.compute.get_server(ids["instance"])
    assert server.name.startswith(f"{stack.stack_name}-instance-")
    assert (server.flavor.name, server.image.id, server.metadata) == (
        small.name,
        image.id,
        {"role": "web"},
    )
    assert [attached["id"] for attached in server.attached_volumes] == [ids["volume"]]
    assert member.block_storage.get_volume(ids["volume"]).status == "in-use"
    [port] = member.network.ports(device_id=server.id)
    assert [ip["subnet_id"] for ip in port.fixed_ips] == [ids["subnet"]]
    assert port.security_group_ids == [ids["group"]]

    # HEAT_CFNTOOLS user data: the cloud-init parts, the user ec2-user, the user data,
    # the resource's metadata and where the CFN API is.
    user_data = base64.b64decode(server.user_data).decode()
    for part in (
        'Content-Type: text/cloud-config; charset="us-ascii"',
        'Content-Disposition: attachment; filename="cfn-userdata"',
        'Content-Disposition: attachment; filename="loguserdata.py"',
        'Content-Disposition: attachment; filename="cfn-init-data"',
        'Content-Disposition: attachment; filename="cfn-metadata-server"',
        'Content-Disposition: attachment; filename="cfn-boto-cfg"',
        "user: ec2-user",
        "useradd -m ec2-user",
        "echo booted",
        '{"AWS::CloudFormation::Init": {"config": {}}}',
    ):
        assert part in user_data, part

    [address] = [ip["ip_address"] for ip in port.fixed_ips]
    assert outputs(stack) == {
        "zone": "nova",
        "private_ip": address,
        "public_ip": address,
        "private_dns": address,
    }

    # A new InstanceType resizes the same server (then confirms the resize); new tags
    # are its new metadata.
    parameters.update(InstanceType=large.name, Role="db")
    heat.stacks.update(stack_id, template=template, parameters=parameters)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["instance"] == server.id
    resized = member.compute.get_server(server.id)
    assert (resized.flavor.name, resized.status, resized.metadata) == (
        large.name,
        "ACTIVE",
        {"role": "db"},
    )

    heat.actions.suspend(stack_id)
    stack = wait_for_stack(heat, stack_id, "SUSPEND")
    assert stack.stack_status == "SUSPEND_COMPLETE", stack.stack_status_reason
    assert member.compute.get_server(server.id).status == "SUSPENDED"
    heat.actions.resume(stack_id)
    stack = wait_for_stack(heat, stack_id, "RESUME")
    assert stack.stack_status == "RESUME_COMPLETE", stack.stack_status_reason
    assert member.compute.get_server(server.id).status == "ACTIVE"

    heat.actions.check(stack_id)
    stack = wait_for_stack(heat, stack_id, "CHECK")
    assert stack.stack_status == "CHECK_COMPLETE", stack.stack_status_reason

    delete_stack(heat, stack_id)
    assert member.compute.find_server(server.id) is None
    assert member.network.find_port(port.id) is None
    assert ids["volume"] not in [found.id for found in member.block_storage.volumes()]


def refusal(heat: Any, template: dict[str, Any], parameters: dict[str, Any]) -> Any:
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(
            stack_name=unique("ec2-refused"), template=template, parameters=parameters
        )
    return refused.value.error["error"]


@pytest.fixture
def instance_only(flavors: tuple[Any, Any], image: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A template with nothing but an instance, and its parameters."""
    template = instance_template()
    instance = template["Resources"]["instance"]
    template["Resources"] = {"instance": instance}
    template["Outputs"] = {}
    properties = instance["Properties"]
    for name in ("SubnetId", "SecurityGroupIds", "Volumes"):
        del properties[name]
    parameters = {"ImageId": image.id, "InstanceType": flavors[0].name, "Role": "web"}
    return template, parameters


def test_security_groups_beside_network_interfaces_are_refused(
    heat: Any, instance_only: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    template, parameters = copy.deepcopy(instance_only)
    properties = template["Resources"]["instance"]["Properties"]
    properties["SecurityGroups"] = ["default"]
    properties["NetworkInterfaces"] = ["5d2ba1c9-7a80-4ab3-8d4a-f61e30b8c6ba"]
    error = refusal(heat, template, parameters)
    assert (error["type"], error["message"]) == (
        "ResourcePropertyConflict",
        "Cannot define the following properties at the same time: "
        "SecurityGroups/SecurityGroupIds, NetworkInterfaces.",
    )


@pytest.mark.parametrize(
    ("mapping", "missing"),
    [
        ({"DeviceName": "vdb"}, "Ebs"),
        ({"DeviceName": "vdb", "Ebs": {"VolumeSize": "1"}}, "SnapshotId"),
    ],
)
def test_block_device_mappings_need_a_snapshot(
    heat: Any,
    instance_only: tuple[dict[str, Any], dict[str, Any]],
    mapping: dict[str, Any],
    missing: str,
) -> None:
    template, parameters = copy.deepcopy(instance_only)
    template["Resources"]["instance"]["Properties"]["BlockDeviceMappings"] = [mapping]
    error = refusal(heat, template, parameters)
    assert (error["type"], error["message"]) == (
        "StackValidationFailed",
        f"{missing} is missing, this is required when specifying BlockDeviceMappings.",
    )


def test_an_instance_without_a_subnet_or_interfaces_fails_as_novaclient_refuses_it(
    heat: Any, instance_only: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    # Heat's novaclient, at its microversion, needs networks for every boot.
    template, parameters = instance_only
    created = heat.stacks.create(
        stack_name=unique("ec2-no-nics"), template=template, parameters=parameters
    )
    stack = wait_for_stack(heat, created["stack"]["id"], "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: ValueError: resources.instance: nics are required after "
        "microversion 2.36"
    )
    delete_stack(heat, stack.id)


def wait_for_ports(
    member: openstack.connection.Connection, server_id: str, wanted: list[str]
) -> list[str]:
    """The server's ports once they are ``wanted`` (Heat's interface steps are not waited
    for, so Nova may still be at them when the update is complete)."""
    deadline = time.monotonic() + 60
    while True:
        found = [port.id for port in member.network.ports(device_id=server_id)]
        if sorted(found) == sorted(wanted) or time.monotonic() > deadline:
            return found
        time.sleep(1)


def test_interfaces_tags_and_metadata_change_in_place(
    heat: Any,
    member: openstack.connection.Connection,
    flavors: tuple[Any, Any],
    image: Any,
) -> None:
    def template(interface: str, tags: bool, version: int) -> dict[str, Any]:
        instance: dict[str, Any] = {
            "Type": "AWS::EC2::Instance",
            "Metadata": {"version": version},
            "Properties": {
                "ImageId": image.id,
                "InstanceType": flavors[0].name,
                "NetworkInterfaces": [
                    {"NetworkInterfaceId": {"Ref": interface}, "DeviceIndex": "0"}
                ],
            },
        }
        if tags:
            instance["Properties"]["Tags"] = [{"Key": "role", "Value": "web"}]
        nic = {"Type": "AWS::EC2::NetworkInterface", "Properties": {"SubnetId": {"Ref": "subnet"}}}
        return {
            "AWSTemplateFormatVersion": "2010-09-09",
            "Resources": {
                "vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.75.0.0/16"}},
                "subnet": {
                    "Type": "AWS::EC2::Subnet",
                    "Properties": {"VpcId": {"Ref": "vpc"}, "CidrBlock": "10.75.1.0/24"},
                },
                "nic_a": nic,
                "nic_b": nic,
                "instance": instance,
            },
        }

    created = heat.stacks.create(stack_name=unique("ec2-nics"), template=template("nic_a", True, 1))
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)
    assert wait_for_ports(member, ids["instance"], [ids["nic_a"]]) == [ids["nic_a"]]
    assert member.compute.get_server(ids["instance"]).metadata == {"role": "web"}

    # Another interface (the old one detached, the new one attached), the tags taken
    # out (Heat fails there; the server's metadata is emptied) and new metadata.
    heat.stacks.update(stack_id, template=template("nic_b", False, 2))
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert wait_for_ports(member, ids["instance"], [ids["nic_b"]]) == [ids["nic_b"]]
    assert member.compute.get_server(ids["instance"]).metadata == {}
    assert heat.resources.metadata(stack_id, "instance") == {"version": 2}

    delete_stack(heat, stack_id)
    assert member.compute.find_server(ids["instance"]) is None
    for port_id in (ids["nic_a"], ids["nic_b"]):
        assert member.network.find_port(port_id) is None
