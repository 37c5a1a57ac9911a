"""OS::Glance::WebImage: a Glance image whose data Glance downloads itself from a URL
(the ``web-download`` import).

The image record is made from the properties, the import started and members added;
the create completes once Glance reports the image active (or, for an image that is not
to be active, once it is deactivated). Tags, members, the activation and the metadata
change in place.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import Resource

IMAGE_ID_PATTERN = (
    "^([0-9a-fA-F]){8}-([0-9a-fA-F]){4}-([0-9a-fA-F]){4}-([0-9a-fA-F]){4}-([0-9a-fA-F]){12}$"
)
DISK_FORMATS = ["ami", "ari", "aki", "vhd", "vhdx", "vmdk", "raw", "qcow2", "vdi", "iso", "ploop"]
CONTAINER_FORMATS = ["ami", "ari", "aki", "bare", "ovf", "ova", "docker"]
AMAZON_FORMATS = ("ami", "ari", "aki")


class GlanceWebImage(Resource):
    default_client_name = "glance"
    entity = "images"
    support_status = SupportStatus(version="12.0.0")
    type_description = """\
A resource managing images in Glance using web-download import.

This provides image support for recent Glance installation.
"""

    PROPERTIES = (
        NAME, IMAGE_ID, MIN_DISK, MIN_RAM, PROTECTED, DISK_FORMAT, CONTAINER_FORMAT, LOCATION,
        TAGS, ARCHITECTURE, KERNEL_ID, OS_DISTRO, OS_VERSION, OWNER, EXTRA_PROPERTIES,
        VISIBILITY, RAMDISK_ID, ACTIVE, MEMBERS,
    ) = (
        "name", "id", "min_disk", "min_ram", "protected", "disk_format", "container_format",
        "location", "tags", "architecture", "kernel_id", "os_distro", "os_version", "owner",
        "extra_properties", "visibility", "ramdisk_id", "active", "members",
    )  # fmt: skip

    properties_schema = {
        NAME: Schema(
            Schema.STRING,
            "Name for the image. The name of an image is not unique to a Image Service node.",
        ),
        IMAGE_ID: Schema(
            Schema.STRING, "The image ID. Glance will generate a UUID if not specified."
        ),
        MIN_DISK: Schema(
            Schema.INTEGER,
            "Amount of disk space (in GB) required to boot image. Default value is 0 if "
            "not specified and means no limit on the disk size.",
            constraints=[constraints.Range(min=0)],
            default=0,
        ),
        MIN_RAM: Schema(
            Schema.INTEGER,
            "Amount of ram (in MB) required to boot image. Default value is 0 if not "
            "specified and means no limit on the ram size.",
            constraints=[constraints.Range(min=0)],
            default=0,
        ),
        PROTECTED: Schema(
            Schema.BOOLEAN,
            "Whether the image can be deleted. If the value is True, the image is "
            "protected and cannot be deleted.",
            update_allowed=True,
            default=False,
        ),
        DISK_FORMAT: Schema(
            Schema.STRING,
            "Disk format of image.",
            required=True,
            constraints=[constraints.AllowedValues(DISK_FORMATS)],
        ),
        CONTAINER_FORMAT: Schema(
            Schema.STRING,
            "Container format of image.",
            required=True,
            constraints=[constraints.AllowedValues(CONTAINER_FORMATS)],
        ),
        LOCATION: Schema(
            Schema.STRING,
            "URL where the data for this image already resides. For example, if the image "
            'data is stored in swift, you could specify "swift://example.com/container/obj".',
            required=True,
        ),
        TAGS: Schema(Schema.LIST, "List of image tags.", update_allowed=True),
        ARCHITECTURE: Schema(Schema.STRING, "Operating system architecture.", update_allowed=True),
        KERNEL_ID: Schema(
            Schema.STRING,
            "ID of image stored in Glance that should be used as the kernel when booting "
            "an AMI-style image.",
            update_allowed=True,
            constraints=[constraints.AllowedPattern(IMAGE_ID_PATTERN)],
        ),
        OS_DISTRO: Schema(
            Schema.STRING,
            "The common name of the operating system distribution in lowercase.",
            update_allowed=True,
        ),
        OS_VERSION: Schema(
            Schema.STRING,
            "Operating system version as specified by the distributor.",
            update_allowed=True,
        ),
        OWNER: Schema(Schema.STRING, "Owner of the image.", update_allowed=True),
        EXTRA_PROPERTIES: Schema(
            Schema.MAP,
            "Arbitrary properties to associate with the image.",
            update_allowed=True,
            default={},
            support_status=SupportStatus(version="17.0.0"),
        ),
        VISIBILITY: Schema(
            Schema.STRING,
            "Scope of image accessibility.",
            update_allowed=True,
            default="private",
            constraints=[constraints.AllowedValues(["public", "private", "community", "shared"])],
        ),
        RAMDISK_ID: Schema(
            Schema.STRING,
            "ID of image stored in Glance that should be used as the ramdisk when booting "
            "an AMI-style image.",
            update_allowed=True,
            constraints=[constraints.AllowedPattern(IMAGE_ID_PATTERN)],
        ),
        ACTIVE: Schema(
            Schema.BOOLEAN,
            "Activate or deactivate the image. Requires Admin Access.",
            default=True,
            update_allowed=True,
            support_status=SupportStatus(version="16.0.0"),
        ),
        MEMBERS: Schema(
            Schema.LIST,
            "List of additional members that are permitted to read the image. This may be "
            "a Keystone Project IDs or User IDs, depending on the Glance configuration in "
            "use.",
            schema=Schema(
                Schema.STRING,
                "A member ID. This may be a Keystone Project ID or User ID, depending on the "
                "Glance configuration in use.",
            ),
            update_allowed=True,
            support_status=SupportStatus(version="16.0.0"),
        ),
    }

    def glance(self) -> Any:
        return self.client_plugin()

    def validate(self) -> Any:
        result = super().validate()
        container_format = self.properties[self.CONTAINER_FORMAT]
        if (
            container_format in AMAZON_FORMATS
            and self.properties[self.DISK_FORMAT] != container_format
        ):
            raise exception.StackValidationFailed(
                message=(
                    "Invalid mix of disk and container formats. When setting a disk or "
                    "container format to one of 'aki', 'ari', or 'ami', the container and "
                    "disk formats must match."
                )
            )
        if self.properties[self.MEMBERS] and self.properties[self.VISIBILITY] != "shared":
            raise exception.ResourcePropertyValueDependency(
                prop1=self.MEMBERS, prop2=self.VISIBILITY, value="shared"
            )
        return result

    def handle_create(self) -> bool:
        fields = {
            key: value
            for key, value in self.properties.items()
            if value is not None and key != self.EXTRA_PROPERTIES
        }
        members = fields.pop(self.MEMBERS, [])
        active = bool(fields.pop(self.ACTIVE))
        location = fields.pop(self.LOCATION)
        # The extra properties go with the record: set after the import has started,
        # they could be lost to the import writing the image back when it ends.
        fields.update(self.properties[self.EXTRA_PROPERTIES] or {})
        glance = self.glance()
        image = glance.request("POST", "images", fields)
        self.resource_id_set(image["id"])
        glance.request(
            "POST",
            f"images/{image['id']}/import",
            {"method": {"name": "web-download", "uri": location}},
        )
        for member in members:
            glance.request("POST", f"images/{image['id']}/members", {"member": member})
        return active

    def check_create_complete(self, active: bool) -> bool:
        status = self.glance().show_image(self.resource_id)["status"]
        if status == "killed":
            raise exception.ResourceInError(resource_status=status)
        if active:
            return bool(status == "active")
        if status == "active":
            self._set_activation(False)
            return True
        return bool(status == "deactivated")

    def _set_activation(self, active: bool) -> None:
        action = "reactivate" if active else "deactivate"
        self.glance().request("POST", f"images/{self.resource_id}/actions/{action}")

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> bool | None:
        glance = self.glance()
        active = prop_diff.pop(self.ACTIVE, None)
        if active is False:
            self._set_activation(False)
        if self.TAGS in prop_diff:
            old = set(self.properties[self.TAGS] or [])
            new = set(prop_diff.pop(self.TAGS) or [])
            for tag in new - old:
                glance.request("PUT", f"images/{self.resource_id}/tags/{tag}")
            for tag in old - new:
                with glance.ignore_not_found():
                    glance.request("DELETE", f"images/{self.resource_id}/tags/{tag}")
        if self.MEMBERS in prop_diff:
            old = set(self.properties[self.MEMBERS] or [])
            new = set(prop_diff.pop(self.MEMBERS) or [])
            for member in new - old:
                glance.request("POST", f"images/{self.resource_id}/members", {"member": member})
            for member in old - new:
                glance.request("DELETE", f"images/{self.resource_id}/members/{member}")
        removed: list[str] = []
        if self.EXTRA_PROPERTIES in prop_diff:
            old_extra = self.properties[self.EXTRA_PROPERTIES] or {}
            new_extra = prop_diff.pop(self.EXTRA_PROPERTIES) or {}
            prop_diff.update(new_extra)
            removed = list(set(old_extra) - set(new_extra))
        if prop_diff or removed:
            glance.update_image(self.resource_id, removed, **prop_diff)
        return active

    def check_update_complete(self, active: bool | None) -> bool:
        if active:
            self._set_activation(True)
        return True

    def _show_resource(self) -> Any:
        return self.glance().show_image(self.resource_id)

    def handle_delete(self) -> str | None:
        if self.resource_id is None:
            return None
        with self.glance().ignore_not_found():
            self.glance().request("DELETE", f"images/{self.resource_id}")
            return str(self.resource_id)
        return None


RESOURCE_CLASSES = {"OS::Glance::WebImage": GlanceWebImage}
