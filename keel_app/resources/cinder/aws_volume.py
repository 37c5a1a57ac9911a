"""AWS::EC2::Volume and AWS::EC2::VolumeAttachment: Cinder volumes and their attachments
in CloudFormation's terms. A volume is made of a size (or restored from the backup its
``SnapshotId`` names), tagged with Cinder metadata and named after the stack; nothing of
either changes in place."""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.properties import Schema
from keel_app.resources.cinder.base import VolumeDeletion
from keel_app.resources.cinder.volume_attachment import CinderVolumeAttachment

CREATING = ("creating", "restoring-backup")


class EC2Volume(VolumeDeletion):
    PROPERTIES = (AVAILABILITY_ZONE, SIZE, BACKUP_ID, TAGS) = (
        "AvailabilityZone",
        "Size",
        "SnapshotId",
        "Tags",
    )
    TAG_KEY, TAG_VALUE = "Key", "Value"

    properties_schema = {
        AVAILABILITY_ZONE: Schema(
            Schema.STRING,
            "The availability zone in which the volume will be created.",
            required=True,
            immutable=True,
        ),
        SIZE: Schema(
            Schema.INTEGER,
            "The size of the volume in GB.",
            immutable=True,
            constraints=[constraints.Range(min=1)],
        ),
        BACKUP_ID: Schema(
            Schema.STRING,
            "If specified, the backup used as the source to create the volume.",
            immutable=True,
            constraints=[constraints.CustomConstraint("cinder.backup")],
        ),
        TAGS: Schema(
            Schema.LIST,
            "The list of tags to associate with the volume.",
            immutable=True,
            schema=Schema(
                Schema.MAP,
                schema={
                    TAG_KEY: Schema(Schema.STRING, required=True),
                    TAG_VALUE: Schema(Schema.STRING, required=True),
                },
            ),
        ),
    }

    def _name_and_description(self) -> dict[str, Any]:
        name = self.physical_resource_name()
        return {"name": name, "description": name}

    def handle_create(self) -> str:
        cinder = self.cinder()
        backup_id = self.properties.get(self.BACKUP_ID)
        if backup_id is not None:
            volume_id = str(cinder.restore_backup(backup_id)["volume_id"])
            cinder.update_volume(volume_id, self._name_and_description())
        else:
            tags = self.properties[self.TAGS]
            fields = {
                "size": self.properties[self.SIZE],
                "availability_zone": self.properties[self.AVAILABILITY_ZONE] or None,
                "metadata": {tag[self.TAG_KEY]: tag[self.TAG_VALUE] for tag in tags}
                if tags
                else None,
                **self._name_and_description(),
            }
            volume_id = str(cinder.create_volume(fields)["id"])
        self.resource_id_set(volume_id)
        return volume_id

    def check_create_complete(self, volume_id: str) -> bool:
        status = self.cinder().show_volume(volume_id)["status"]
        if status == "available":
            return True
        if status in CREATING:
            return False
        if status == "error":
            raise exception.ResourceInError(resource_status=status)
        raise exception.ResourceUnknownStatus(resource_status=status, result="Volume create failed")

    def handle_check(self) -> None:
        status = self.cinder().show_volume(self.resource_id)["status"]
        if status not in ("available", "in-use"):
            raise exception.Error(
                message=f"'status': expected '['available', 'in-use']', got '{status}'"
            )


class EC2VolumeAttachment(CinderVolumeAttachment):
    type_description = None  # Heat's class has no docstring of its own

    PROPERTIES = (INSTANCE_ID, VOLUME_ID, DEVICE) = ("InstanceId", "VolumeId", "Device")

    properties_schema = {
        INSTANCE_ID: Schema(
            Schema.STRING,
            "The ID of the instance to which the volume attaches.",
            immutable=True,
            required=True,
            constraints=[constraints.CustomConstraint("nova.server")],
        ),
        VOLUME_ID: Schema(
            Schema.STRING,
            "The ID of the volume to be attached.",
            immutable=True,
            required=True,
            constraints=[constraints.CustomConstraint("cinder.volume")],
        ),
        DEVICE: Schema(
            Schema.STRING,
            "The device where the volume is exposed on the instance. This assignment may "
            "not be honored and it is advised that the path /dev/disk/by-id/virtio-<VolumeId> "
            "be used instead.",
            immutable=True,
            required=True,
            constraints=[constraints.AllowedPattern("/dev/vd[b-z]")],
        ),
    }

    # Nothing changes in place (every property is immutable): no update handler.
    handle_update = None  # type: ignore[assignment]
    check_update_complete = None  # type: ignore[assignment]


RESOURCE_CLASSES = {
    "AWS::EC2::Volume": EC2Volume,
    "AWS::EC2::VolumeAttachment": EC2VolumeAttachment,
}
