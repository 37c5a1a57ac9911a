"""OS::Keystone::Domain: a Keystone domain.

Everything changes in place. Keystone deletes only a disabled domain: deleting an
enabled one fails with Keystone's Forbidden, as it does with Heat, until an update has
set ``enabled`` to false.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.properties import Schema
from keel_app.resources.keystone.base import KeystoneResource, keystone_v3_status


class Domain(KeystoneResource):
    entity = "domains"
    support_status = keystone_v3_status("8.0.0")
    type_description = """\
Heat Template Resource for Keystone Domain.

This plug-in helps to create, update and delete a keystone domain. Also
it can be used for enable or disable a given keystone domain.
"""

    PROPERTIES = (NAME, DESCRIPTION, ENABLED) = ("name", "description", "enabled")

    properties_schema = {
        NAME: Schema(Schema.STRING, "The name of the domain.", update_allowed=True),
        DESCRIPTION: Schema(Schema.STRING, "Description of keystone domain.", update_allowed=True),
        ENABLED: Schema(
            Schema.BOOLEAN,
            "This domain is enabled or disabled.",
            default=True,
            update_allowed=True,
        ),
    }

    def handle_create(self) -> None:
        domain = self.keystone().create(
            self.entity,
            {
                "name": self.name_or_default(self.properties[self.NAME]),
                "description": self.properties[self.DESCRIPTION],
                "enabled": self.properties[self.ENABLED],
            },
        )
        self.resource_id_set(domain["id"])

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
                "enabled": prop_diff.get(self.ENABLED),
            },
        )


RESOURCE_CLASSES = {"OS::Keystone::Domain": Domain}
