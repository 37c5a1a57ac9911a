"""OS::Keystone::Role: a Keystone role, global or (with a domain) domain-specific.

Only the name changes in place; another domain is another role.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.resources.keystone.base import KeystoneResource, keystone_v3_status


class Role(KeystoneResource):
    entity = "roles"
    support_status = keystone_v3_status("2015.1")
    type_description = """\
Heat Template Resource for Keystone Role.

Roles dictate the level of authorization the end user can obtain. Roles can
be granted at either the domain or project level. Role can be assigned to
the individual user or at the group level. Role name is unique within the
owning domain.
"""

    PROPERTIES = (NAME, DOMAIN) = ("name", "domain")

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of keystone role.", update_allowed=True),
        DOMAIN: Schema(
            Schema.STRING,
            "Name or id of keystone domain.",
            constraints=[constraints.CustomConstraint("keystone.domain")],
            support_status=SupportStatus(version="16.0.0"),
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.DOMAIN],
                client_plugin=self.resolving_plugin(),
                finder="get_domain_id",
            )
        ]

    def handle_create(self) -> None:
        role = self.keystone().create(
            self.entity,
            {
                "name": self.name_or_default(self.properties[self.NAME]),
                "domain_id": self.properties[self.DOMAIN] or None,
            },
        )
        self.resource_id_set(role["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff and self.NAME in prop_diff:
            name = self.name_or_default(prop_diff[self.NAME])
            self.keystone().update(self.entity, self.resource_id, {"name": name})


RESOURCE_CLASSES = {"OS::Keystone::Role": Role}
