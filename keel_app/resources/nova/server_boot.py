"""A Server's boot request, as Heat has novaclient build it: the name, image and flavor,
the user data in its format, metadata, key pair, zone, hints, block devices and the
networks (with the ports the resource makes itself)."""

from __future__ import annotations

import base64
import uuid
from typing import Any

from keel_app.common import exception
from keel_app.resources.nova import server_user_data
from keel_app.resources.scheduler_hints import with_stack_hints


class ServerBoot:
    """Mixed into the Server."""

    def server_name(self) -> str | None:
        return self.properties[self.NAME] or self.physical_resource_name()

    def user_data(self, properties: Any) -> str | None:
        content = properties[self.USER_DATA]
        user_data_format = self.user_data_format(properties)
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
        return str(self.context.clients.client_plugin("heat").get_cfn_metadata_server_url())

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
        if nics is not None:
            server["networks"] = nics
        elif self.nova().is_version_supported("2.37"):
            # novaclient's own refusal from the microversion that made networks required.
            raise ValueError("nics are required after microversion 2.36")
        if properties[self.DISK_CONFIG] is not None:
            server["OS-DCF:diskConfig"] = properties[self.DISK_CONFIG]
        body: dict[str, Any] = {"server": server}
        hints = with_stack_hints(self, properties[self.SCHEDULER_HINTS])
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


def _is_uuid_like(value: Any) -> bool:
    """oslo's rule: a UUID in any of its spellings (braces, URN prefix, case, dashes)."""
    try:
        spelled = value.replace("urn:", "").replace("uuid:", "").strip("{}").replace("-", "")
        return str(uuid.UUID(value)).replace("-", "") == spelled.lower()
    except (TypeError, ValueError, AttributeError):
        return False
