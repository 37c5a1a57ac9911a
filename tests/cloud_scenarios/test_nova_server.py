"""OS::Nova::Server against the real Nova (fake driver) and Neutron: booted from an image
and a flavor named in the template, on a network Nova makes a port on and on a subnet
the resource makes its own port in, with a key pair, a server group, metadata and user
data; renamed, given new metadata, resized and rebuilt in place; suspended and resumed;
deleted with its own ports; and the refusals Heat gives, given as Heat gives them."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519
from heatclient.exc import HTTPBadRequest

from tests.cloud import Cloud
from tests.cloud_scenarios import boot_material
from tests.cloud_scenarios.conftest import (
    alice_heat,
    delete_stack,
    outputs,
    physical_ids,
    stacks_deleted_after,
    unique,
    wait_for_stack,
)


@pytest.fixture(scope="module")
def flavors(admin: openstack.connection.Connection) -> Iterator[tuple[Any, ...]]:
    with boot_material.flavors(admin, "server-flavor", 64, 128) as made:
        yield made


@pytest.fixture(scope="module")
def images(admin: openstack.connection.Connection) -> Iterator[tuple[Any, ...]]:
    with boot_material.public_images(admin, "server-image", 2) as made:
        yield made


@pytest.fixture(scope="module")
def network(member: openstack.connection.Connection) -> Iterator[tuple[Any, Any]]:
    """A network (Nova makes the servers' ports on it) and a subnet of another network
    (the servers' own ports are made in it)."""
    made = []
    for number in (0, 1):
        network = member.network.create_network(name=unique("server-net"))
        subnet = member.network.create_subnet(
            network_id=network.id,
            ip_version=4,
            cidr=f"10.2{number}.0.0/24",
            name=unique("server-subnet"),
        )
        made.append((network, subnet))
    yield made[0][0], made[1][1]
    for network, subnet in made:
        for port in member.network.ports(network_id=network.id):
            if port.device_owner in ("", "compute:nova", "compute:None"):
                member.network.delete_port(port)
        member.network.delete_subnet(subnet)
        member.network.delete_network(network)


@pytest.fixture
def bootable_volume(member: openstack.connection.Connection) -> Iterator[Any]:
    """Makes blank volumes flagged bootable (what is on them does not matter to Nova's fake
    driver; test_cinder_volume_sources boots from a volume made from an image); each is
    deleted once free again."""
    made: list[Any] = []

    def make() -> Any:
        volume = member.block_storage.create_volume(size=1, name=unique("boot"))
        made.append(volume)
        volume = member.block_storage.wait_for_status(
            volume, status="available", failures=["error"], wait=120
        )
        member.block_storage.set_volume_bootable_status(volume, True)
        return volume

    yield make
    for volume in made:
        member.block_storage.wait_for_status(
            volume, status="available", failures=["error"], wait=120
        )
        member.block_storage.delete_volume(volume)


@pytest.fixture(scope="module")
def heat_retrying_once(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """alice's client of a keel-api and worker that retry a failed create once. Heat's
    default of five retries, each waiting twice as long as the one before, spends a
    minute and more on a server that no host can ever take."""
    directory = tmp_path_factory.mktemp("retry-once")
    with alice_heat(cloud, directory, "mysql", "action_retry_limit = 1") as client:
        yield client


@pytest.fixture
def stacks(heat: Any, bootable_volume: Any) -> Iterator[list[str]]:
    """Ids of the stacks a test makes: deleted after it, whatever became of it (before
    its volumes and the module's network are)."""
    with stacks_deleted_after(heat) as made:
        yield made


def public_key() -> str:
    key = ed25519.Ed25519PrivateKey.generate().public_key()
    return key.public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    ).decode()


def server_template(network: Any, subnet: Any) -> dict[str, Any]:
    """A key pair, a server group and a server booted from a volume on two interfaces."""
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "name": {"type": "string"},
            "flavor": {"type": "string"},
            "volume": {"type": "string"},
            "metadata": {"type": "json"},
            "key_name": {"type": "string"},
        },
        "resources": {
            "key": {
                "type": "OS::Nova::KeyPair",
                "properties": {"name": {"get_param": "key_name"}, "public_key": public_key()},
            },
            "group": {"type": "OS::Nova::ServerGroup", "properties": {"policies": ["affinity"]}},
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "name": {"get_param": "name"},
                    "block_device_mapping_v2": [
                        {"volume_id": {"get_param": "volume"}, "device_name": "vda"}
                    ],
                    "flavor": {"get_param": "flavor"},
                    "key_name": {"get_resource": "key"},
                    "availability_zone": "nova",
                    "scheduler_hints": {"group": {"get_resource": "group"}},
                    "security_groups": ["default"],
                    "networks": [{"network": network.name}, {"subnet": subnet.id}],
                    "metadata": {"get_param": "metadata"},
                    "user_data_format": "RAW",
                    "user_data": "#!/bin/sh\necho hello\n",
                },
            },
        },
        "outputs": {
            "first_address": {"value": {"get_attr": ["server", "first_address"]}},
            "networks": {"value": {"get_attr": ["server", "networks"]}},
            "addresses": {"value": {"get_attr": ["server", "addresses"]}},
            "name": {"value": {"get_attr": ["server", "name"]}},
            "show": {"value": {"get_attr": ["server", "show"]}},
            "console": {"value": {"get_attr": ["server", "console_urls", "novnc"]}},
        },
    }


