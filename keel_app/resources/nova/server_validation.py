"""A Server's validation, as Heat's: the boot sources, the image against the flavor, the
networks entries, and the features the Nova microversion in use must offer."""

from __future__ import annotations

from typing import Any

from keel_app.common import exception

# The microversions that brought server tags, "auto"/"none" networks, interface tags,
# the end of personality files and the volume type of a mapping.
TAGS_MICROVERSION = "2.26"
NETWORK_STRING_MICROVERSION = "2.37"
NIC_TAGS_MICROVERSION = "2.42"
PERSONALITY_REMOVED_MICROVERSION = "2.57"
VOLUME_TYPE_MICROVERSION = "2.67"


class ServerValidation:
    """Mixed into the Server."""

    def validate(self) -> Any:
        result = super().validate()
        if result:
            return result
        if self.user_data_software_config():
            if "deployments" in (self.t.metadata() or {}):
                raise exception.StackValidationFailed(
                    message="deployments key not allowed in resource metadata with "
                    "user_data_format of SOFTWARE_CONFIG"
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
