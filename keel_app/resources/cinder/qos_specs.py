"""OS::Cinder::QoSSpecs (a QoS specification, its keys changed in place) and
OS::Cinder::QoSAssociation (QoS specs associated with volume types)."""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.resources.cinder.base import CinderResource


class QoSSpecs(CinderResource):
    support_status = SupportStatus(version="7.0.0")
    required_service_extension = "qos-specs"
    entity = "qos_specs"
    type_description = """\
A resource for creating cinder QoS specs.

Users can ask for a specific volume type. Part of that volume type is a
string that defines the QoS of the volume IO (fast, normal, or slow).
Backends that can handle all of the demands of the volume type become
candidates for scheduling. Usage of this resource restricted to admins
only by default policy.
"""

    PROPERTIES = (NAME, SPECS) = ("name", "specs")

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of the QoS."),
        SPECS: Schema(
            Schema.MAP,
            "The specs key and value pairs of the QoS.",
            required=True,
            update_allowed=True,
        ),
    }

    def handle_create(self) -> None:
        name = self.properties[self.NAME] or self.physical_resource_name()
        body = {"qos_specs": {"name": name, **self.properties[self.SPECS]}}
        self.resource_id_set(self.cinder().request("POST", "qos-specs", body)["qos_specs"]["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        new = prop_diff.get(self.SPECS) or {}
        old = self.properties[self.SPECS] or {}
        added = dict(set(new.items()) - set(old.items()))
        removed = list(set(old) - set(new))
        if self.resource_id is None:
            return
        if added:
            self.cinder().request("PUT", f"qos-specs/{self.resource_id}", {"qos_specs": added})
        if removed:
            self.cinder().request(
                "PUT", f"qos-specs/{self.resource_id}/delete_keys", {"keys": removed}
            )

    def _show_resource(self) -> Any:
        return self.cinder().request("GET", f"qos-specs/{self.resource_id}")["qos_specs"]

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        cinder = self.cinder()
        # Disassociating minds a specs gone already (as Heat's does); deleting does not.
        cinder.request("GET", f"qos-specs/{self.resource_id}/disassociate_all")
        with cinder.ignore_not_found():
            cinder.request("DELETE", f"qos-specs/{self.resource_id}", params={"force": "False"})


class QoSAssociation(CinderResource):
    support_status = SupportStatus(version="8.0.0")
    required_service_extension = "qos-specs"
    type_description = """\
A resource to associate cinder QoS specs with volume types.

Usage of this resource restricted to admins only by default policy.
"""

    PROPERTIES = (QOS_SPECS, VOLUME_TYPES) = ("qos_specs", "volume_types")

    properties_schema = {
        QOS_SPECS: Schema(
            Schema.STRING,
            "ID or Name of the QoS specs.",
            required=True,
            constraints=[constraints.CustomConstraint("cinder.qos_specs")],
        ),
        VOLUME_TYPES: Schema(
            Schema.LIST,
            "List of volume type IDs or Names to be attached to QoS specs.",
            schema=Schema(
                Schema.STRING,
                "A volume type to attach specs.",
                constraints=[constraints.CustomConstraint("cinder.vtype")],
            ),
            update_allowed=True,
            required=True,
        ),
    }

    def resolving_plugin(self) -> Any:
        clients = getattr(self.context, "clients", None)
        return None if clients is None else clients.client_plugin(self.default_client_name)

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.VOLUME_TYPES],
                client_plugin=plugin,
                finder="get_volume_type",
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.QOS_SPECS],
                client_plugin=plugin,
                finder="get_qos_specs",
            ),
        ]

    def _associate(self, qos_specs: str, volume_type: str, how: str = "associate") -> None:
        self.cinder().request(
            "GET", f"qos-specs/{qos_specs}/{how}", params={"vol_type_id": volume_type}
        )

    def handle_create(self) -> None:
        for volume_type in self.properties[self.VOLUME_TYPES]:
            self._associate(self.properties[self.QOS_SPECS], volume_type)
        self.resource_id_set(self.uuid)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        qos_specs = self.properties[self.QOS_SPECS]
        new = set(prop_diff.get(self.VOLUME_TYPES) or [])
        old = set(self.properties[self.VOLUME_TYPES] or [])
        for volume_type in new - old:
            self._associate(qos_specs, volume_type)
        for volume_type in old - new:
            self._associate(qos_specs, volume_type, "disassociate")

    def handle_delete(self) -> None:
        for volume_type in self.properties[self.VOLUME_TYPES]:
            self._associate(self.properties[self.QOS_SPECS], volume_type, "disassociate")


RESOURCE_CLASSES = {"OS::Cinder::QoSSpecs": QoSSpecs, "OS::Cinder::QoSAssociation": QoSAssociation}
