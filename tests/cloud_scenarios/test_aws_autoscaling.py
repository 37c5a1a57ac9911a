"""AWS::AutoScaling::AutoScalingGroup, LaunchConfiguration and ScalingPolicy against the real
Nova and Neutron, driven by alice: a group of two members is two servers of the launch
configuration's image and flavor (AWS::EC2::Instance members) on the VPCZoneIdentifier's
subnet; an update of DesiredCapacity and MinSize to three adds one, a signal of the
scaling policy another;
a new launch configuration (another image) is rolled out to every member under
AutoScalingRollingUpdate, the group keeping its size; the delete leaves no server. Bad
sizes and references are refused at create with Heat's messages.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud_scenarios import boot_material
from tests.cloud_scenarios.conftest import delete_stack, outputs, unique, wait_for_stack

TIMEOUT = 240.0
# The members' type as the nested template names it (AWS::EC2::Instance in its environment).
SERVER_TYPES = ("OS::Heat::ScaledResource",)


def group_template(rolling: bool = True, **group: Any) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "AvailabilityZones": ["nova"],
        "LaunchConfigurationName": {"Ref": "Config"},
        "MinSize": {"Ref": "MinSize"},
        "MaxSize": 5,
        "DesiredCapacity": {"Ref": "Capacity"},
        "Cooldown": 0,
        "VPCZoneIdentifier": [{"Ref": "SubnetId"}],
    }
    properties.update(group)
    resource: dict[str, Any] = {
        "Type": "AWS::AutoScaling::AutoScalingGroup",
        "Properties": {key: value for key, value in properties.items() if value is not None},
    }
    if rolling:
        resource["UpdatePolicy"] = {
            "AutoScalingRollingUpdate": {
                "MinInstancesInService": 1,
                "MaxBatchSize": 2,
                "PauseTime": "PT1S",
            }
        }
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Parameters": {
            "ImageId": {"Type": "String"},
            "InstanceType": {"Type": "String"},
            "SubnetId": {"Type": "String"},
            "Capacity": {"Type": "Number", "Default": 2},
            "MinSize": {"Type": "Number", "Default": 1},
        },
        "Resources": {
            "Config": {
                "Type": "AWS::AutoScaling::LaunchConfiguration",
                "Properties": {
                    "ImageId": {"Ref": "ImageId"},
                    "InstanceType": {"Ref": "InstanceType"},
                },
            },
            "Group": resource,
            "ScaleUp": {
                "Type": "AWS::AutoScaling::ScalingPolicy",
                "Properties": {
                    "AutoScalingGroupName": {"Ref": "Group"},
                    "ScalingAdjustment": 1,
                    "AdjustmentType": "ChangeInCapacity",
                    "Cooldown": 0,
                },
            },
        },
        "Outputs": {"Instances": {"Value": {"Fn::GetAtt": ["Group", "InstanceList"]}}},
    }


@pytest.fixture(scope="module")
def flavor(admin: openstack.connection.Connection) -> Iterator[Any]:
    with boot_material.flavors(admin, "asg-flavor", 64) as (made,):
        yield made


@pytest.fixture(scope="module")
def images(admin: openstack.connection.Connection) -> Iterator[tuple[Any, ...]]:
    with boot_material.public_images(admin, "asg-image", 2) as made:
        yield made


@pytest.fixture(scope="module")
def subnet(member: openstack.connection.Connection) -> Iterator[Any]:
    with boot_material.subnet(member, "asg", "10.31.0.0/24") as made:
        yield made


def servers(heat: Any, member: openstack.connection.Connection, stack_id: str) -> list[Any]:
    """The group's servers, as Nova has them."""
    found = [
        resource.physical_resource_id
        for resource in heat.resources.list(stack_id, nested_depth=1)
        if resource.resource_type in SERVER_TYPES
        and resource.physical_resource_id
        and resource.resource_status != "FAILED"
    ]
    return [member.compute.get_server(server_id) for server_id in found]


def flavor_name(server: Any) -> str:
    return str(server.flavor.get("original_name") or server.flavor.get("name"))


