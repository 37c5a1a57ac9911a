"""AWS::EC2::Instance: a Nova server booted as Heat's AWS-compatible instance.

Booted with one request as Heat has novaclient build it: the image and flavor found by
name or id, the user data wrapped for heat-cfntools (HEAT_CFNTOOLS, user ``ec2-user``)
with the resource's metadata, the tags as server metadata, the scheduler hints, the
security groups, the legacy block device mappings of BlockDeviceMappings, and the
interfaces of ``ec2_instance_networks``. Complete once Nova reports it ACTIVE and each
of its Volumes is attached (one at a time, through Nova, until Cinder has it in use).

Its tags (the server's metadata), instance type (a resize, then its confirmation) and
interfaces change in place; its metadata is replaced. Deleting waits until Nova has
forgotten the server (Nova detaches its volumes on the way), then deletes the port made
for SubnetId.
"""

from __future__ import annotations

import base64
from typing import Any

from keel_app.common import exception
from keel_app.engine.resource import Resource
from keel_app.resources.aws import ec2_instance_schema as schema
from keel_app.resources.aws.ec2_instance_networks import InstanceNetworks
from keel_app.resources.cinder import server_volumes
from keel_app.resources.nova import server_user_data
from keel_app.resources.nova.server import server_name_limit
from keel_app.resources.nova.server_steps import ServerSteps, step
from keel_app.resources.nova.server_suspension import ServerSuspension
from keel_app.resources.nova.server_validation import NETWORK_STRING_MICROVERSION
from keel_app.resources.scheduler_hints import with_stack_hints

# The user Heat has cloud-init make on every instance.
INSTANCE_USER = "ec2-user"


