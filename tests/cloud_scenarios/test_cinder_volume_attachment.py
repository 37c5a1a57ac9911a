"""OS::Cinder::VolumeAttachment and AWS::EC2::Volume/VolumeAttachment against the real
Nova and Cinder: a stack's volume attached to a server booted beforehand (with
openstacksdk), moved to another volume in place, kept attached through a change that
needs it detached, and detached before its volumes are deleted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest

from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import physical_ids, unique, wait_for_stack
from tests.keystone import ADMIN

WAIT = 180


@pytest.fixture(scope="module")
def server(cloud: Cloud, member: openstack.connection.Connection) -> Iterator[Any]:
    """An ACTIVE server of alice's on a network of her own, and all of it gone after."""
    admin = openstack.connect(**cloud.auth(ADMIN))
    flavor = admin.compute.create_flavor(name=unique("attach-flavor"), ram=64, vcpus=1, disk=1)
    image = admin.image.create_image(
        name=unique("attach-image"),
        data=b"\0" * 4096,
        disk_format="raw",
        container_format="bare",
        visibility="public",
    )
    network = member.network.create_network(name=unique("attach-net"))
    subnet = member.network.create_subnet(
        network_id=network.id, ip_version=4, cidr="10.77.0.0/24", name=unique("attach-subnet")
    )
    made = member.compute.create_server(
        name=unique("attach-server"),
        flavor_id=flavor.id,
        image_id=image.id,
        networks=[{"uuid": network.id}],
    )
    try:
        yield member.compute.wait_for_server(made, status="ACTIVE", wait=WAIT)
    finally:
        member.compute.delete_server(made, ignore_missing=True)
        member.compute.wait_for_delete(made, wait=WAIT)
        for port in member.network.ports(network_id=network.id):
            member.network.delete_port(port, ignore_missing=True)
        member.network.delete_subnet(subnet, ignore_missing=True)
        member.network.delete_network(network, ignore_missing=True)
        admin.image.delete_image(image, ignore_missing=True)
        admin.compute.delete_flavor(flavor, ignore_missing=True)
        admin.close()


def attachment_template(volume: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"server": {"type": "string"}},
        "resources": {
            "logs": {"type": "OS::Cinder::Volume", "properties": {"size": 1}},
            "data": {"type": "OS::Cinder::Volume", "properties": {"size": 1}},
            "attachment": {
                "type": "OS::Cinder::VolumeAttachment",
                "properties": {
                    "instance_uuid": {"get_param": "server"},
                    "volume_id": {"get_resource": volume},
                },
            },
        },
    }


def attached_servers(member: openstack.connection.Connection, volume_id: str) -> list[str]:
    volume = member.block_storage.get_volume(volume_id)
    return [attachment["server_id"] for attachment in volume.attachments]


def test_a_volume_is_attached_moved_to_another_and_detached(
    heat: Any, member: openstack.connection.Connection, server: Any
) -> None:
    parameters = {"server": server.id}
    stack_id = heat.stacks.create(
        stack_name=unique("attach"), template=attachment_template("data"), parameters=parameters
    )["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    assert ids["attachment"] == ids["data"]  # Nova names an attachment by its volume
    assert member.block_storage.get_volume(ids["data"]).status == "in-use"
    assert attached_servers(member, ids["data"]) == [server.id]
    assert attached_servers(member, ids["logs"]) == []

    heat.stacks.update(stack_id, template=attachment_template("logs"), parameters=parameters)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    after = physical_ids(heat, stack_id)
    assert after["attachment"] == ids["logs"]
    assert attached_servers(member, ids["logs"]) == [server.id]
    assert attached_servers(member, ids["data"]) == []
    assert member.block_storage.get_volume(ids["data"]).status == "available"

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert [
        volume.id
        for volume in member.block_storage.volumes()
        if volume.id in (ids["data"], ids["logs"])
    ] == []
    assert member.compute.get_server(server.id).status == "ACTIVE"


def test_an_attached_volume_is_made_read_only_and_extended_still_attached(
    heat: Any, member: openstack.connection.Connection, server: Any
) -> None:
    parameters = {"server": server.id}
    template = attachment_template("data")
    stack_id = heat.stacks.create(
        stack_name=unique("attach-ro"), template=template, parameters=parameters
    )["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)

    template["resources"]["data"]["properties"]["read_only"] = True
    heat.stacks.update(stack_id, template=template, parameters=parameters)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    volume = member.block_storage.get_volume(ids["data"])
    assert (volume.status, volume.metadata.get("readonly")) == ("in-use", "True")
    assert attached_servers(member, ids["data"]) == [server.id]

    # Cinder extends a volume in use (microversion 3.42): it stays attached.
    template["resources"]["data"]["properties"]["size"] = 2
    heat.stacks.update(stack_id, template=template, parameters=parameters)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    volume = member.block_storage.get_volume(ids["data"])
    assert (volume.size, volume.status) == (2, "in-use")
    assert attached_servers(member, ids["data"]) == [server.id]

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason


def test_an_ec2_volume_is_tagged_attached_and_deleted(
    heat: Any, member: openstack.connection.Connection, server: Any
) -> None:
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Parameters": {"Server": {"Type": "String"}},
        "Resources": {
            "Disk": {
                "Type": "AWS::EC2::Volume",
                "Properties": {
                    "Size": 1,
                    "AvailabilityZone": "nova",
                    "Tags": [{"Key": "purpose", "Value": "logs"}],
                },
            },
            "Mount": {
                "Type": "AWS::EC2::VolumeAttachment",
                "Properties": {
                    "InstanceId": {"Ref": "Server"},
                    "VolumeId": {"Ref": "Disk"},
                    "Device": "/dev/vdb",
                },
            },
        },
    }
    stack_id = heat.stacks.create(
        stack_name=unique("ec2-volume"), template=template, parameters={"Server": server.id}
    )["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    volume = member.block_storage.get_volume(ids["Disk"])
    assert (volume.size, volume.availability_zone, volume.metadata, volume.status) == (
        1,
        "nova",
        {"purpose": "logs"},
        "in-use",
    )
    assert volume.name == volume.description
    assert volume.name.startswith("ec2-volume-") and "-Disk-" in volume.name
    assert attached_servers(member, ids["Disk"]) == [server.id]
    assert ids["Mount"] == ids["Disk"]

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert ids["Disk"] not in [found.id for found in member.block_storage.volumes()]
