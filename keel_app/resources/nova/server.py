"""OS::Nova::Server: a Nova instance booted from an image or volumes, on networks.

Created with one boot request built as Heat (through novaclient) builds it, and
complete once Nova reports it ACTIVE. Its name, metadata, tags and admin password change
in place; a new flavor resizes it (then confirms the resize) and a new image rebuilds
it, unless the update policies ask for replacement; a new user data replaces it unless
``user_data_update_policy`` says otherwise. Deleting waits until Nova has forgotten it,
then deletes the ports the resource made. The software-deployment transports (the
credentials and metadata a server polls for) are not provided yet, so
``user_data_format: SOFTWARE_CONFIG`` is refused at validation instead of booting a
server that could never receive its deployments.
"""

from __future__ import annotations

import base64
import logging
from typing import Any

from keel_app.common import exception
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import TranslationRule
from keel_app.resources.nova import server_user_data
from keel_app.resources.nova.base import NovaResource
from keel_app.resources.nova.server_networks import EXTERNAL_PORTS, ServerNetworks
from keel_app.resources.nova.server_schema import ATTRIBUTES_SCHEMA, PROPERTIES_SCHEMA
from keel_app.resources.nova.server_snapshots import ServerSnapshots
from keel_app.resources.nova.server_updates import ServerUpdates

LOG = logging.getLogger(__name__)

# The microversions that brought server tags, "auto"/"none" networks, interface tags,
# the end of personality files and the volume type of a mapping.
TAGS_MICROVERSION = "2.26"
NETWORK_STRING_MICROVERSION = "2.37"
NIC_TAGS_MICROVERSION = "2.42"
PERSONALITY_REMOVED_MICROVERSION = "2.57"
VOLUME_TYPE_MICROVERSION = "2.67"

# [DEFAULT] max_server_name_length's default.
MAX_SERVER_NAME_LENGTH = 53


