"""OS::Nova::KeyPair: an SSH key pair of Nova's, named by the template.

Since Nova 2.92 (and so at Heat 27's microversion on any recent Nova) the public key
must be given: Nova no longer generates key pairs, and validation says so before
anything is made. The physical id is the key pair's name; nothing changes in place.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.nova.base import NovaResource

# The microversions that brought key types, other users' key pairs and the end of
# generated keys.
KEY_TYPE_MICROVERSION, USER_MICROVERSION, PUBLIC_KEY_REQUIRED_MICROVERSION = (
    "2.2",
    "2.10",
    "2.92",
)


class KeyPair(NovaResource):
    api_path = "os-keypairs"
    api_key = "keypair"
    entity = "keypairs"
    support_status = SupportStatus(version="2014.1")
    type_description = """\
A resource for creating Nova key pairs.

A keypair is a ssh key that can be injected into a server on launch.

**Note** that if a new key is generated setting `save_private_key` to
`True` results in the system saving the private key which can then be
retrieved via the `private_key` attribute of this resource.

Setting the `public_key` property means that the `private_key` attribute
of this resource will always return an empty string regardless of the
`save_private_key` setting since there will be no private key data to
save.
"""

    PROPERTIES = (NAME, SAVE_PRIVATE_KEY, PUBLIC_KEY, KEY_TYPE, USER) = (
        "name",
        "save_private_key",
        "public_key",
        "type",
        "user",
    )
    ATTRIBUTES = (PUBLIC_KEY_ATTR, PRIVATE_KEY_ATTR) = ("public_key", "private_key")

    def get_reference_id(self) -> str:
        # Its Nova name, None until made, as in Heat (other types fall back on the
        # resource's own name until then).
        return self.resource_id  # type: ignore[no-any-return]

    properties_schema = {
        NAME: Schema(
            Schema.STRING,
            "The name of the key pair.",
            required=True,
            constraints=[constraints.Length(min=1, max=255)],
        ),
        SAVE_PRIVATE_KEY: Schema(
            Schema.BOOLEAN,
            "True if the system should remember a generated private key; False otherwise.",
            default=False,
        ),
        PUBLIC_KEY: Schema(
            Schema.STRING,
            "The public key. This allows users to supply the public key from a "
            "pre-existing key pair. In Nova api version < 2.92, if not supplied, a new "
            "key pair will be generated. This property is required since Nova api "
            "version 2.92.",
        ),
        KEY_TYPE: Schema(
            Schema.STRING,
            "Keypair type. Supported since Nova api version 2.2.",
            constraints=[constraints.AllowedValues(["ssh", "x509"])],
            support_status=SupportStatus(version="8.0.0"),
        ),
        USER: Schema(
            Schema.STRING,
            "ID or name of user to whom to add key-pair. The usage of this property is "
            "limited to being used by administrators only. Supported since Nova api "
            "version 2.10.",
            constraints=[constraints.CustomConstraint("keystone.user")],
            support_status=SupportStatus(version="9.0.0"),
        ),
    }

    attributes_schema = {
        PUBLIC_KEY_ATTR: AttributeSchema("The public key.", type=AttributeSchema.STRING),
        PRIVATE_KEY_ATTR: AttributeSchema(
            "The private key if it has been saved.",
            cache_mode=AttributeSchema.CACHE_NONE,
            type=AttributeSchema.STRING,
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        clients = getattr(self.context, "clients", None)
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.USER],
                client_plugin=None if clients is None else clients.client_plugin("keystone"),
                finder="get_user_id",
            )
        ]

    def validate(self) -> Any:
        result = super().validate()
        if result:
            return result
        nova = self.nova()
        unsupported = []
        if self.properties[self.KEY_TYPE] and not nova.is_version_supported(KEY_TYPE_MICROVERSION):
            unsupported.append(self.KEY_TYPE)
        if self.properties[self.USER] and not nova.is_version_supported(USER_MICROVERSION):
            unsupported.append(self.USER)
        if unsupported:
            raise exception.StackValidationFailed(
                message=f'Cannot use "{unsupported}" properties - nova does not support '
                "required api microversion."
            )
        if not self.properties[self.PUBLIC_KEY] and nova.is_version_supported(
            PUBLIC_KEY_REQUIRED_MICROVERSION
        ):
            raise exception.StackValidationFailed(
                message="The public_key property is required by the nova API version "
                "currently used."
            )
        return None

    def handle_create(self) -> None:
        body: dict[str, Any] = {
            "name": self.properties[self.NAME],
            "public_key": self.properties[self.PUBLIC_KEY] or None,
        }
        if self.properties[self.KEY_TYPE]:
            body["type"] = self.properties[self.KEY_TYPE]
        if self.properties[self.USER]:
            body["user_id"] = self.properties[self.USER]
        if body["public_key"] is None:
            del body["public_key"]  # Nova generates one (before 2.92)
        keypair = self.nova().request("POST", self.api_path, {"keypair": body})["keypair"]
        if self.properties[self.SAVE_PRIVATE_KEY] and "private_key" in keypair:
            self.data_set("private_key", keypair["private_key"], True)
        self.resource_id_set(keypair["name"])

    def handle_check(self) -> None:
        self._show_resource()

    def prepare_for_replace(self) -> None:
        # The replacement takes the same name, which Nova holds unique per user.
        self.handle_delete()

    def private_key(self) -> str:
        if self.properties[self.SAVE_PRIVATE_KEY]:
            return str(self.data().get("private_key", ""))
        return ""

    def public_key(self) -> str | None:
        if self.properties[self.PUBLIC_KEY]:
            return str(self.properties[self.PUBLIC_KEY])
        if self.resource_id:
            return str(self.nova().get_keypair(self.resource_id)["public_key"])
        return None

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.PRIVATE_KEY_ATTR:
            return self.private_key()
        return str(self.public_key())


RESOURCE_CLASSES = {"OS::Nova::KeyPair": KeyPair}