def wait_for_size(heat: Any, member: Any, stack_id: str, size: int) -> list[Any]:
    """The group's servers once there are ``size`` of them, all ACTIVE."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        found = servers(heat, member, stack_id)
        if len(found) == size and all(server.status == "ACTIVE" for server in found):
            return found
        assert time.monotonic() < deadline, (
            [(server.id, server.status) for server in found],
            [
                (event.resource_name, event.resource_status, event.resource_status_reason)
                for event in heat.events.list(stack_id)
            ],
            heat.resources.get(stack_id, "Group").attributes,
        )
        time.sleep(1)


def group_nested_stack_id(heat: Any, stack_id: str) -> str:
    group = heat.resources.get(stack_id, "Group")
    return str(group.physical_resource_id)


def test_the_group_lives_on_real_servers(
    heat: Any,
    member: openstack.connection.Connection,
    flavor: Any,
    images: tuple[Any, Any],
    subnet: Any,
    stacks_left_behind: None,
) -> None:
    parameters = {"ImageId": images[0].name, "InstanceType": flavor.name, "SubnetId": subnet.id}
    stack_id = heat.stacks.create(
        stack_name=unique("asg"),
        template=group_template(),
        parameters=parameters,
    )["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    # Two servers of the launch configuration's image and flavor, on the subnet.
    created = servers(heat, member, stack_id)
    assert len(created) == 2
    assert {(server.image.id, flavor_name(server)) for server in created} == {
        (images[0].id, flavor.name)
    }
    addresses = sorted(
        address["addr"]
        for server in created
        for network_addresses in server.addresses.values()
        for address in network_addresses
    )
    assert all(address.startswith("10.31.0.") for address in addresses)
    assert sorted(outputs(stack)["Instances"].split(",")) == addresses

    # DesiredCapacity and MinSize 3: one more.
    heat.stacks.update(stack_id, existing=True, parameters={"Capacity": 3, "MinSize": 3})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    grown = servers(heat, member, stack_id)
    assert len(grown) == 3
    assert {server.id for server in created} < {server.id for server in grown}

    # The scaling policy's signal: one more again.
    heat.resources.signal(stack_id, "ScaleUp")
    scaled = wait_for_size(heat, member, stack_id, 4)
    assert {server.id for server in grown} < {server.id for server in scaled}
    nested_id = group_nested_stack_id(heat, stack_id)
    nested = wait_for_stack(heat, nested_id, "UPDATE")
    assert nested.stack_status == "UPDATE_COMPLETE", nested.stack_status_reason

    delete_stack(heat, stack_id)
    for server in scaled:
        assert member.compute.find_server(server.id) is None


def test_a_new_launch_configuration_rolls_out_to_every_member(
    heat: Any,
    member: openstack.connection.Connection,
    flavor: Any,
    images: tuple[Any, Any],
    subnet: Any,
    stacks_left_behind: None,
) -> None:
    parameters = {
        "ImageId": images[0].name,
        "InstanceType": flavor.name,
        "SubnetId": subnet.id,
        "Capacity": 3,
    }
    stack_id = heat.stacks.create(
        stack_name=unique("asg-rolling"),
        template=group_template(),
        parameters=parameters,
    )["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    nested_id = group_nested_stack_id(heat, stack_id)
    members_before = sorted(resource.resource_name for resource in heat.resources.list(nested_id))
    servers_before = servers(heat, member, stack_id)

    heat.stacks.update(stack_id, existing=True, parameters={"ImageId": images[1].name})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason

    # The same members (by name), each an instance replaced by one of the new image (an
    # instance's ImageId is not changed in place); the old servers are gone.
    members_after = sorted(resource.resource_name for resource in heat.resources.list(nested_id))
    assert members_after == members_before
    rolled = servers(heat, member, stack_id)
    assert len(rolled) == 3
    assert {server.image.id for server in rolled} == {images[1].id}
    assert not {server.id for server in servers_before} & {server.id for server in rolled}
    for server in servers_before:
        assert member.compute.find_server(server.id) is None
    # In batches of two: the nested stack was updated twice (3 members, 2 at a time).
    nested_name = heat.stacks.get(nested_id).stack_name
    updates = [
        event
        for event in heat.events.list(nested_id)
        if event.resource_name == nested_name and event.resource_status == "UPDATE_COMPLETE"
    ]
    assert len(updates) >= 2

    delete_stack(heat, stack_id)
    for server in rolled:
        assert member.compute.find_server(server.id) is None


@pytest.mark.parametrize(
    ("group", "message"),
    [
        (
            {"MinSize": 4, "MaxSize": 3, "DesiredCapacity": None},
            "MinSize can not be greater than MaxSize",
        ),
        ({"DesiredCapacity": 9}, "DesiredCapacity must be between MinSize and MaxSize"),
        (
            {"VPCZoneIdentifier": ["one", "two"]},
            "Anything other than one VPCZoneIdentifier is not supported",
        ),
        (
            {"LaunchConfigurationName": None},
            "Either 'InstanceId' or 'LaunchConfigurationName' must be provided.",
        ),
        (
            {"LaunchConfigurationName": "Config"},
            "LaunchConfigurationName (Config) requires a reference to the configuration not "
            "just the name of the resource.",
        ),
        (
            {"LaunchConfigurationName": "Missing"},
            "LaunchConfigurationName (Missing) reference can not be found.",
        ),
    ],
)
def test_bad_groups_are_refused_as_heat_refuses_them(
    heat: Any,
    flavor: Any,
    images: tuple[Any, Any],
    subnet: Any,
    group: dict[str, Any],
    message: str,
) -> None:
    parameters = {"ImageId": images[0].name, "InstanceType": flavor.name, "SubnetId": subnet.id}
    with pytest.raises(HTTPBadRequest) as refusal:
        heat.stacks.create(
            stack_name=unique("asg-bad"),
            template=group_template(**group),
            parameters=parameters,
        )
    assert message in str(refusal.value)


def test_a_pause_over_an_hour_is_refused(
    heat: Any, flavor: Any, images: tuple[Any, Any], subnet: Any
) -> None:
    template = group_template()
    template["Resources"]["Group"]["UpdatePolicy"]["AutoScalingRollingUpdate"]["PauseTime"] = "PT2H"
    parameters = {"ImageId": images[0].name, "InstanceType": flavor.name, "SubnetId": subnet.id}
    with pytest.raises(HTTPBadRequest) as refusal:
        heat.stacks.create(
            stack_name=unique("asg-bad"),
            template=template,
            parameters=parameters,
        )
    assert "Maximum PauseTime is 1 hour." in str(refusal.value)


@pytest.fixture
def existing_server(
    member: openstack.connection.Connection, flavor: Any, images: tuple[Any, Any], subnet: Any
) -> Iterator[Any]:
    server = member.compute.create_server(
        name=unique("asg-source"),
        image_id=images[1].id,
        flavor_id=flavor.id,
        networks=[{"uuid": subnet.network_id}],
    )
    yield member.compute.wait_for_server(server, wait=120)
    member.compute.delete_server(server)
    member.compute.wait_for_delete(server, wait=120)


@pytest.mark.parametrize("copied_by", ["LaunchConfiguration", "AutoScalingGroup"])
def test_members_copy_an_existing_server(
    heat: Any,
    member: openstack.connection.Connection,
    flavor: Any,
    images: tuple[Any, Any],
    subnet: Any,
    existing_server: Any,
    copied_by: str,
    stacks_left_behind: None,
) -> None:
    template = group_template(rolling=False)
    if copied_by == "LaunchConfiguration":
        template["Resources"]["Config"]["Properties"] = {"InstanceId": existing_server.id}
    else:
        del template["Resources"]["Config"]
        group = template["Resources"]["Group"]["Properties"]
        del group["LaunchConfigurationName"]
        group["InstanceId"] = existing_server.id
    parameters = {"ImageId": images[0].name, "InstanceType": "unused", "SubnetId": subnet.id}
    stack_id = heat.stacks.create(
        stack_name=unique("asg-copy"),
        template=template,
        parameters=parameters,
    )["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    # The server's image and flavor, not the template's parameters.
    copies = servers(heat, member, stack_id)
    assert len(copies) == 2
    assert {(server.image.id, flavor_name(server)) for server in copies} == {
        (images[1].id, flavor.name)
    }
    delete_stack(heat, stack_id)
