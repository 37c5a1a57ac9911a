"""OS::Nova::Server: a Nova instance booted from an image or volumes, on networks.

Created with one boot request built as Heat (through novaclient) builds it, and
complete once Nova reports it ACTIVE. Its name, metadata, tags and admin password change
in place; a new flavor resizes it (then confirms the resize) and a new image rebuilds
it, unless the update policies ask for replacement; a new user data replaces it unless
``user_data_update_policy`` says otherwise. Deleting waits until Nova has forgotten it,
then deletes the ports the resource made. With ``user_data_format: SOFTWARE_CONFIG``
the server gets its deployments through ``software_config_transport``
(``server_transports``): made before the boot, so that the user data carries it,
changed in place, and deleted with the server.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import TranslationRule
from keel_app.resources.configured_defaults import given_or_configured
from keel_app.resources.heat.server_transports import SoftwareConfigTransports
from keel_app.resources.nova.base import NovaResource
from keel_app.resources.nova.server_boot import ServerBoot
from keel_app.resources.nova.server_network_updates import ServerNetworkUpdates
from keel_app.resources.nova.server_networks import EXTERNAL_PORTS, INTERNAL_PORTS, ServerNetworks
from keel_app.resources.nova.server_schema import ATTRIBUTES_SCHEMA, PROPERTIES_SCHEMA
from keel_app.resources.nova.server_snapshots import ServerSnapshots
from keel_app.resources.nova.server_suspension import ServerSuspension
from keel_app.resources.nova.server_updates import ServerUpdates
from keel_app.resources.nova.server_validation import TAGS_MICROVERSION, ServerValidation

# [DEFAULT] max_server_name_length's default.
MAX_SERVER_NAME_LENGTH = 53


def server_name_limit(resource: Any) -> int:
    """The longest name a server is given: heat.conf's max_server_name_length."""
    settings = getattr(resource.stack, "settings", None)
    return int(getattr(settings, "max_server_name_length", MAX_SERVER_NAME_LENGTH))


class Server(
    ServerValidation,
    ServerBoot,
    ServerSnapshots,
    ServerSuspension,
    ServerUpdates,
    ServerNetworkUpdates,
    ServerNetworks,
    SoftwareConfigTransports,
    NovaResource,
):
    api_path = "servers"
    api_key = "server"
    entity = "servers"

    @property
    def physical_resource_name_limit(self) -> int:  # type: ignore[override]
        return server_name_limit(self)

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
    # os-collect-config also reads Nova's metadata service.
    default_collectors = ("ec2",)

    def user_data_software_config(self) -> bool:
        return bool(self.user_data_format(self.properties) == self.SOFTWARE_CONFIG)

    def user_data_format(self, properties: Any) -> str:
        configured = self.stack.settings.default_user_data_format
        return str(given_or_configured(properties, self.USER_DATA_FORMAT, configured))

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

    def handle_create(self) -> str:
        if self.user_data_software_config():
            # The user data carries the transport: it is made first.
            metadata = self.metadata_get(True) or {}
            self.create_transport_credentials(self.properties)
            self.populate_deployments_metadata(metadata, self.properties)
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

    # Replacing

    def prepare_for_replace(self) -> None:
        """Give the ports up for the replacement (Heat detaches them all); a server in
        ERROR only loses the ports the resource made."""
        if self.resource_id is None:
            return
        nova = self.nova()
        server = None
        with nova.ignore_not_found():
            server = nova.request("GET", f"servers/{self.resource_id}")["server"]
        if server is None or server["status"] == "ERROR":
            self.delete_internal_ports()
            return
        # Heat then waits for each detach, blocking; a step here cannot wait, so Nova
        # finishes the detaches while the replacement is being made.
        for port in [*self.ports(INTERNAL_PORTS), *self.ports(EXTERNAL_PORTS)]:
            with nova.ignore_not_found():
                nova.request("DELETE", f"servers/{self.resource_id}/os-interface/{port['id']}")

    # Deleting

    def handle_delete(self) -> dict[str, str] | None:  # type: ignore[override]
        if self.user_data_software_config():
            self.delete_transports()
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


RESOURCE_CLASSES = {"OS::Nova::Server": Server}
