"""OS::Cinder::EncryptedVolumeType: the encryption settings of a volume type, changed in
place; its physical id is the volume type's."""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.cinder.base import CinderResource


class CinderEncryptedVolumeType(CinderResource):
    support_status = SupportStatus(version="5.0.0")
    required_service_extension = "encryption"
    entity = "volume_encryption_types"
    type_description = """\
A resource for encrypting a cinder volume type.

A Volume Encryption Type is a collection of settings used to conduct
encryption for a specific volume type.

Note that default cinder security policy usage of this resource
is limited to being used by administrators only.
"""

    PROPERTIES = (PROVIDER, CONTROL_LOCATION, CIPHER, KEY_SIZE, VOLUME_TYPE) = (
        "provider",
        "control_location",
        "cipher",
        "key_size",
        "volume_type",
    )

    properties_schema = {
        PROVIDER: Schema(
            Schema.STRING,
            "The class that provides encryption support. For example, "
            "nova.volume.encryptors.luks.LuksEncryptor.",
            required=True,
            update_allowed=True,
        ),
        CONTROL_LOCATION: Schema(
            Schema.STRING,
            "Notional service where encryption is performed For example, front-end. For Nova.",
            constraints=[constraints.AllowedValues(["front-end", "back-end"])],
            default="front-end",
            update_allowed=True,
        ),
        CIPHER: Schema(
            Schema.STRING,
            "The encryption algorithm or mode. For example, aes-xts-plain64.",
            constraints=[constraints.AllowedValues(["aes-xts-plain64", "aes-cbc-essiv"])],
            default=None,
            update_allowed=True,
        ),
        KEY_SIZE: Schema(
            Schema.INTEGER,
            "Size of encryption key, in bits. For example, 128 or 256.",
            default=None,
            update_allowed=True,
        ),
        VOLUME_TYPE: Schema(
            Schema.STRING,
            "Name or id of volume type (OS::Cinder::VolumeType).",
            required=True,
            constraints=[constraints.CustomConstraint("cinder.vtype")],
        ),
    }

    def handle_create(self) -> None:
        specs = {
            "provider": self.properties[self.PROVIDER],
            "cipher": self.properties[self.CIPHER],
            "key_size": self.properties[self.KEY_SIZE],
            "control_location": self.properties[self.CONTROL_LOCATION],
        }
        cinder = self.cinder()
        volume_type_id = cinder.get_volume_type(self.properties[self.VOLUME_TYPE])
        made = cinder.request("POST", f"types/{volume_type_id}/encryption", {"encryption": specs})[
            "encryption"
        ]
        self.resource_id_set(made["volume_type_id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff:
            self.cinder().request(
                "PUT",
                f"types/{self.resource_id}/encryption/{self.resource_id}",
                {"encryption": prop_diff},
            )

    def _show_resource(self) -> Any:
        return self.cinder().request("GET", f"types/{self.resource_id}/encryption")

    def handle_delete(self) -> None:
        if self.resource_id is not None:
            with self.cinder().ignore_not_found():
                self.cinder().request("DELETE", f"types/{self.resource_id}/encryption/provider")


RESOURCE_CLASSES = {"OS::Cinder::EncryptedVolumeType": CinderEncryptedVolumeType}
