"""OS::Heat::InstanceGroup against the real Nova and Neutron, driven by alice: ``Size``
members built from an AWS::AutoScaling::LaunchConfiguration, with the group's Tags and
Heat's metering tag; InstanceList the members' addresses; a new Size grows the group; a
new launch configuration (another image) replaces every member in batches under the
RollingUpdate policy; the delete leaves no server.

An InstanceGroup has no subnet property and Nova (past microversion 2.36) boots nothing
without networks, so the members' AWS::EC2::Instance is mapped by the environment to a
provider template of an OS::Nova::Server on the test's subnet, as Heat's own functional
tests of this type do; the server's metadata is the tags the member was given.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest
import yaml
from heatclient.exc import HTTPBadRequest

from tests.cloud_scenarios import boot_material
from tests.cloud_scenarios.conftest import delete_stack, outputs, unique, wait_for_stack


def stand_in(subnet_id: str) -> dict[str, Any]:
    """An AWS::EC2::Instance of the properties the group gives, as a Nova server."""
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "ImageId": {"type": "string"},
            "InstanceType": {"type": "string"},
            "Tags": {"type": "json", "default": []},
        },
        "resources": {
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "image": {"get_param": "ImageId"},
                    "flavor": {"get_param": "InstanceType"},
                    "networks": [{"subnet": subnet_id}],
                    "metadata": {
                        "yaql": {
                            "expression": "dict($.data.tags.select([$.Key, $.Value]))",
                            "data": {"tags": {"get_param": "Tags"}},
                        }
                    },
                },
            }
        },
        "outputs": {"PublicIp": {"value": {"get_attr": ["server", "first_address"]}}},
    }


def group_template(**group: Any) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "AvailabilityZones": ["nova"],
        "LaunchConfigurationName": {"get_resource": "config"},
        "Size": {"get_param": "size"},
        "Tags": [{"Key": "team", "Value": "web"}],
    }
    properties.update(group)
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "image": {"type": "string"},
            "flavor": {"type": "string"},
            "size": {"type": "number", "default": 2},
        },
        "resources": {
            "config": {
                "type": "AWS::AutoScaling::LaunchConfiguration",
                "properties": {
                    "ImageId": {"get_param": "image"},
                    "InstanceType": {"get_param": "flavor"},
                },
            },
            "group": {
                "type": "OS::Heat::InstanceGroup",
                "properties": {key: value for key, value in properties.items() if value},
                "update_policy": {
                    "RollingUpdate": {
                        "MinInstancesInService": 1,
                        "MaxBatchSize": 2,
                        "PauseTime": "PT1S",
                    }
                },
            },
        },
        "outputs": {"instances": {"value": {"get_attr": ["group", "InstanceList"]}}},
    }


@pytest.fixture(scope="module")
def flavor(admin: openstack.connection.Connection) -> Iterator[Any]:
    with boot_material.flavors(admin, "ig-flavor", 64) as (made,):
        yield made


@pytest.fixture(scope="module")
def images(admin: openstack.connection.Connection) -> Iterator[tuple[Any, ...]]:
    with boot_material.public_images(admin, "ig-image", 2) as made:
        yield made


@pytest.fixture(scope="module")
def subnet(member: openstack.connection.Connection) -> Iterator[Any]:
    with boot_material.subnet(member, "ig", "10.32.0.0/24") as made:
        yield made


def member_servers(heat: Any, member: openstack.connection.Connection, stack_id: str) -> list[Any]:
    """The members' servers, as Nova has them."""
    found = [
        resource.physical_resource_id
        for resource in heat.resources.list(stack_id, nested_depth=3)
        if resource.resource_type == "OS::Nova::Server" and resource.physical_resource_id
    ]
    return [member.compute.get_server(server_id) for server_id in found]


def addresses(servers: list[Any]) -> list[str]:
    return sorted(
        address["addr"]
        for server in servers
        for network_addresses in server.addresses.values()
        for address in network_addresses
    )