def test_a_server_boots_changes_in_place_and_goes_with_its_ports(
    heat: Any,
    stacks: list[str],
    member: openstack.connection.Connection,
    admin: openstack.connection.Connection,
    flavors: tuple[Any, Any],
    network: tuple[Any, Any],
    bootable_volume: Any,
) -> None:
    (small, large), (net, subnet) = flavors, network
    volume = bootable_volume()
    name, key_name = unique("web"), unique("key")
    parameters = {
        "name": name,
        "flavor": small.name,
        "volume": volume.id,
        "metadata": {"role": "web", "count": 1},
        "key_name": key_name,
    }
    template = server_template(net, subnet)
    created = heat.stacks.create(
        stack_name=unique("server"), template=template, parameters=parameters
    )
    stack_id = created["stack"]["id"]
    stacks.append(stack_id)
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    server = member.compute.get_server(ids["server"])
    assert (server.name, server.flavor.name, server.key_name) == (name, small.name, key_name)
    assert [attached["id"] for attached in server.attached_volumes] == [volume.id]
    assert server.metadata == {"role": "web", "count": "1"}
    assert server.availability_zone == "nova"
    assert member.compute.get_server_group(ids["group"]).member_ids == [server.id]
    shown_to_admin = admin.compute.get_server(server.id)
    assert base64.b64decode(shown_to_admin.user_data) == b"#!/bin/sh\necho hello\n"

    ports = {port.name: port for port in member.network.ports(device_id=server.id)}
    own_port = ports.pop("server-port-1")
    assert own_port.fixed_ips[0]["subnet_id"] == subnet.id
    [nova_port] = ports.values()
    assert nova_port.network_id == net.id

    shown = outputs(heat.stacks.get(stack_id))
    [nova_address] = [ip["ip_address"] for ip in nova_port.fixed_ips]
    [own_address] = [ip["ip_address"] for ip in own_port.fixed_ips]
    assert shown["networks"][net.name] == [nova_address]
    assert shown["networks"][net.id] == [nova_address]
    assert shown["networks"][subnet.network_id] == [own_address]
    assert shown["first_address"] in (nova_address, own_address)
    [nova_entry] = shown["addresses"][net.name]
    assert (nova_entry["port"], nova_entry["addr"], nova_entry["network"]["id"]) == (
        nova_port.id,
        nova_address,
        net.id,
    )
    [own_entry] = shown["addresses"][subnet.network_id]
    assert (own_entry["port"], [found["id"] for found in own_entry["subnets"]]) == (
        own_port.id,
        [subnet.id],
    )
    assert shown["name"] == name
    # The fake driver has no consoles: Nova's refusal is the value, as in Heat.
    assert shown["console"].startswith(
        "Cannot get console url: Unavailable console type novnc. (HTTP 400) (Request-ID: req-"
    ), shown["console"]
    assert (shown["show"]["id"], shown["show"]["os_collect_config"]) == (server.id, {})

    # Renamed, new metadata, a larger flavor (Nova's resize, then its confirmation), one
    # interface fewer: all in place.
    parameters.update(name=f"{name}-2", metadata={"role": "db"}, flavor=large.name)
    template["resources"]["server"]["properties"]["networks"] = [{"network": net.name}]
    heat.stacks.update(stack_id, template=template, parameters=parameters)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["server"] == server.id
    server = member.compute.get_server(server.id)
    assert (server.name, server.metadata, server.status, server.flavor.name) == (
        f"{name}-2",
        {"role": "db"},
        "ACTIVE",
        large.name,
    )
    assert [port.id for port in member.network.ports(device_id=server.id)] == [nova_port.id]
    assert member.network.find_port(own_port.id) is None

    heat.actions.suspend(stack_id)
    stack = wait_for_stack(heat, stack_id, "SUSPEND")
    assert stack.stack_status == "SUSPEND_COMPLETE", stack.stack_status_reason
    assert member.compute.get_server(server.id).status == "SUSPENDED"
    heat.actions.resume(stack_id)
    stack = wait_for_stack(heat, stack_id, "RESUME")
    assert stack.stack_status == "RESUME_COMPLETE", stack.stack_status_reason
    assert member.compute.get_server(server.id).status == "ACTIVE"

    delete_stack(heat, stack_id)
    assert member.compute.find_server(server.id) is None
    assert member.network.find_port(nova_port.id) is None
    assert member.compute.find_keypair(key_name) is None
    assert member.block_storage.get_volume(volume.id).status in ("available", "detaching")


