"""OS::Cinder::Volume against the real Cinder: made with its properties, renamed,
re-tagged and extended in place, made from another volume and from a snapshot, deleted
until Cinder no longer knows it (a failed backup first, with the Snapshot deletion policy,
failing the delete), and Cinder's and Heat's refusals reported as Heat reports them.
Volumes made from images and backups: test_cinder_volume_sources.py."""

from __future__ import annotations

from typing import Any

import openstack.connection
import openstack.exceptions
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)


def volume_template(name: str, size: int, metadata: dict[str, str]) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "data": {
                "type": "OS::Cinder::Volume",
                "properties": {
                    "name": name,
                    "description": "made by a stack",
                    "size": size,
                    "metadata": metadata,
                },
            },
            "copy": {
                "type": "OS::Cinder::Volume",
                "properties": {"source_volid": {"get_resource": "data"}},
            },
        },
        "outputs": {
            "size": {"value": {"get_attr": ["data", "size"]}},
            "name": {"value": {"get_attr": ["data", "display_name"]}},
            "metadata": {"value": {"get_attr": ["data", "metadata_values"]}},
            "status": {"value": {"get_attr": ["data", "status"]}},
            "bootable": {"value": {"get_attr": ["data", "bootable"]}},
            "snapshot_id": {"value": {"get_attr": ["data", "snapshot_id"]}},
            "copy_source": {"value": {"get_attr": ["copy", "source_volid"]}},
        },
    }


def volume_is_gone(member: openstack.connection.Connection, volume_id: str) -> bool:
    try:
        member.block_storage.get_volume(volume_id)
    except openstack.exceptions.NotFoundException:
        return True
    return False


def test_a_volume_is_made_changed_in_place_extended_and_deleted(
    heat: Any, member: openstack.connection.Connection
) -> None:
    name = unique("data")
    template = volume_template(name, 1, {"tier": "gold"})
    stack_id = heat.stacks.create(stack_name=unique("vol-life"), template=template)["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    volume = member.block_storage.get_volume(ids["data"])
    assert (volume.name, volume.description, volume.size, volume.metadata, volume.status) == (
        name,
        "made by a stack",
        1,
        {"tier": "gold"},
        "available",
    )
    copy = member.block_storage.get_volume(ids["copy"])
    assert (copy.source_volume_id, copy.size, copy.description) == (ids["data"], 1, None)
    assert copy.name.startswith("vol-life-") and "-copy-" in copy.name
    assert outputs(stack) == {
        "size": "1",
        "name": name,
        "metadata": {"tier": "gold"},
        "status": "available",
        "bootable": "false",
        "snapshot_id": "None",
        "copy_source": ids["data"],
    }

    renamed = unique("data")
    template = volume_template(renamed, 2, {"tier": "silver", "team": "blue"})
    heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    volume = member.block_storage.get_volume(ids["data"])
    assert (volume.name, volume.size, volume.metadata, volume.status) == (
        renamed,
        2,
        {"tier": "silver", "team": "blue"},
        "available",
    )
    assert outputs(stack)["size"] == "2"

    # Volumes only grow: shrinking is refused as Heat refuses it, and nothing changes.
    heat.stacks.update(stack_id, template=volume_template(renamed, 1, {"tier": "silver"}))
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource UPDATE failed: NotSupported: resources.data: Shrinking volume is not supported."
    )
    assert member.block_storage.get_volume(ids["data"]).size == 2

    delete_stack(heat, stack_id)
    assert volume_is_gone(member, ids["data"])
    assert volume_is_gone(member, ids["copy"])


def test_a_volume_is_made_from_a_snapshot_with_its_size(
    heat: Any, member: openstack.connection.Connection
) -> None:
    source = member.block_storage.create_volume(size=1, name=unique("snap-source"))
    member.block_storage.wait_for_status(source, "available", wait=120)
    snapshot = member.block_storage.create_snapshot(volume_id=source.id, name=unique("snap"))
    member.block_storage.wait_for_status(snapshot, "available", wait=120)
    try:
        template = {
            "heat_template_version": "2018-08-31",
            "resources": {
                "restored": {
                    "type": "OS::Cinder::Volume",
                    "properties": {"snapshot_id": snapshot.id, "read_only": True},
                }
            },
            "outputs": {"snapshot_id": {"value": {"get_attr": ["restored", "snapshot_id"]}}},
        }
        stack_id = heat.stacks.create(stack_name=unique("vol-snap"), template=template)["stack"][
            "id"
        ]
        stack = wait_for_stack(heat, stack_id, "CREATE")
        assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
        volume = member.block_storage.get_volume(physical_ids(heat, stack_id)["restored"])
        assert (volume.snapshot_id, volume.size, volume.metadata.get("readonly")) == (
            snapshot.id,
            1,
            "True",
        )
        assert outputs(stack) == {"snapshot_id": snapshot.id}
        delete_stack(heat, stack_id)
        assert volume_is_gone(member, volume.id)
    finally:
        member.block_storage.delete_snapshot(snapshot)
        member.block_storage.wait_for_delete(snapshot, wait=120)
        member.block_storage.delete_volume(source)


