"""OS::Keystone::Endpoint: where a catalog's service answers on one interface.

The service and the region are resolved to ids; everything changes in place.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.resources.keystone.base import KeystoneResource, keystone_v3_status


class Endpoint(KeystoneResource):
    entity = "endpoints"
    support_status = keystone_v3_status("5.0.0")
    type_description = """\
Heat Template Resource for Keystone Service Endpoint.

Keystone endpoint is just the URL that can be used for accessing a service
within OpenStack. Endpoint can be accessed by admin, by services or public,
i.e. everyone can use this endpoint.
"""

    PROPERTIES = (NAME, REGION, SERVICE, INTERFACE, SERVICE_URL, ENABLED) = (
        "name",
        "region",
        "service",
        "interface",
        "url",
        "enabled",
    )

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of keystone endpoint.", update_allowed=True),
        REGION: Schema(
            Schema.STRING,
            "Name or Id of keystone region.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("keystone.region")],
        ),
        SERVICE: Schema(
            Schema.STRING,
            "Name or Id of keystone service.",
            update_allowed=True,
            required=True,
            constraints=[constraints.CustomConstraint("keystone.service")],
        ),
        INTERFACE: Schema(
            Schema.STRING,
            "Interface type of keystone service endpoint.",
            update_allowed=True,
            required=True,
            constraints=[constraints.AllowedValues(["public", "internal", "admin"])],
        ),
        SERVICE_URL: Schema(
            Schema.STRING, "URL of keystone service endpoint.", update_allowed=True, required=True
        ),
        ENABLED: Schema(
            Schema.BOOLEAN,
            "This endpoint is enabled or disabled.",
            default=True,
            update_allowed=True,
            support_status=SupportStatus(version="6.0.0"),
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.SERVICE],
                client_plugin=plugin,
                finder="get_service_id",
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.REGION],
                client_plugin=plugin,
                finder="get_region_id",
            ),
        ]

    def handle_create(self) -> None:
        endpoint = self.keystone().create(
            self.entity,
            {
                "service_id": self.properties[self.SERVICE],
                "interface": self.properties[self.INTERFACE],
                "url": self.properties[self.SERVICE_URL],
                # keystoneclient's field: Keystone takes it as the region's id.
                "region": self.properties[self.REGION],
                "enabled": self.properties[self.ENABLED],
                "name": self.name_or_default(self.properties[self.NAME]),
            },
        )
        self.resource_id_set(endpoint["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        self.keystone().update(
            self.entity,
            self.resource_id,
            {
                "service_id": prop_diff.get(self.SERVICE),
                "interface": prop_diff.get(self.INTERFACE),
                "url": prop_diff.get(self.SERVICE_URL),
                "region": prop_diff.get(self.REGION),
                "name": (
                    self.name_or_default(prop_diff[self.NAME]) if self.NAME in prop_diff else None
                ),
                "enabled": prop_diff.get(self.ENABLED),
            },
        )


RESOURCE_CLASSES = {"OS::Keystone::Endpoint": Endpoint}