class Server(ServerSnapshots, ServerUpdates, ServerNetworks, NovaResource):
    api_path = "servers"
    api_key = "server"
    entity = "servers"
    physical_resource_name_limit = MAX_SERVER_NAME_LENGTH
    support_status = SupportStatus()
    type_description = """\
A resource for managing Nova instances.

A Server resource manages the running virtual machine instance within an
OpenStack cloud.
"""

    PROPERTIES = (
        NAME,
        IMAGE,
        BLOCK_DEVICE_MAPPING,
        BLOCK_DEVICE_MAPPING_V2,
        FLAVOR,
        FLAVOR_UPDATE_POLICY,
        IMAGE_UPDATE_POLICY,
        KEY_NAME,
        ADMIN_USER,
        AVAILABILITY_ZONE,
        SECURITY_GROUPS,
        NETWORKS,
        SCHEDULER_HINTS,
        METADATA,
        USER_DATA_FORMAT,
        USER_DATA,
        RESERVATION_ID,
        CONFIG_DRIVE,
        DISK_CONFIG,
        PERSONALITY,
        ADMIN_PASS,
        SOFTWARE_CONFIG_TRANSPORT,
        USER_DATA_UPDATE_POLICY,
        TAGS,
        DEPLOYMENT_SWIFT_DATA,
    ) = (
        "name",
        "image",
        "block_device_mapping",
        "block_device_mapping_v2",
        "flavor",
        "flavor_update_policy",
        "image_update_policy",
        "key_name",
        "admin_user",
        "availability_zone",
        "security_groups",
        "networks",
        "scheduler_hints",
        "metadata",
        "user_data_format",
        "user_data",
        "reservation_id",
        "config_drive",
        "diskConfig",
        "personality",
        "admin_pass",
        "software_config_transport",
        "user_data_update_policy",
        "tags",
        "deployment_swift_data",
    )

    ATTRIBUTES = (
        NAME_ATTR,
        ADDRESSES,
        NETWORKS_ATTR,
        FIRST_ADDRESS,
        INSTANCE_NAME,
        ACCESSIPV4,
        ACCESSIPV6,
        CONSOLE_URLS,
        TAGS_ATTR,
        OS_COLLECT_CONFIG,
    ) = (
        "name",
        "addresses",
        "networks",
        "first_address",
        "instance_name",
        "accessIPv4",
        "accessIPv6",
        "console_urls",
        "tags",
        "os_collect_config",
    )

    properties_schema = PROPERTIES_SCHEMA
    attributes_schema = ATTRIBUTES_SCHEMA
    assert set(PROPERTIES) == set(PROPERTIES_SCHEMA) and set(ATTRIBUTES) == set(ATTRIBUTES_SCHEMA)

    # Block device mapping keys
    DEVICE_NAME, VOLUME_ID, SNAPSHOT_ID, IMAGE_ID, BDM_IMAGE = (
        "device_name",
        "volume_id",
        "snapshot_id",
        "image_id",
        "image",
    )
    SWAP_SIZE, EPHEMERAL_SIZE, EPHEMERAL_FORMAT, BOOT_INDEX = (
        "swap_size",
        "ephemeral_size",
        "ephemeral_format",
        "boot_index",
    )
    VOLUME_SIZE, DELETE_ON_TERMINATION = "volume_size", "delete_on_termination"
    # Copied into a v2 mapping as they are, when set.
    BDM_V2_PASSED = (
        "device_type",
        "disk_bus",
        "boot_index",
        "volume_size",
        "delete_on_termination",
        "volume_type",
    )

    RAW, HEAT_CFNTOOLS, SOFTWARE_CONFIG = "RAW", "HEAT_CFNTOOLS", "SOFTWARE_CONFIG"

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        clients = getattr(self.context, "clients", None)
        nova = neutron = glance = None
        if clients is not None:
            nova = clients.client_plugin("nova")
            neutron = clients.client_plugin("neutron")
            glance = clients.client_plugin("glance")
        return [
            TranslationRule(
                properties,
                TranslationRule.REPLACE,
                translation_path=[self.NETWORKS, self.NETWORK_ID],
                value_name=self.NETWORK_UUID,
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                translation_path=[self.FLAVOR],
                client_plugin=nova,
                finder="find_flavor_by_name_or_id",
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                translation_path=[self.IMAGE],
                client_plugin=glance,
                finder="find_image_by_name_or_id",
            ),
            TranslationRule(
                properties,
                TranslationRule.REPLACE,
                translation_path=[self.BLOCK_DEVICE_MAPPING_V2, self.BDM_IMAGE],
                value_name=self.IMAGE_ID,
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                translation_path=[self.BLOCK_DEVICE_MAPPING_V2, self.BDM_IMAGE],
                client_plugin=glance,
                finder="find_image_by_name_or_id",
            ),
            *(
                TranslationRule(
                    properties,
                    TranslationRule.RESOLVE,
                    translation_path=[self.NETWORKS, key],
                    client_plugin=neutron,
                    finder="find_resourceid_by_name_or_id",
                    entity=entity,
                )
                for key, entity in (
                    (self.NETWORK_ID, "network"),
                    (self.NETWORK_SUBNET, "subnet"),
                    (self.NETWORK_PORT, "port"),
                )
            ),
        ]

    # Validation

    def validate(self) -> Any:
        result = super().validate()
        if result:
            return result
        if self.properties[self.USER_DATA_FORMAT] == self.SOFTWARE_CONFIG:
            if "deployments" in (self.t.metadata() or {}):
                raise exception.StackValidationFailed(
                    message="deployments key not allowed in resource metadata with "
                    "user_data_format of SOFTWARE_CONFIG"
                )
            transport = self.properties[self.SOFTWARE_CONFIG_TRANSPORT]
            raise exception.StackValidationFailed(
                message=f'software_config_transport "{transport}" is not available: '
                "OpenKeel does not yet give servers the credentials and metadata that "
                "software deployments reach them with, so user_data_format "
                "SOFTWARE_CONFIG cannot be used."
            )
        self.validate_block_device_mapping()
        if self.properties[self.IMAGE]:
            self.validate_image_flavor(self.properties[self.IMAGE], self.properties[self.FLAVOR])
        self.validate_networks()
        nova = self.nova()
        if self.properties[self.TAGS] and not nova.is_version_supported(TAGS_MICROVERSION):
            raise exception.StackValidationFailed(
                message=f'Cannot use "{self.TAGS}" property - nova does not support required '
                "api microversion."
            )
        mappings = self.properties[self.BLOCK_DEVICE_MAPPING_V2] or []
        if any(mapping.get("volume_type") for mapping in mappings) and not (
            nova.is_version_supported(VOLUME_TYPE_MICROVERSION)
        ):
            raise exception.StackValidationFailed(
                message='Cannot use "volume_type" property in block_device_mapping_v2 - nova '
                "does not support required api microversion 2.67."
            )
        if self.properties[self.PERSONALITY] and nova.is_version_supported(
            PERSONALITY_REMOVED_MICROVERSION
        ):
            raise exception.StackValidationFailed(
                message="Cannot use the personality parameter as nova no longer supports it. "
                "Use user_data instead."
            )
        metadata = self.properties[self.METADATA]
        if metadata:
            maximum = nova.absolute_limits()["maxServerMeta"]
            if maximum != -1 and len(metadata) > maximum:
                raise exception.StackValidationFailed(
                    message=f"Instance metadata must not contain greater than {maximum} "
                    "entries.  This is the maximum number allowed by your service provider"
                )
        return None

    def validate_networks(self) -> None:
        networks = self.properties[self.NETWORKS] or []
        for network in networks:
            self.validate_network(network)
        if self.allocate_network(networks) is not None:
            if len(networks) != 1:
                raise exception.StackValidationFailed(
                    message=f'Property "{self.ALLOCATE_NETWORK}" can not be specified if '
                    "multiple network interfaces set for server."
                )
            if not self.nova().is_version_supported(NETWORK_STRING_MICROVERSION):
                raise exception.StackValidationFailed(
                    message=f'Cannot use "{self.ALLOCATE_NETWORK}" property - compute service '
                    "does not support the required api microversion."
                )
        if (
            any(network[self.NETWORK_PORT] is not None for network in networks)
            and self.properties[self.SECURITY_GROUPS]
        ):
            raise exception.ResourcePropertyConflict(
                self.SECURITY_GROUPS, f"{self.NETWORKS}/{self.NETWORK_PORT}"
            )

    def validate_block_device_mapping(self) -> None:
        mappings = self.properties[self.BLOCK_DEVICE_MAPPING] or []
        mappings_v2 = self.properties[self.BLOCK_DEVICE_MAPPING_V2] or []
        image = self.properties[self.IMAGE]
        if mappings and mappings_v2:
            raise exception.ResourcePropertyConflict(
                self.BLOCK_DEVICE_MAPPING, self.BLOCK_DEVICE_MAPPING_V2
            )
        bootable = image is not None
        for mapping in mappings:
            device = mapping[self.DEVICE_NAME]
            if device == "vda":
                bootable = True
            volume, snapshot = mapping.get(self.VOLUME_ID), mapping.get(self.SNAPSHOT_ID)
            if volume is not None and snapshot is not None:
                raise exception.ResourcePropertyConflict(self.VOLUME_ID, self.SNAPSHOT_ID)
            if volume is None and snapshot is None:
                raise exception.StackValidationFailed(
                    message="Either volume_id or snapshot_id must be specified for device "
                    f"mapping {device}"
                )
        boot_sources = [image]
        for mapping in mappings_v2:
            sources = (
                mapping.get(self.VOLUME_ID),
                mapping.get(self.SNAPSHOT_ID),
                mapping.get(self.BDM_IMAGE),
                mapping.get(self.SWAP_SIZE),
                mapping.get(self.EPHEMERAL_SIZE) or mapping.get(self.EPHEMERAL_FORMAT),
            )
            if sources.count(None) < 4:
                raise exception.ResourcePropertyConflict(
                    self.VOLUME_ID,
                    self.SNAPSHOT_ID,
                    self.BDM_IMAGE,
                    self.SWAP_SIZE,
                    self.EPHEMERAL_SIZE,
                    self.EPHEMERAL_FORMAT,
                )
            if sources.count(None) == 5:
                raise exception.StackValidationFailed(
                    message="Either volume_id, snapshot_id, image_id, swap_size, "
                    "ephemeral_size or ephemeral_format must be specified."
                )
            if any(source is not None for source in sources[:3]) and mapping.get(
                self.BOOT_INDEX
            ) in (None, 0):
                bootable = True
                boot_sources.extend(sources[:3])
        if not bootable:
            raise exception.StackValidationFailed(
                message=f"Neither image nor bootable volume is specified for instance {self.name}"
            )
        if mappings_v2 and len([source for source in boot_sources if source is not None]) != 1:
            raise exception.StackValidationFailed(
                message=f"Multiple bootable sources for instance {self.name}."
            )

    def validate_image_flavor(self, image: str, flavor: str) -> None:
        glance = self.client_plugin("glance")
        try:
            found = glance.get_image(image)
            flavor_found = self.nova().get_flavor(flavor)
        except Exception as error:
            # Either may be made by this same stack, later.
            if self.nova().is_not_found(error) or glance.is_not_found(error):
                return
            raise
        status = str(found["status"])
        if status.lower() != "active":
            raise exception.StackValidationFailed(
                message=f"Image status is required to be active not {status}."
            )
        min_ram, min_disk = found.get("min_ram") or 0, found.get("min_disk") or 0
        if flavor_found["ram"] < min_ram:
            raise exception.StackValidationFailed(
                message=f"Image {image} requires {min_ram} minimum ram. Flavor "
                f"{flavor} has only {flavor_found['ram']}."
            )
        if flavor_found["disk"] < min_disk:
            raise exception.StackValidationFailed(
                message=f"Image {image} requires {min_disk} GB minimum disk space. "
                f"Flavor {flavor} has only {flavor_found['disk']} GB."
            )

    # Creating

    def server_name(self) -> str | None:
        return self.properties[self.NAME] or self.physical_resource_name()

    def user_data(self, properties: Any) -> str | None:
        content = properties[self.USER_DATA]
        user_data_format = properties[self.USER_DATA_FORMAT]
        if user_data_format in (self.RAW, self.SOFTWARE_CONFIG) and _is_uuid_like(content):
            content = self.stored_software_config(content)
        cfn_url = None
        if user_data_format == self.HEAT_CFNTOOLS:
            cfn_url = self.cfn_metadata_server_url()
        return server_user_data.build_user_data(
            self.metadata_get(True) or {}, content, user_data_format, cfn_metadata_url=cfn_url
        )

    def stored_software_config(self, config_id: str) -> Any:
        """The config of the software config with this id; the id itself when none is."""
        from keel_app.engine.service import software_configs

        try:
            stored = software_configs.show_software_config(
                self.context, self.stack.settings, self.stack.database, None, config_id=config_id
            )
        except exception.NotFound:
            return config_id
        return stored["config"]

    def cfn_metadata_server_url(self) -> str:
        url = self.context.clients.client_plugin("heat").get_heat_cfn_url()
        if "/v1" not in url:
            url += "/v1"
        return url if url.endswith("/") else url + "/"

    def boot_request(self) -> dict[str, Any]:
        """The body of the boot request, as novaclient would send it."""
        properties = self.properties
        image = properties[self.IMAGE]
        server: dict[str, Any] = {
            "name": self.server_name(),
            "imageRef": str(image) if image else "",
            "flavorRef": str(properties[self.FLAVOR]),
            "min_count": 1,
            "max_count": 1,
        }
        user_data = self.user_data(properties)
        if user_data:
            server["user_data"] = base64.b64encode(user_data.encode()).decode()
        if properties[self.METADATA]:
            server["metadata"] = self.nova().meta_serialize(properties[self.METADATA])
        if properties[self.RESERVATION_ID]:
            server["return_reservation_id"] = properties[self.RESERVATION_ID]
        if properties[self.KEY_NAME]:
            server["key_name"] = properties[self.KEY_NAME]
        if properties[self.CONFIG_DRIVE]:
            server["config_drive"] = properties[self.CONFIG_DRIVE]
        if properties[self.ADMIN_PASS]:
            server["adminPass"] = properties[self.ADMIN_PASS]
        security_groups = properties[self.SECURITY_GROUPS]
        if security_groups:
            server["security_groups"] = [{"name": group} for group in security_groups]
        if properties[self.AVAILABILITY_ZONE]:
            server["availability_zone"] = properties[self.AVAILABILITY_ZONE]
        legacy_mappings = self.legacy_block_devices(properties[self.BLOCK_DEVICE_MAPPING])
        mappings = self.block_devices(properties[self.BLOCK_DEVICE_MAPPING_V2])
        if legacy_mappings:
            server["block_device_mapping"] = legacy_mappings
        elif mappings:
            if image:
                mappings.insert(
                    0,
                    {
                        "uuid": image,
                        "source_type": "image",
                        "destination_type": "local",
                        "boot_index": 0,
                        "delete_on_termination": True,
                    },
                )
            server["block_device_mapping_v2"] = mappings
        nics = self.build_nics(properties[self.NETWORKS], security_groups)
        if nics is None:
            # novaclient's own refusal at Heat's microversion.
            raise ValueError("nics are required after microversion 2.36")
        server["networks"] = nics
        if properties[self.DISK_CONFIG] is not None:
            server["OS-DCF:diskConfig"] = properties[self.DISK_CONFIG]
        body: dict[str, Any] = {"server": server}
        hints = properties[self.SCHEDULER_HINTS]
        if hints:
            body["os:scheduler_hints"] = hints
        return body

    def legacy_block_devices(self, mappings: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        devices = []
        for mapping in mappings or []:
            device: dict[str, Any] = {"device_name": mapping[self.DEVICE_NAME]}
            if mapping.get(self.SNAPSHOT_ID):
                device["snapshot_id"] = mapping[self.SNAPSHOT_ID]
            else:
                device["volume_id"] = mapping.get(self.VOLUME_ID)
            if mapping.get(self.VOLUME_SIZE):
                device["volume_size"] = str(mapping[self.VOLUME_SIZE])
            if mapping.get(self.DELETE_ON_TERMINATION):
                device["delete_on_termination"] = str(mapping[self.DELETE_ON_TERMINATION])
            devices.append(device)
        return devices

    def block_devices(self, mappings: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        devices = []
        for mapping in mappings or []:
            device: dict[str, Any] = {}
            for key, source in (
                (self.VOLUME_ID, "volume"),
                (self.SNAPSHOT_ID, "snapshot"),
                (self.BDM_IMAGE, "image"),
            ):
                if mapping.get(key):
                    device = {
                        "uuid": mapping[key],
                        "source_type": source,
                        "destination_type": "volume",
                        "boot_index": 0,
                        "delete_on_termination": False,
                    }
                    break
            else:
                if mapping.get(self.SWAP_SIZE):
                    device = {
                        "source_type": "blank",
                        "destination_type": "local",
                        "boot_index": -1,
                        "delete_on_termination": True,
                        "guest_format": "swap",
                        "volume_size": mapping[self.SWAP_SIZE],
                    }
                elif mapping.get(self.EPHEMERAL_SIZE) or mapping.get(self.EPHEMERAL_FORMAT):
                    device = {
                        "source_type": "blank",
                        "destination_type": "local",
                        "boot_index": -1,
                        "delete_on_termination": True,
                    }
                    if mapping.get(self.EPHEMERAL_SIZE):
                        device["volume_size"] = mapping[self.EPHEMERAL_SIZE]
                    if mapping.get(self.EPHEMERAL_FORMAT):
                        device["guest_format"] = mapping[self.EPHEMERAL_FORMAT]
            if mapping.get(self.DEVICE_NAME):
                device[self.DEVICE_NAME] = mapping[self.DEVICE_NAME]
            for key in self.BDM_V2_PASSED:
                if mapping.get(key) is not None:
                    device[key] = mapping[key]
            if device:
                devices.append(device)
        return devices

    def handle_create(self) -> str:
        answer = self.nova().request("POST", "servers", self.boot_request())
        server_id = str(answer["server"]["id"])
        self.resource_id_set(server_id)
        return server_id

    def check_create_complete(self, server_id: str) -> bool:
        if not self.nova().check_active(server_id):
            return False
        if self.properties[self.TAGS]:
            self.set_tags(self.properties[self.TAGS])
        self.store_external_ports(self.nova().interfaces(server_id))
        return True

    def set_tags(self, tags: list[str]) -> None:
        self.nova().request("PUT", f"servers/{self.resource_id}/tags", {"tags": tags})

    # Reading it back

    def _show_resource(self) -> Any:
        server = self.nova().get_server(self.resource_id)
        server.setdefault(self.OS_COLLECT_CONFIG, self.os_collect_config())
        return server

    def os_collect_config(self) -> Any:
        return (self.metadata_get() or {}).get("os-collect-config", {})

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == self.OS_COLLECT_CONFIG:
            return self.os_collect_config()
        if name == self.NAME_ATTR:
            return self.server_name()
        nova = self.nova()
        try:
            server = nova.get_server(self.resource_id)
        except exception.EntityNotFound:
            return ""
        networks = {
            label: [address["addr"] for address in addresses]
            for label, addresses in (server.get("addresses") or {}).items()
        }
        if name == self.FIRST_ADDRESS:
            for label in sorted(networks, reverse=True):
                if networks[label]:
                    return networks[label][0]
            return ""
        if name == self.ADDRESSES:
            return self.server_addresses(self.resource_id)
        if name == self.NETWORKS_ATTR:
            return self.with_network_ids(networks)
        if name == self.INSTANCE_NAME:
            return server.get("OS-EXT-SRV-ATTR:instance_name")
        if name == self.ACCESSIPV4:
            return server.get("accessIPv4")
        if name == self.ACCESSIPV6:
            return server.get("accessIPv6")
        if name == self.CONSOLE_URLS:
            return nova.console_urls(self.resource_id)
        if name == self.TAGS_ATTR:
            if nova.is_version_supported(TAGS_MICROVERSION):
                return nova.request("GET", f"servers/{self.resource_id}/tags")["tags"]
            return None
        return None

    def handle_check(self) -> None:
        status = self.nova().get_status(self.nova().get_server(self.resource_id))
        if status != "ACTIVE":
            raise exception.Error(f"'status': expected 'ACTIVE', got '{status}'")

    def needs_replace_failed(self) -> bool:
        if not self.resource_id:
            return True
        with self.nova().ignore_not_found():
            server = self.nova().request("GET", f"servers/{self.resource_id}")["server"]
            return server["status"] in ("ERROR", "DELETED", "SOFT_DELETED")
        return True

    # Deleting

    def handle_delete(self) -> dict[str, str] | None:  # type: ignore[override]
        self.data_delete(EXTERNAL_PORTS)
        if self.resource_id is None:
            # Never booted: the ports made for it were never attached.
            self.delete_internal_ports()
            return None
        try:
            self.nova().request("DELETE", f"servers/{self.resource_id}")
        except Exception as error:
            if self.nova().is_not_found(error):
                self.delete_internal_ports()
                return None
            raise
        return {"server_id": self.resource_id}

    def check_delete_complete(self, deleting: dict[str, Any] | None) -> bool:
        if not deleting:
            return True
        if not self.image_before_delete_complete(deleting):
            return False
        if deleting.get("server_gone"):
            return True
        if not self.nova().check_delete_server_complete(deleting["server_id"]):
            return False
        # The server is gone and Nova detached its ports: the resource's own may go.
        self.delete_internal_ports()
        return True

    # Suspend and resume

    def handle_suspend(self) -> str:
        server = self.server_for_action("suspend")
        if self.nova().get_status(server) != "SUSPENDED":
            self.nova().server_action(self.resource_id, "suspend")
        return str(server["id"])

    def check_suspend_complete(self, server_id: str) -> bool:
        nova = self.nova()
        server = nova.fetch_server(server_id)
        if server is None:
            return False
        status = nova.get_status(server)
        if status in nova.deferred_server_statuses | {"ACTIVE"}:
            return status == "SUSPENDED"
        raise exception.ResourceUnknownStatus(
            result=f"Suspend of server {server['name']} failed", resource_status=status
        )

    def handle_resume(self) -> str:
        server = self.server_for_action("resume")
        if self.nova().get_status(server) != "ACTIVE":
            self.nova().server_action(self.resource_id, "resume")
        return str(server["id"])

    def check_resume_complete(self, server_id: str) -> bool:
        return bool(self.nova().check_active(server_id))

    def server_for_action(self, verb: str) -> dict[str, Any]:
        if self.resource_id is None:
            raise exception.Error(f"Cannot {verb} {self.name}, resource_id not set")
        try:
            return dict(self.nova().request("GET", f"servers/{self.resource_id}")["server"])
        except Exception as error:
            if self.nova().is_not_found(error):
                raise exception.NotFound(f"Failed to find server {self.resource_id}") from None
            raise


def _is_uuid_like(value: Any) -> bool:
    """oslo's rule: a UUID in any of its spellings (braces, URN prefix, case, dashes)."""
    import uuid

    try:
        spelled = value.replace("urn:", "").replace("uuid:", "").strip("{}").replace("-", "")
        return str(uuid.UUID(value)).replace("-", "") == spelled.lower()
    except (TypeError, ValueError, AttributeError):
        return False


RESOURCE_CLASSES = {"OS::Nova::Server": Server}
