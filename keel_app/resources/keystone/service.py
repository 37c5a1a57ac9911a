"""OS::Keystone::Service: a service of Keystone's catalog; everything changes in place."""

from __future__ import annotations

from typing import Any

from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.keystone.base import KeystoneResource, keystone_v3_status


class Service(KeystoneResource):
    entity = "services"
    support_status = keystone_v3_status("5.0.0")
    type_description = """\
Heat Template Resource for Keystone Service.

A resource that allows to create new service and manage it by Keystone.
"""

    PROPERTIES = (NAME, DESCRIPTION, TYPE, ENABLED) = ("name", "description", "type", "enabled")

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of keystone service.", update_allowed=True),
        DESCRIPTION: Schema(Schema.STRING, "Description of keystone service.", update_allowed=True),
        TYPE: Schema(
            Schema.STRING, "Type of keystone Service.", update_allowed=True, required=True
        ),
        ENABLED: Schema(
            Schema.BOOLEAN,
            "This service is enabled or disabled.",
            default=True,
            update_allowed=True,
            support_status=SupportStatus(version="6.0.0"),
        ),
    }

    def handle_create(self) -> None:
        service = self.keystone().create(
            self.entity,
            {
                "name": self.name_or_default(self.properties[self.NAME]),
                "type": self.properties[self.TYPE],
                "description": self.properties[self.DESCRIPTION],
                "enabled": self.properties[self.ENABLED],
            },
        )
        self.resource_id_set(service["id"])

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
                "type": prop_diff.get(self.TYPE),
                "description": prop_diff.get(self.DESCRIPTION),
                "enabled": prop_diff.get(self.ENABLED),
            },
        )


RESOURCE_CLASSES = {"OS::Keystone::Service": Service}