class Instance(ServerSuspension, ServerSteps, InstanceNetworks, Resource):
    default_client_name = "nova"

    @property
    def physical_resource_name_limit(self) -> int:  # type: ignore[override]
        return server_name_limit(self)

    server_noun = "instance"
    active_name = "Instance"

    PROPERTIES = (
        IMAGE_ID,
        INSTANCE_TYPE,
        KEY_NAME,
        AVAILABILITY_ZONE,
        DISABLE_API_TERMINATION,
        KERNEL_ID,
        MONITORING,
        PLACEMENT_GROUP_NAME,
        PRIVATE_IP_ADDRESS,
        RAM_DISK_ID,
        SECURITY_GROUPS,
        SECURITY_GROUP_IDS,
        NETWORK_INTERFACES,
        SOURCE_DEST_CHECK,
        SUBNET_ID,
        TAGS,
        NOVA_SCHEDULER_HINTS,
        TENANCY,
        USER_DATA,
        VOLUMES,
        BLOCK_DEVICE_MAPPINGS,
    ) = (
        "ImageId",
        "InstanceType",
        "KeyName",
        "AvailabilityZone",
        "DisableApiTermination",
        "KernelId",
        "Monitoring",
        "PlacementGroupName",
        "PrivateIpAddress",
        "RamDiskId",
        "SecurityGroups",
        "SecurityGroupIds",
        "NetworkInterfaces",
        "SourceDestCheck",
        "SubnetId",
        "Tags",
        "NovaSchedulerHints",
        "Tenancy",
        "UserData",
        "Volumes",
        "BlockDeviceMappings",
    )
    ATTRIBUTES = (
        AVAILABILITY_ZONE_ATTR,
        PRIVATE_DNS_NAME,
        PUBLIC_DNS_NAME,
        PRIVATE_IP,
        PUBLIC_IP,
    ) = ("AvailabilityZone", "PrivateDnsName", "PublicDnsName", "PrivateIp", "PublicIp")

    properties_schema = schema.PROPERTIES_SCHEMA
    attributes_schema = schema.ATTRIBUTES_SCHEMA
    assert set(PROPERTIES) == set(properties_schema) and set(ATTRIBUTES) == set(attributes_schema)

    def nova(self) -> Any:
        return self.client_plugin()

    def neutron(self) -> Any:
        return self.client_plugin("neutron")

    # Validation

    def validate(self) -> Any:
        result = super().validate()
        if result:
            return result
        if self.security_groups() and self.properties[self.NETWORK_INTERFACES]:
            raise exception.ResourcePropertyConflict(
                f"{self.SECURITY_GROUPS}/{self.SECURITY_GROUP_IDS}", self.NETWORK_INTERFACES
            )
        for mapping in self.properties[self.BLOCK_DEVICE_MAPPINGS] or []:
            ebs = mapping.get(schema.EBS)
            if not ebs:
                raise exception.StackValidationFailed(
                    message="Ebs is missing, this is required when specifying BlockDeviceMappings."
                )
            if not ebs.get(schema.SNAPSHOT_ID):
                raise exception.StackValidationFailed(
                    message="SnapshotId is missing, this is required when specifying "
                    "BlockDeviceMappings."
                )
        # SubnetId beside NetworkInterfaces is ignored (Heat only logs it).
        return None

    # Creating

    def nova_metadata(self, tags: list[dict[str, str]] | None) -> dict[str, str] | None:
        if tags is None:
            return None
        return {tag[schema.KEY]: tag[schema.VALUE] for tag in tags}

    def scheduler_hints(self) -> dict[str, Any] | None:
        """NovaSchedulerHints as a map; a key given more than once maps to a list."""
        hints: dict[str, Any] = {}
        for hint in self.properties[self.NOVA_SCHEDULER_HINTS] or []:
            key, value = hint[schema.KEY], hint[schema.VALUE]
            if key not in hints:
                hints[key] = value
            elif isinstance(hints[key], str):
                hints[key] = [hints[key], value]
            else:
                hints[key].append(value)
        return hints or None

    def legacy_block_devices(self) -> list[dict[str, str]]:
        """BlockDeviceMappings as novaclient makes legacy mappings of Heat's
        ``<snapshot>:snap:<size>:<delete>`` strings."""
        devices = []
        for mapping in self.properties[self.BLOCK_DEVICE_MAPPINGS] or []:
            ebs = mapping.get(schema.EBS)
            if not ebs:
                continue
            device = {"device_name": mapping[schema.DEVICE_NAME]}
            if ebs.get(schema.SNAPSHOT_ID):
                device["snapshot_id"] = ebs[schema.SNAPSHOT_ID]
            if ebs.get(schema.VOLUME_SIZE):
                device["volume_size"] = str(int(ebs[schema.VOLUME_SIZE]))
            if ebs.get(schema.DELETE_ON_TERMINATION) is not None:
                device["delete_on_termination"] = str(ebs[schema.DELETE_ON_TERMINATION])
            devices.append(device)
        return devices

    def user_data(self) -> str | None:
        heat = self.context.clients.client_plugin("heat")
        return server_user_data.build_user_data(
            self.metadata_get(),
            self.properties[self.USER_DATA] or "",
            "HEAT_CFNTOOLS",
            cfn_metadata_url=heat.get_cfn_metadata_server_url(),
            instance_user=INSTANCE_USER,
        )

    def boot_request(self, nics: list[dict[str, str]] | None) -> dict[str, Any]:
        properties = self.properties
        nova = self.nova()
        server: dict[str, Any] = {
            "name": self.physical_resource_name(),
            "imageRef": self.client_plugin("glance").find_image_by_name_or_id(
                properties[self.IMAGE_ID]
            ),
            "flavorRef": nova.find_flavor_by_name_or_id(properties[self.INSTANCE_TYPE]),
            "min_count": 1,
            "max_count": 1,
        }
        user_data = self.user_data()
        if user_data:
            server["user_data"] = base64.b64encode(user_data.encode()).decode()
        metadata = self.nova_metadata(properties[self.TAGS])
        if metadata:
            server["metadata"] = metadata
        if properties[self.KEY_NAME]:
            server["key_name"] = properties[self.KEY_NAME]
        security_groups = self.security_groups()
        if security_groups:
            server["security_groups"] = [{"name": group} for group in security_groups]
        if properties[self.AVAILABILITY_ZONE]:
            server["availability_zone"] = properties[self.AVAILABILITY_ZONE]
        devices = self.legacy_block_devices()
        if devices:
            server["block_device_mapping"] = devices
        if nics:
            server["networks"] = [{"port": nic["port-id"]} for nic in nics]
        elif nova.is_version_supported(NETWORK_STRING_MICROVERSION):
            # novaclient's own refusal at Heat's microversion.
            raise ValueError("nics are required after microversion 2.36")
        body: dict[str, Any] = {"server": server}
        hints = with_stack_hints(self, self.scheduler_hints())
        if hints:
            body["os:scheduler_hints"] = hints
        return body

    def handle_create(self) -> dict[str, Any]:
        nics = self.build_nics(
            self.properties[self.NETWORK_INTERFACES],
            security_groups=self.security_groups(),
            subnet_id=self.properties[self.SUBNET_ID],
        )
        answer = self.nova().request("POST", "servers", self.boot_request(nics))
        server_id = str(answer["server"]["id"])
        self.resource_id_set(server_id)
        attachments = [
            {
                "volume_id": volume[schema.VOLUME_ID],
                "device": volume[schema.VOLUME_DEVICE],
                "called": False,
                "complete": False,
            }
            for volume in self.properties[self.VOLUMES]
        ]
        return {"server_id": server_id, "active": False, "attachments": attachments}

    def check_create_complete(self, progress: dict[str, Any]) -> bool:
        if not progress["active"]:
            progress["active"] = self.nova().check_active(progress["server_id"], "Instance")
            # Once active, the volumes are attached from the next poll on.
            return bool(progress["active"]) and not progress["attachments"]
        return self.attach_volumes(progress["server_id"], progress["attachments"])

    def attach_volumes(self, server_id: str, attachments: list[dict[str, Any]]) -> bool:
        """Ask for one attachment a poll, then follow them one at a time."""
        for attachment in attachments:
            if not attachment["called"]:
                attachment["called"] = bool(
                    server_volumes.attach_volume(
                        self.nova(), server_id, attachment["volume_id"], attachment["device"]
                    )
                )
                return False
        for attachment in attachments:
            if not attachment["complete"]:
                attachment["complete"] = self.client_plugin("cinder").check_attach_volume_complete(
                    attachment["volume_id"]
                )
                break
        return all(attachment["complete"] for attachment in attachments)

    # Reading it back

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == self.AVAILABILITY_ZONE_ATTR:
            value = self.availability_zone()
        else:
            value = self.nova().server_to_ipaddress(self.resource_id) or "0.0.0.0"
        return str(value) if value else None

    def availability_zone(self) -> str | None:
        # Heat reads no server when the property is set, and then fails on a variable
        # it never assigned; the zone Nova put the server in is what is meant.
        try:
            server = self.nova().get_server(self.resource_id)
        except exception.EntityNotFound:
            return None
        return server.get("OS-EXT-AZ:availability_zone")

    def handle_check(self) -> None:
        nova = self.nova()
        server = nova.get_server(self.resource_id)
        if not nova.check_active(server, "Instance"):
            raise exception.Error(f"Instance is not ACTIVE (was: {server['status'].strip()})")

    def metadata_update(self, new_metadata: Any = None) -> None:
        # Asked to refresh (no new metadata): the template's metadata again.
        if new_metadata is None:
            self.metadata_set(self.t.metadata())

    # Updating

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> list[Any]:
        if tmpl_diff.metadata_changed():
            self.metadata_set(json_snippet.metadata())
        nova = self.nova()
        if self.TAGS in prop_diff:
            # Heat fails on tags taken out altogether; the metadata is emptied here.
            metadata = self.nova_metadata(prop_diff[self.TAGS]) or {}
            nova.meta_update(nova.get_server(self.resource_id), metadata)
        steps: list[dict[str, Any]] = []
        if self.INSTANCE_TYPE in prop_diff:
            flavor_id = nova.find_flavor_by_name_or_id(prop_diff[self.INSTANCE_TYPE])
            steps.append(step("resize", flavor_id))
            steps.append(step("verify_resize"))
        if self.NETWORK_INTERFACES in prop_diff or self.SUBNET_ID in prop_diff:
            steps.extend(self.network_interface_steps(prop_diff))
        return steps

    def check_update_complete(self, steps: list[dict[str, Any]] | None) -> bool:
        return self.advance_steps(steps or [])

    # Deleting

    def handle_delete(self) -> str | None:  # type: ignore[override]
        if self.resource_id is None:
            self.delete_own_port()
            return None
        nova = self.nova()
        try:
            nova.request("DELETE", f"servers/{self.resource_id}")
        except Exception as error:
            if not nova.is_not_found(error):
                raise
            self.delete_own_port()
            return None
        return str(self.resource_id)

    def check_delete_complete(self, server_id: str | None) -> bool:
        if server_id and not self.nova().check_delete_server_complete(server_id):
            return False
        # Heat deletes the port first; once the server is gone, Nova has let it go.
        self.delete_own_port()
        return True


RESOURCE_CLASSES = {"AWS::EC2::Instance": Instance}