def test_a_failed_backup_fails_the_delete_of_a_volume_with_the_snapshot_policy(
    heat: Any, member: openstack.connection.Connection
) -> None:
    # The test cloud's volume driver refuses to attach a volume with this metadata
    # (tests/cloud_volume_driver.py): cinder-backup cannot read it, and the backup fails.
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "kept": {
                "type": "OS::Cinder::Volume",
                "deletion_policy": "Snapshot",
                "properties": {"size": 1, "metadata": {"keel_test_cloud": "unattachable"}},
            }
        },
    }
    stack_id = heat.stacks.create(stack_name=unique("vol-backup"), template=template)["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    volume_id = physical_ids(heat, stack_id)["kept"]
    backups_before = {backup.id for backup in member.block_storage.backups()}

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack.stack_status == "DELETE_FAILED"
    assert stack.stack_status_reason == (
        "Resource DELETE failed: ResourceUnknownStatus: resources.kept: "
        'Volume backup failed - Unknown status error due to "Unknown"'
    )
    assert member.block_storage.get_volume(volume_id) is not None
    made = [backup for backup in member.block_storage.backups() if backup.id not in backups_before]
    assert [(backup.volume_id, backup.status) for backup in made] == [(volume_id, "error")]
    member.block_storage.delete_backup(made[0])
    member.block_storage.wait_for_delete(made[0], wait=120)

    # With the volume gone there is nothing to back up: the delete goes through.
    volume = member.block_storage.wait_for_status(
        member.block_storage.get_volume(volume_id), "available", wait=120
    )
    # The volume is read before it is deleted: it may be gone by the time it is asked for.
    member.block_storage.delete_volume(volume)
    member.block_storage.wait_for_delete(volume, wait=120)
    delete_stack(heat, stack_id)


def test_cinders_refusal_fails_the_create_with_cinderclients_error(
    heat: Any, member: openstack.connection.Connection
) -> None:
    name = unique("huge")
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "huge": {
                "type": "OS::Cinder::Volume",
                "properties": {"name": name, "size": 1, "availability_zone": "nowhere"},
            }
        },
    }
    stack_id = heat.stacks.create(stack_name=unique("vol-refused"), template=template)["stack"][
        "id"
    ]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    reason = stack.stack_status_reason
    assert reason.startswith(
        "Resource CREATE failed: BadRequest: resources.huge: "
        "Availability zone 'nowhere' is invalid. (HTTP 400) "
        "(Request-ID: req-"
    ), reason
    assert [volume for volume in member.block_storage.volumes() if volume.name == name] == []
    delete_stack(heat, stack_id)


def test_volume_sources_and_types_are_checked_before_anything_is_made(heat: Any) -> None:
    no_size = {
        "heat_template_version": "2018-08-31",
        "resources": {"empty": {"type": "OS::Cinder::Volume", "properties": {}}},
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("vol-nosize"), template=no_size)
    assert refused.value.error["error"]["message"] == (
        'If neither "backup_id" nor "size" is provided, one and only one of "source_volid", '
        '"snapshot_id" must be specified, but currently specified options: [].'
    )

    no_type = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "typed": {
                "type": "OS::Cinder::Volume",
                "properties": {"size": 1, "volume_type": "no-such-type"},
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("vol-notype"), template=no_type)
    assert refused.value.error["error"]["message"] == (
        "Property error: : resources.typed.properties.volume_type: : Error validating value "
        "'no-such-type': The VolumeType (no-such-type) could not be found."
    )


@pytest.mark.parametrize(
    ("source", "refusal"),
    [
        ("snapshot_id", "The VolumeSnapshot (no-such-source) could not be found."),
        ("source_volid", "The Volume (no-such-source) could not be found."),
        ("backup_id", "The Volume backup (no-such-source) could not be found."),
    ],
)
def test_a_source_cinder_does_not_know_is_refused_with_heats_message(
    heat: Any, source: str, refusal: str
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "copy": {"type": "OS::Cinder::Volume", "properties": {source: "no-such-source"}}
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("vol-nosource"), template=template)
    assert refused.value.error["error"]["message"] == (
        f"Property error: : resources.copy.properties.{source}: : Error validating value "
        f"'no-such-source': {refusal}"
    )
