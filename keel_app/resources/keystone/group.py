"""OS::Keystone::Group: a Keystone group and the roles granted to it.

The domain is resolved to an id; name, description and roles change in place.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.resources.keystone.base import keystone_v3_status
from keel_app.resources.keystone.role_assignments import ROLES, ROLES_SCHEMA, RoleAssignments


class Group(RoleAssignments):
    entity = "groups"
    actor_kind = "group"
    support_status = keystone_v3_status("2015.1")
    type_description = """\
Heat Template Resource for Keystone Group.

Groups are a container representing a collection of users. A group itself
must be owned by a specific domain, and hence all group names are not
globally unique, but only unique to their domain.
"""

    PROPERTIES = (NAME, DOMAIN, DESCRIPTION) = ("name", "domain", "description")

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of keystone group.", update_allowed=True),
        DOMAIN: Schema(
            Schema.STRING,
            "Name or id of keystone domain.",
            default="default",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("keystone.domain")],
        ),
        DESCRIPTION: Schema(
            Schema.STRING, "Description of keystone group.", default="", update_allowed=True
        ),
        ROLES: ROLES_SCHEMA,
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
        group = self.keystone().create(
            self.entity,
            {
                "name": self.name_or_default(self.properties[self.NAME]),
                "domain_id": self.properties[self.DOMAIN],
                "description": self.properties[self.DESCRIPTION],
            },
        )
        self.resource_id_set(group["id"])
        self.create_assignments(group["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        self.keystone().update(
            self.entity,
            self.resource_id,
            {
                "name": (
                    self.name_or_default(prop_diff[self.NAME]) if self.NAME in prop_diff else None
                ),
                "description": prop_diff.get(self.DESCRIPTION),
                "domain_id": prop_diff.get(self.DOMAIN) or self.properties[self.DOMAIN],
            },
        )
        self.update_assignments(prop_diff, self.resource_id)


RESOURCE_CLASSES = {"OS::Keystone::Group": Group}