def create(heat: Any, subnet: Any, name: str, parameters: dict[str, Any], **group: Any) -> str:
    return str(
        heat.stacks.create(
            stack_name=unique(name),
            template=group_template(**group),
            parameters=parameters,
            environment={"resource_registry": {"AWS::EC2::Instance": "instance.yaml"}},
            files={"instance.yaml": yaml.safe_dump(stand_in(subnet.id))},
        )["stack"]["id"]
    )


def test_an_instance_group_is_size_servers_resized_and_rolled_out(
    heat: Any,
    member: openstack.connection.Connection,
    flavor: Any,
    images: tuple[Any, Any],
    subnet: Any,
    stacks_left_behind: None,
) -> None:
    parameters = {"image": images[0].name, "flavor": flavor.name}
    stack_id = create(heat, subnet, "instance-group", parameters)
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    created = member_servers(heat, member, stack_id)
    assert len(created) == 2
    assert {server.image.id for server in created} == {images[0].id}
    # The group's tag, and the one Ceilometer's meters name the group by.
    for server in created:
        assert server.metadata["team"] == "web"
        assert "metering.groupname" in server.metadata
    assert sorted(outputs(stack)["instances"].split(",")) == addresses(created)

    # Size 3: one more, the first two kept.
    heat.stacks.update(stack_id, existing=True, parameters={"size": 3})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    grown = member_servers(heat, member, stack_id)
    assert len(grown) == 3
    assert {server.id for server in created} < {server.id for server in grown}
    assert sorted(outputs(stack)["instances"].split(",")) == addresses(grown)

    # A new image: a new launch configuration, rolled out to every member in batches.
    heat.stacks.update(stack_id, existing=True, parameters={"image": images[1].name})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    rolled = member_servers(heat, member, stack_id)
    assert len(rolled) == 3
    assert {server.image.id for server in rolled} == {images[1].id}
    # The stand-in's server takes a new image by a rebuild, in place.
    assert {server.id for server in rolled} == {server.id for server in grown}
    nested_id = heat.resources.get(stack_id, "group").physical_resource_id
    nested_name = heat.stacks.get(nested_id).stack_name
    updates = [
        event
        for event in heat.events.list(nested_id)
        if event.resource_name == nested_name and event.resource_status == "UPDATE_COMPLETE"
    ]
    # The resize to 3, then two batches (3 members, 2 at a time).
    assert len(updates) >= 3

    delete_stack(heat, stack_id)
    for server in rolled:
        assert member.compute.find_server(server.id) is None


def test_a_load_balancer_heat_cannot_hand_members_to_fails_the_create(
    heat: Any,
    flavor: Any,
    images: tuple[Any, Any],
    subnet: Any,
    stacks_left_behind: None,
) -> None:
    parameters = {"image": images[0].name, "flavor": flavor.name, "size": 1}
    template_group = {"LoadBalancerNames": ["config"]}
    stack_id = create(heat, subnet, "instance-group-lb", parameters, **template_group)
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: Error: resources.group: Unsupported resource 'config' in "
        "LoadBalancerNames"
    )
    delete_stack(heat, stack_id)


@pytest.mark.parametrize(
    ("group", "message"),
    [
        (
            {"LaunchConfigurationName": "config"},
            "LaunchConfigurationName (config) requires a reference to the configuration not "
            "just the name of the resource.",
        ),
        (
            {"LaunchConfigurationName": "missing"},
            "LaunchConfigurationName (missing) reference can not be found.",
        ),
    ],
)
def test_bad_references_are_refused_as_heat_refuses_them(
    heat: Any, flavor: Any, images: tuple[Any, Any], subnet: Any, group: Any, message: str
) -> None:
    parameters = {"image": images[0].name, "flavor": flavor.name}
    with pytest.raises(HTTPBadRequest) as refusal:
        create(heat, subnet, "instance-group-bad", parameters, **group)
    assert message in str(refusal.value)
