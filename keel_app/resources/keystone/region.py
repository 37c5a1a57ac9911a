"""OS::Keystone::Region: a region of Keystone's catalog, under an optional parent.

The id given is URL-encoded before Keystone sees it (Keystone makes one up when none is
given); everything but the id changes in place.
"""

from __future__ import annotations

from typing import Any
from urllib import parse

from keel_app.engine import constraints
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.resources.keystone.base import KeystoneResource, keystone_v3_status


class Region(KeystoneResource):
    entity = "regions"
    support_status = keystone_v3_status("6.0.0")
    type_description = """\
Heat Template Resource for Keystone Region.

This plug-in helps to create, update and delete a keystone region. Also
it can be used for enable or disable a given keystone region.
"""

    PROPERTIES = (ID, PARENT_REGION, DESCRIPTION, ENABLED) = (
        "id",
        "parent_region",
        "description",
        "enabled",
    )

    properties_schema = {
        ID: Schema(
            Schema.STRING,
            "The user-defined region ID and should unique to the OpenStack deployment. "
            "While creating the region, heat will url encode this ID.",
        ),
        PARENT_REGION: Schema(
            Schema.STRING,
            "If the region is hierarchically a child of another region, set this "
            "parameter to the ID of the parent region.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("keystone.region")],
        ),
        DESCRIPTION: Schema(Schema.STRING, "Description of keystone region.", update_allowed=True),
        ENABLED: Schema(
            Schema.BOOLEAN,
            "This region is enabled or disabled.",
            default=True,
            update_allowed=True,
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.PARENT_REGION],
                client_plugin=self.resolving_plugin(),
                finder="get_region_id",
            )
        ]

    def handle_create(self) -> None:
        region_id = self.properties[self.ID]
        region = self.keystone().create(
            self.entity,
            {
                "id": parse.quote(region_id) if region_id else None,
                "description": self.properties[self.DESCRIPTION],
                "enabled": self.properties[self.ENABLED],
                "parent_region_id": self.properties[self.PARENT_REGION],
            },
        )
        self.resource_id_set(region["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        self.keystone().update(
            self.entity,
            self.resource_id,
            {
                "description": prop_diff.get(self.DESCRIPTION),
                "enabled": prop_diff.get(self.ENABLED),
                "parent_region_id": prop_diff.get(self.PARENT_REGION),
            },
        )


RESOURCE_CLASSES = {"OS::Keystone::Region": Region}
