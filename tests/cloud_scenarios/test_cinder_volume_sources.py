"""OS::Cinder::Volume made from what the other services hold, against the test cloud's
Cinder (volumes as files, tests/cloud_volume_driver.py) and cinder-backup: from a Glance
image (bootable, with the image's metadata and its bytes), as the root disk of a server
in the same stack, and from the backup Heat makes when a volume with the ``Snapshot``
deletion policy is deleted. A volume's bytes are read back through Glance (Cinder's
upload-to-image), so each check of content goes through the cloud as a user would."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest

from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)

WAIT = 180
# Not a multiple of any block size: a copy that pads or cuts shows.
IMAGE_BYTES = os.urandom(3 * 1024 * 1024 + 17)


@pytest.fixture(scope="module")
def image(member: openstack.connection.Connection) -> Iterator[Any]:
    """A raw image of alice's, holding IMAGE_BYTES."""
    made = member.image.create_image(
        name=unique("volume-source"),
        data=IMAGE_BYTES,
        disk_format="raw",
        container_format="bare",
    )
    made = member.image.wait_for_status(made, status="active", failures=["killed"], wait=WAIT)
    yield made
    member.image.delete_image(made, ignore_missing=True)


@pytest.fixture(scope="module")
def boot_setup(
    admin: openstack.connection.Connection, member: openstack.connection.Connection
) -> Iterator[tuple[Any, Any]]:
    """A flavor and a network of alice's for a server booted from a volume."""
    flavor = admin.compute.create_flavor(name=unique("volboot-flavor"), ram=64, vcpus=1, disk=1)
    network = member.network.create_network(name=unique("volboot-net"))
    subnet = member.network.create_subnet(
        network_id=network.id, ip_version=4, cidr="10.78.0.0/24", name=unique("volboot-subnet")
    )
    yield flavor, network
    for port in member.network.ports(network_id=network.id):
        member.network.delete_port(port, ignore_missing=True)
    member.network.delete_subnet(subnet, ignore_missing=True)
    member.network.delete_network(network, ignore_missing=True)
    admin.compute.delete_flavor(flavor, ignore_missing=True)


def volume_bytes(member: openstack.connection.Connection, volume_id: str) -> bytes:
    """What the volume holds, uploaded to a raw image and downloaded (the image is
    deleted after)."""
    uploaded = member.block_storage.upload_volume_to_image(
        volume_id, unique("readback"), disk_format="raw", container_format="bare"
    )
    image = member.image.get_image(uploaded["image_id"])
    try:
        image = member.image.wait_for_status(image, status="active", failures=["killed"], wait=WAIT)
        member.block_storage.wait_for_status(
            member.block_storage.get_volume(volume_id), "available", wait=WAIT
        )
        return bytes(member.image.download_image(image).content)
    finally:
        member.image.delete_image(image, ignore_missing=True)


def new_backups(member: openstack.connection.Connection, volume_id: str) -> list[Any]:
    return [backup for backup in member.block_storage.backups() if backup.volume_id == volume_id]