def test_the_default_user_data_is_heat_cfntools_multipart_mime(
    heat: Any,
    stacks: list[str],
    admin: openstack.connection.Connection,
    flavors: tuple[Any, Any],
    network: tuple[Any, Any],
    bootable_volume: Any,
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "server": {
                "type": "OS::Nova::Server",
                "metadata": {"AWS::CloudFormation::Init": {"config": {}}},
                "properties": {
                    "block_device_mapping_v2": [{"volume_id": bootable_volume().id}],
                    "flavor": flavors[0].id,
                    "networks": [{"network": network[0].id}],
                    "user_data": "echo booted",
                },
            }
        },
    }
    created = heat.stacks.create(stack_name=unique("cfn-server"), template=template)
    stack_id = created["stack"]["id"]
    stacks.append(stack_id)
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    server = admin.compute.get_server(physical_ids(heat, stack_id)["server"])
    user_data = base64.b64decode(server.user_data).decode()
    assert server.name.startswith(f"{stack.stack_name}-server-")
    for header in (
        'Content-Type: text/cloud-config; charset="us-ascii"',
        'Content-Type: text/cloud-boothook; charset="us-ascii"',
        'Content-Disposition: attachment; filename="part-handler.py"',
        'Content-Disposition: attachment; filename="cfn-userdata"',
        'Content-Disposition: attachment; filename="loguserdata.py"',
        'Content-Disposition: attachment; filename="cfn-init-data"',
        'Content-Disposition: attachment; filename="cfn-metadata-server"',
        'Content-Disposition: attachment; filename="cfn-boto-cfg"',
    ):
        assert header in user_data
    assert "echo booted" in user_data
    assert '{"AWS::CloudFormation::Init": {"config": {}}}' in user_data
    delete_stack(heat, stack_id)


def test_a_server_booted_from_an_image_name_is_rebuilt_then_replaced(
    heat: Any,
    stacks: list[str],
    member: openstack.connection.Connection,
    admin: openstack.connection.Connection,
    flavors: tuple[Any, Any],
    images: tuple[Any, Any],
    network: tuple[Any, Any],
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "image": {"type": "string"},
            "flavor": {"type": "string"},
            "user_data": {"type": "string"},
        },
        "resources": {
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "image": {"get_param": "image"},
                    "flavor": {"get_param": "flavor"},
                    "flavor_update_policy": "REPLACE",
                    "networks": [{"network": network[0].id}],
                    "config_drive": True,
                    "user_data_format": "RAW",
                    "user_data": {"get_param": "user_data"},
                    "user_data_update_policy": "REBUILD",
                },
            }
        },
    }
    parameters = {"image": images[0].name, "flavor": flavors[0].name, "user_data": "one"}
    created = heat.stacks.create(
        stack_name=unique("image-server"), template=template, parameters=parameters
    )
    stack_id = created["stack"]["id"]
    stacks.append(stack_id)
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    server_id = physical_ids(heat, stack_id)["server"]
    server = admin.compute.get_server(server_id)
    assert (server.image.id, server.has_config_drive, server.user_data) == (
        images[0].id,
        "True",
        base64.b64encode(b"one").decode(),
    )

    # Another image and another user data: both rebuild the same server.
    parameters.update(image=images[1].name, user_data="two")
    heat.stacks.update(stack_id, template=template, parameters=parameters)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["server"] == server_id
    server = admin.compute.get_server(server_id)
    assert (server.image.id, server.user_data) == (images[1].id, base64.b64encode(b"two").decode())

    # Another flavor under flavor_update_policy REPLACE: a new server.
    parameters.update(flavor=flavors[1].name)
    heat.stacks.update(stack_id, template=template, parameters=parameters)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    replacement = physical_ids(heat, stack_id)["server"]
    assert replacement != server_id
    assert member.compute.get_server(replacement).flavor.name == flavors[1].name
    assert member.compute.find_server(server_id) is None
    delete_stack(heat, stack_id)


