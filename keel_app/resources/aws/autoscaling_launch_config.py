"""AWS::AutoScaling::LaunchConfiguration: what an AutoScalingGroup's instances are made of.

The resource makes nothing: a group reads its properties (those the template gives) to
define its AWS::EC2::Instance members, and its metadata becomes theirs. With
``InstanceId`` the image, flavor, key and security groups come from that Nova server
where the template gives none of them; they are worked out at create and stored as the
resource's properties. Any change, metadata included, makes a new configuration.
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import StackValidationFailed
from keel_app.engine import constraints
from keel_app.engine.properties import Schema
from keel_app.engine.resource import Resource
from keel_app.engine.template import function
from keel_app.resources.aws import ec2_instance_schema as instance_schema

# novaclient's default API version, at which a server names its image's and flavor's ids.
SERVER_MICROVERSION = "2.1"


def server_launch_properties(nova: Any, instance_id: str) -> dict[str, Any]:
    """ImageId, InstanceType, KeyName and SecurityGroups of an existing Nova server."""
    nova.get_server(instance_id)  # Heat's EntityNotFound for a server Nova does not know
    server = nova.request("GET", f"servers/{instance_id}", microversion=SERVER_MICROVERSION)
    server = server["server"]
    return {
        "ImageId": server["image"]["id"],
        "InstanceType": server["flavor"]["id"],
        "KeyName": server.get("key_name"),
        "SecurityGroups": [group["name"] for group in server.get("security_groups", [])],
    }


class LaunchConfiguration(Resource):
    PROPERTIES = (
        IMAGE_ID,
        INSTANCE_TYPE,
        KEY_NAME,
        USER_DATA,
        SECURITY_GROUPS,
        KERNEL_ID,
        RAM_DISK_ID,
        BLOCK_DEVICE_MAPPINGS,
        NOVA_SCHEDULER_HINTS,
        INSTANCE_ID,
    ) = (
        "ImageId",
        "InstanceType",
        "KeyName",
        "UserData",
        "SecurityGroups",
        "KernelId",
        "RamDiskId",
        "BlockDeviceMappings",
        "NovaSchedulerHints",
        "InstanceId",
    )
    SCHEDULER_HINT_KEYS = (SCHEDULER_HINT_KEY, SCHEDULER_HINT_VALUE) = ("Key", "Value")
    BLOCK_DEVICE_MAPPING_KEYS = (DEVICE_NAME, EBS, NO_DEVICE, VIRTUAL_NAME) = (
        instance_schema.MAPPING_KEYS
    )
    EBS_KEYS = (DELETE_ON_TERMINATION, IOPS, SNAPSHOT_ID, VOLUME_SIZE, VOLUME_TYPE) = (
        instance_schema.EBS_KEYS
    )

    properties_schema = {
        IMAGE_ID: Schema(
            Schema.STRING,
            "Glance image ID or name.",
            constraints=[constraints.CustomConstraint("glance.image")],
        ),
        INSTANCE_TYPE: Schema(
            Schema.STRING,
            "Nova instance type (flavor).",
            constraints=[constraints.CustomConstraint("nova.flavor")],
        ),
        INSTANCE_ID: Schema(
            Schema.STRING,
            "The ID of an existing instance you want to use to create the launch "
            "configuration. All properties are derived from the instance with the "
            "exception of BlockDeviceMapping.",
            constraints=[constraints.CustomConstraint("nova.server")],
        ),
        KEY_NAME: Schema(
            Schema.STRING,
            "Optional Nova keypair name.",
            constraints=[constraints.CustomConstraint("nova.keypair")],
        ),
        USER_DATA: Schema(Schema.STRING, "User data to pass to instance."),
        SECURITY_GROUPS: Schema(Schema.LIST, "Security group names to assign."),
        KERNEL_ID: Schema(Schema.STRING, "Not Implemented.", implemented=False),
        RAM_DISK_ID: Schema(Schema.STRING, "Not Implemented.", implemented=False),
        BLOCK_DEVICE_MAPPINGS: instance_schema.BLOCK_DEVICE_MAPPINGS,
        NOVA_SCHEDULER_HINTS: Schema(
            Schema.LIST,
            "Scheduler hints to pass to Nova (Heat extension).",
            schema=Schema(
                Schema.MAP,
                schema={
                    SCHEDULER_HINT_KEY: Schema(Schema.STRING, required=True),
                    SCHEDULER_HINT_VALUE: Schema(Schema.STRING, required=True),
                },
            ),
        ),
    }

    def rebuild_lc_properties(self, instance_id: str) -> dict[str, Any]:
        """The template's properties, completed with what the server ``instance_id`` has."""
        found = server_launch_properties(self.client_plugin("nova"), instance_id)
        properties = function.resolve(self.properties.data)
        for key, value in found.items():
            # What the template says wins over the server's.
            properties.setdefault(key, value)
        return dict(properties)

    def handle_create(self) -> Any:
        instance_id = self.properties.get(self.INSTANCE_ID)
        if instance_id:
            definition = self.t.freeze(properties=self.rebuild_lc_properties(instance_id))
            self.properties = definition.properties(self.properties_schema, self.context)
            self._update_stored_properties()
        return None

    def needs_replace_with_tmpl_diff(self, tmpl_diff: Any) -> bool:
        return bool(tmpl_diff.metadata_changed())

    def get_reference_id(self) -> str:
        return self.physical_resource_name() or super().get_reference_id()

    def validate(self) -> Any:
        result = super().validate()
        for mapping in self.properties.get(self.BLOCK_DEVICE_MAPPINGS) or []:
            ebs = mapping.get(self.EBS)
            if not ebs:
                raise StackValidationFailed(
                    message="Ebs is missing, this is required when specifying BlockDeviceMappings."
                )
            if not ebs.get(self.SNAPSHOT_ID):
                raise StackValidationFailed(
                    message="SnapshotId is missing, this is required when specifying "
                    "BlockDeviceMappings."
                )
        if not self.properties.get(self.INSTANCE_ID) and not (
            self.properties.get(self.IMAGE_ID) and self.properties.get(self.INSTANCE_TYPE)
        ):
            raise StackValidationFailed(
                message="If without InstanceId, ImageId and InstanceType are required."
            )
        return result


RESOURCE_CLASSES = {"AWS::AutoScaling::LaunchConfiguration": LaunchConfiguration}