def test_a_volume_made_from_an_image_is_bootable_and_holds_the_images_bytes(
    heat: Any, member: openstack.connection.Connection, image: Any, stacks_left_behind: None
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "root": {
                "type": "OS::Cinder::Volume",
                "properties": {"size": 1, "image": image.name},
            }
        },
        "outputs": {
            "bootable": {"value": {"get_attr": ["root", "bootable"]}},
            "size": {"value": {"get_attr": ["root", "size"]}},
        },
    }
    stack_id = heat.stacks.create(stack_name=unique("vol-image"), template=template)["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert outputs(stack) == {"bootable": "true", "size": "1"}

    volume = member.block_storage.get_volume(physical_ids(heat, stack_id)["root"])
    assert (volume.is_bootable, volume.status, volume.size) == (True, "available", 1)
    metadata = volume.volume_image_metadata
    assert {key: metadata.get(key) for key in ("image_id", "image_name", "size")} == {
        "image_id": image.id,
        "image_name": image.name,
        "size": str(len(IMAGE_BYTES)),
    }
    assert (metadata["disk_format"], metadata["container_format"]) == ("raw", "bare")
    assert volume_bytes(member, volume.id) == IMAGE_BYTES

    delete_stack(heat, stack_id)
    assert [found.id for found in member.block_storage.volumes() if found.id == volume.id] == []


def test_a_server_boots_from_a_volume_made_from_an_image_in_its_stack(
    heat: Any,
    member: openstack.connection.Connection,
    image: Any,
    boot_setup: tuple[Any, Any],
    stacks_left_behind: None,
) -> None:
    flavor, network = boot_setup
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "root": {
                "type": "OS::Cinder::Volume",
                "properties": {"size": 1, "image": image.id},
            },
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "flavor": flavor.name,
                    "networks": [{"network": network.id}],
                    "block_device_mapping_v2": [
                        {"volume_id": {"get_resource": "root"}, "boot_index": 0}
                    ],
                },
            },
        },
    }
    stack_id = heat.stacks.create(stack_name=unique("vol-boot"), template=template)["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    server = member.compute.get_server(ids["server"])
    # Booted from a volume: Nova names no image.
    assert (server.status, server.image.get("id")) == ("ACTIVE", None)
    assert [attached["id"] for attached in server.attached_volumes] == [ids["root"]]
    volume = member.block_storage.get_volume(ids["root"])
    assert (volume.status, volume.is_bootable) == ("in-use", True)
    assert [attachment["server_id"] for attachment in volume.attachments] == [server.id]
    assert volume.volume_image_metadata["image_id"] == image.id

    # The server goes first; its root volume, detached, goes after it.
    delete_stack(heat, stack_id)
    assert [found.id for found in member.block_storage.volumes() if found.id == volume.id] == []


def test_a_volumes_backup_made_on_delete_restores_to_a_volume_with_its_bytes(
    heat: Any, member: openstack.connection.Connection, image: Any, stacks_left_behind: None
) -> None:
    kept = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "kept": {
                "type": "OS::Cinder::Volume",
                "deletion_policy": "Snapshot",
                "properties": {"size": 1, "image": image.id},
            }
        },
    }
    stack_id = heat.stacks.create(stack_name=unique("vol-kept"), template=kept)["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    volume_id = physical_ids(heat, stack_id)["kept"]

    # Heat backs the volume up, waits for the backup, then deletes the volume.
    delete_stack(heat, stack_id)
    assert [found.id for found in member.block_storage.volumes() if found.id == volume_id] == []
    backups = new_backups(member, volume_id)
    assert [(backup.status, backup.size, backup.is_incremental) for backup in backups] == [
        ("available", 1, False)
    ]
    backup = backups[0]
    try:
        restored = {
            "heat_template_version": "2018-08-31",
            "resources": {
                "restored": {
                    "type": "OS::Cinder::Volume",
                    "properties": {"backup_id": backup.id, "name": unique("restored")},
                }
            },
            "outputs": {"size": {"value": {"get_attr": ["restored", "size"]}}},
        }
        stack_id = heat.stacks.create(stack_name=unique("vol-restore"), template=restored)["stack"][
            "id"
        ]
        stack = wait_for_stack(heat, stack_id, "CREATE")
        assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
        assert outputs(stack) == {"size": "1"}
        volume = member.block_storage.get_volume(physical_ids(heat, stack_id)["restored"])
        assert (volume.name, volume.status, volume.size) == (
            restored["resources"]["restored"]["properties"]["name"],
            "available",
            1,
        )
        assert volume_bytes(member, volume.id) == IMAGE_BYTES
        delete_stack(heat, stack_id)
        # A restore leaves its backup as it was.
        assert member.block_storage.get_backup(backup.id).status == "available"
    finally:
        member.block_storage.wait_for_status(
            member.block_storage.get_backup(backup.id), "available", wait=WAIT
        )
        member.block_storage.delete_backup(backup)
        member.block_storage.wait_for_delete(backup, wait=WAIT)