def test_a_server_nova_cannot_place_fails_with_its_fault(
    heat_retrying_once: Any,
    flavors: tuple[Any, Any],
    network: tuple[Any, Any],
    bootable_volume: Any,
) -> None:
    # Anti-affinity on the test cloud's one compute host: the second server has no host.
    def server(volume: Any, depends_on: list[str]) -> dict[str, Any]:
        return {
            "type": "OS::Nova::Server",
            "depends_on": depends_on,
            "properties": {
                "block_device_mapping_v2": [{"volume_id": volume.id}],
                "flavor": flavors[0].id,
                "networks": [{"network": network[0].id}],
                "scheduler_hints": {"group": {"get_resource": "group"}},
            },
        }

    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {"type": "OS::Nova::ServerGroup"},
            "first": server(bootable_volume(), []),
            "second": server(bootable_volume(), ["first"]),
        },
    }
    heat = heat_retrying_once
    stack_id = heat.stacks.create(stack_name=unique("no-host"), template=template)["stack"]["id"]
    try:
        stack = wait_for_stack(heat, stack_id, "CREATE")
        # The one retry deleted the server in ERROR and booted another, which failed too.
        failures = [
            event.resource_status_reason
            for event in heat.events.list(stack_id, resource_name="second")
            if event.resource_status == "CREATE_FAILED"
        ]
    finally:
        # Before the volumes go (fixture teardown): the servers hold them.
        delete_stack(heat, stack_id)

    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: ResourceInError: resources.second: Went to status ERROR due "
        'to "Message: No valid host was found. '
    ), stack.stack_status_reason
    assert len(failures) == 2, failures


def test_a_server_without_networks_fails_as_novaclient_refuses_it(
    heat: Any, stacks: list[str], flavors: tuple[Any, Any], bootable_volume: Any
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "block_device_mapping_v2": [{"volume_id": bootable_volume().id}],
                    "flavor": flavors[0].id,
                },
            }
        },
    }
    created = heat.stacks.create(stack_name=unique("no-nics"), template=template)
    stacks.append(created["stack"]["id"])
    stack = wait_for_stack(heat, created["stack"]["id"], "CREATE")

    assert (stack.stack_status, stack.stack_status_reason) == (
        "CREATE_FAILED",
        "Resource CREATE failed: ValueError: resources.server: "
        "nics are required after microversion 2.36",
    )
    delete_stack(heat, created["stack"]["id"])


def test_an_unknown_flavor_is_refused_with_novaclients_message(
    heat: Any, network: tuple[Any, Any], bootable_volume: Any
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "block_device_mapping_v2": [{"volume_id": bootable_volume().id}],
                    "flavor": "no-such-flavor",
                    "networks": [{"network": network[0].id}],
                },
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("no-flavor"), template=template)

    assert refused.value.error["error"]["message"] == (
        "Property error: : resources.server.properties.flavor: : Error validating value "
        "'no-such-flavor': No Flavor matching {'name': 'no-such-flavor'}. (HTTP 404)"
    )


def test_an_unknown_key_pair_is_refused_with_heats_message(
    heat: Any, flavors: tuple[Any, Any], network: tuple[Any, Any], bootable_volume: Any
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "block_device_mapping_v2": [{"volume_id": bootable_volume().id}],
                    "flavor": flavors[0].id,
                    "key_name": "no-such-key",
                    "networks": [{"network": network[0].id}],
                },
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("no-key"), template=template)

    assert refused.value.error["error"]["message"] == (
        "Property error: : resources.server.properties.key_name: : Error validating value "
        "'no-such-key': The Key (no-such-key) could not be found."
    )


def test_the_snapshot_deletion_policy_is_accepted(heat: Any, flavors: tuple[Any, Any]) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "server": {
                "type": "OS::Nova::Server",
                "deletion_policy": "Snapshot",
                "properties": {"flavor": flavors[0].id, "image": "any"},
            }
        },
    }
    validated = heat.stacks.validate(template=template)

    assert validated["Parameters"] == {}
