"""AWS::EC2::Instance's properties and attributes, as Heat 27 declares them (names, types,
defaults, constraints, descriptions and what is not implemented are API-visible facts)."""

from __future__ import annotations

from keel_app.engine import constraints
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema

NOT_IMPLEMENTED = "Not Implemented."

# The keys of a Tags item and of a NovaSchedulerHints item.
KEY, VALUE = "Key", "Value"
# The keys of a Volumes item.
VOLUME_KEYS = (VOLUME_DEVICE, VOLUME_ID) = ("Device", "VolumeId")
# The keys of a BlockDeviceMappings item and of its Ebs map.
MAPPING_KEYS = (DEVICE_NAME, EBS, NO_DEVICE, VIRTUAL_NAME) = (
    "DeviceName",
    "Ebs",
    "NoDevice",
    "VirtualName",
)
EBS_KEYS = (DELETE_ON_TERMINATION, IOPS, SNAPSHOT_ID, VOLUME_SIZE, VOLUME_TYPE) = (
    "DeleteOnTermination",
    "Iops",
    "SnapshotId",
    "VolumeSize",
    "VolumeType",
)


def not_implemented(kind: str, **extra: object) -> Schema:
    return Schema(kind, NOT_IMPLEMENTED, implemented=False, **extra)  # type: ignore[arg-type]


def key_value_list(description: str, update_allowed: bool = False) -> Schema:
    """A list of Key/Value maps, both required strings (Tags, NovaSchedulerHints)."""
    return Schema(
        Schema.LIST,
        description,
        schema=Schema(
            Schema.MAP,
            schema={
                KEY: Schema(Schema.STRING, required=True),
                VALUE: Schema(Schema.STRING, required=True),
            },
        ),
        update_allowed=update_allowed,
    )


# Also an AWS::AutoScaling::LaunchConfiguration property: its members are instances.
BLOCK_DEVICE_MAPPINGS = Schema(
    Schema.LIST,
    "Block device mappings to attach to instance.",
    schema=Schema(
        Schema.MAP,
        schema={
            DEVICE_NAME: Schema(
                Schema.STRING,
                "A device name where the volume will be attached in the system at "
                "/dev/device_name.e.g. vdb",
                required=True,
            ),
            EBS: Schema(
                Schema.MAP,
                "The ebs volume to attach to the instance.",
                schema={
                    DELETE_ON_TERMINATION: Schema(
                        Schema.BOOLEAN,
                        "Indicate whether the volume should be deleted when the "
                        "instance is terminated.",
                        default=True,
                    ),
                    IOPS: Schema(
                        Schema.NUMBER,
                        "The number of I/O operations per second that the volume supports.",
                        implemented=False,
                    ),
                    SNAPSHOT_ID: Schema(
                        Schema.STRING,
                        "The ID of the snapshot to create a volume from.",
                        constraints=[constraints.CustomConstraint("cinder.snapshot")],
                    ),
                    VOLUME_SIZE: Schema(
                        Schema.STRING,
                        "The size of the volume, in GB. Must be equal or greater than "
                        "the size of the snapshot. It is safe to leave this blank and "
                        "have the Compute service infer the size.",
                    ),
                    VOLUME_TYPE: Schema(Schema.STRING, "The volume type.", implemented=False),
                },
            ),
            NO_DEVICE: Schema(
                Schema.MAP,
                "The can be used to unmap a defined device.",
                implemented=False,
            ),
            VIRTUAL_NAME: Schema(
                Schema.STRING,
                "The name of the virtual device. The name must be in the form "
                "ephemeralX where X is a number starting from zero (0); for example, "
                "ephemeral0.",
                implemented=False,
            ),
        },
    ),
)


PROPERTIES_SCHEMA = {
    "ImageId": Schema(
        Schema.STRING,
        "Glance image ID or name.",
        constraints=[constraints.CustomConstraint("glance.image")],
        required=True,
    ),
    # Not required in AWS; Nova cannot boot without a flavor.
    "InstanceType": Schema(
        Schema.STRING,
        "Nova instance type (flavor).",
        required=True,
        update_allowed=True,
        constraints=[constraints.CustomConstraint("nova.flavor")],
    ),
    "KeyName": Schema(
        Schema.STRING,
        "Optional Nova keypair name.",
        constraints=[constraints.CustomConstraint("nova.keypair")],
    ),
    "AvailabilityZone": Schema(Schema.STRING, "Availability zone to launch the instance in."),
    "DisableApiTermination": not_implemented(Schema.STRING),
    "KernelId": not_implemented(Schema.STRING),
    "Monitoring": not_implemented(Schema.BOOLEAN),
    "PlacementGroupName": not_implemented(Schema.STRING),
    "PrivateIpAddress": not_implemented(Schema.STRING),
    "RamDiskId": not_implemented(Schema.STRING),
    "SecurityGroups": Schema(Schema.LIST, "Security group names to assign."),
    "SecurityGroupIds": Schema(Schema.LIST, "Security group IDs to assign."),
    "NetworkInterfaces": Schema(
        Schema.LIST, "Network interfaces to associate with instance.", update_allowed=True
    ),
    "SourceDestCheck": not_implemented(Schema.BOOLEAN),
    "SubnetId": Schema(Schema.STRING, "Subnet ID to launch instance in.", update_allowed=True),
    "Tags": key_value_list("Tags to attach to instance.", update_allowed=True),
    "NovaSchedulerHints": key_value_list("Scheduler hints to pass to Nova (Heat extension)."),
    "Tenancy": not_implemented(
        Schema.STRING, constraints=[constraints.AllowedValues(["dedicated", "default"])]
    ),
    "UserData": Schema(Schema.STRING, "User data to pass to instance."),
    "Volumes": Schema(
        Schema.LIST,
        "Volumes to attach to instance.",
        default=[],
        schema=Schema(
            Schema.MAP,
            schema={
                VOLUME_DEVICE: Schema(
                    Schema.STRING,
                    "The device where the volume is exposed on the instance. This "
                    "assignment may not be honored and it is advised that the path "
                    "/dev/disk/by-id/virtio-<VolumeId> be used instead.",
                    required=True,
                ),
                VOLUME_ID: Schema(
                    Schema.STRING,
                    "The ID of the volume to be attached.",
                    required=True,
                    constraints=[constraints.CustomConstraint("cinder.volume")],
                ),
            },
        ),
    ),
    "BlockDeviceMappings": BLOCK_DEVICE_MAPPINGS,
}

ATTRIBUTES_SCHEMA = {
    "AvailabilityZone": AttributeSchema(
        "The Availability Zone where the specified instance is launched.",
        type=AttributeSchema.STRING,
    ),
    "PrivateDnsName": AttributeSchema(
        "Private DNS name of the specified instance.", type=AttributeSchema.STRING
    ),
    "PublicDnsName": AttributeSchema(
        "Public DNS name of the specified instance.", type=AttributeSchema.STRING
    ),
    "PrivateIp": AttributeSchema(
        "Private IP address of the specified instance.", type=AttributeSchema.STRING
    ),
    "PublicIp": AttributeSchema(
        "Public IP address of the specified instance.", type=AttributeSchema.STRING
    ),
}
