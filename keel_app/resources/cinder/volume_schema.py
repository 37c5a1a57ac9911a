"""The schemata of OS::Cinder::Volume: its properties and attributes, as Heat's."""

from __future__ import annotations

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.cinder.base import VolumeDeletion


class CinderVolumeSchema(VolumeDeletion):
    """What a Cinder volume's template may say of it and read back from it."""

    PROPERTIES = (
        AVAILABILITY_ZONE, SIZE, SNAPSHOT_ID, BACKUP_ID, NAME, DESCRIPTION, VOLUME_TYPE,
        METADATA, IMAGE_REF, IMAGE, SOURCE_VOLID, CINDER_SCHEDULER_HINTS, READ_ONLY,
        MULTI_ATTACH,
    ) = (
        "availability_zone", "size", "snapshot_id", "backup_id", "name", "description",
        "volume_type", "metadata", "imageRef", "image", "source_volid", "scheduler_hints",
        "read_only", "multiattach",
    )  # fmt: skip

    ATTRIBUTES = (
        AVAILABILITY_ZONE_ATTR, SIZE_ATTR, SNAPSHOT_ID_ATTR, DISPLAY_NAME_ATTR,
        DISPLAY_DESCRIPTION_ATTR, VOLUME_TYPE_ATTR, METADATA_ATTR, SOURCE_VOLID_ATTR, STATUS,
        CREATED_AT, BOOTABLE, METADATA_VALUES_ATTR, ENCRYPTED_ATTR, ATTACHMENTS,
        ATTACHMENTS_LIST, MULTI_ATTACH_ATTR,
    ) = (
        "availability_zone", "size", "snapshot_id", "display_name", "display_description",
        "volume_type", "metadata", "source_volid", "status", "created_at", "bootable",
        "metadata_values", "encrypted", "attachments", "attachments_list", "multiattach",
    )  # fmt: skip

    properties_schema = {
        AVAILABILITY_ZONE: Schema(
            Schema.STRING, "The availability zone in which the volume will be created."
        ),
        SIZE: Schema(
            Schema.INTEGER,
            "The size of the volume in GB. On update only increase in size is supported. "
            "This property is required unless property backup_id or source_volid or "
            "snapshot_id is specified.",
            update_allowed=True,
            constraints=[constraints.Range(min=1)],
        ),
        SNAPSHOT_ID: Schema(
            Schema.STRING,
            "If specified, the snapshot to create the volume from.",
            constraints=[constraints.CustomConstraint("cinder.snapshot")],
        ),
        BACKUP_ID: Schema(
            Schema.STRING,
            "If specified, the backup to create the volume from.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("cinder.backup")],
        ),
        NAME: Schema(Schema.STRING, "A name used to distinguish the volume.", update_allowed=True),
        DESCRIPTION: Schema(Schema.STRING, "A description of the volume.", update_allowed=True),
        VOLUME_TYPE: Schema(
            Schema.STRING,
            "If specified, the type of volume to use, mapping to a specific backend.",
            constraints=[constraints.CustomConstraint("cinder.vtype")],
            update_allowed=True,
        ),
        METADATA: Schema(
            Schema.MAP,
            "Key/value pairs to associate with the volume.",
            update_allowed=True,
            default={},
        ),
        IMAGE_REF: Schema(
            Schema.STRING,
            "The ID of the image to create the volume from.",
            support_status=SupportStatus(
                status="HIDDEN",
                message="Use property image.",
                version="5.0.0",
                previous_status=SupportStatus(status="DEPRECATED", version="2014.1"),
            ),
        ),
        IMAGE: Schema(
            Schema.STRING,
            "If specified, the name or ID of the image to create the volume from.",
            constraints=[constraints.CustomConstraint("glance.image")],
        ),
        SOURCE_VOLID: Schema(
            Schema.STRING,
            "If specified, the volume to use as source.",
            constraints=[constraints.CustomConstraint("cinder.volume")],
        ),
        CINDER_SCHEDULER_HINTS: Schema(
            Schema.MAP,
            "Arbitrary key-value pairs specified by the client to help the Cinder "
            "scheduler creating a volume.",
            support_status=SupportStatus(version="2015.1"),
        ),
        READ_ONLY: Schema(
            Schema.BOOLEAN,
            "Enables or disables read-only access mode of volume.",
            support_status=SupportStatus(version="5.0.0"),
            update_allowed=True,
        ),
        MULTI_ATTACH: Schema(
            Schema.BOOLEAN,
            "Whether allow the volume to be attached more than once.",
            default=False,
            support_status=SupportStatus(
                status="HIDDEN",
                version="13.0.0",
                previous_status=SupportStatus(status="SUPPORTED", version="6.0.0"),
            ),
        ),
    }

    attributes_schema = {
        AVAILABILITY_ZONE_ATTR: AttributeSchema(
            "The availability zone in which the volume is located.",
            type=AttributeSchema.STRING,
        ),
        SIZE_ATTR: AttributeSchema("The size of the volume in GB.", type=AttributeSchema.STRING),
        SNAPSHOT_ID_ATTR: AttributeSchema(
            "The snapshot the volume was created from, if any.", type=AttributeSchema.STRING
        ),
        DISPLAY_NAME_ATTR: AttributeSchema("Name of the volume.", type=AttributeSchema.STRING),
        DISPLAY_DESCRIPTION_ATTR: AttributeSchema(
            "Description of the volume.", type=AttributeSchema.STRING
        ),
        VOLUME_TYPE_ATTR: AttributeSchema(
            "The type of the volume mapping to a backend, if any.",
            type=AttributeSchema.STRING,
        ),
        METADATA_ATTR: AttributeSchema(
            "Key/value pairs associated with the volume.", type=AttributeSchema.STRING
        ),
        SOURCE_VOLID_ATTR: AttributeSchema(
            "The volume used as source, if any.", type=AttributeSchema.STRING
        ),
        STATUS: AttributeSchema(
            "The current status of the volume.",
            type=AttributeSchema.STRING,
            cache_mode=AttributeSchema.CACHE_NONE,
        ),
        CREATED_AT: AttributeSchema(
            "The timestamp indicating volume creation.", type=AttributeSchema.STRING
        ),
        BOOTABLE: AttributeSchema(
            "Boolean indicating if the volume can be booted or not.",
            type=AttributeSchema.STRING,
        ),
        METADATA_VALUES_ATTR: AttributeSchema(
            "Key/value pairs associated with the volume in raw dict form.",
            type=AttributeSchema.MAP,
        ),
        ENCRYPTED_ATTR: AttributeSchema(
            "Boolean indicating if the volume is encrypted or not.",
            type=AttributeSchema.STRING,
        ),
        ATTACHMENTS: AttributeSchema(
            "A string representation of the list of attachments of the volume.",
            type=AttributeSchema.STRING,
            cache_mode=AttributeSchema.CACHE_NONE,
            support_status=SupportStatus(
                status="DEPRECATED",
                message="Use property attachments_list.",
                version="9.0.0",
                previous_status=SupportStatus(status="SUPPORTED", version="2015.1"),
            ),
        ),
        ATTACHMENTS_LIST: AttributeSchema(
            "The list of attachments of the volume.",
            type=AttributeSchema.LIST,
            cache_mode=AttributeSchema.CACHE_NONE,
            support_status=SupportStatus(version="9.0.0"),
        ),
        MULTI_ATTACH_ATTR: AttributeSchema(
            "Boolean indicating whether allow the volume to be attached more than once.",
            type=AttributeSchema.BOOLEAN,
            support_status=SupportStatus(version="6.0.0"),
        ),
    }
