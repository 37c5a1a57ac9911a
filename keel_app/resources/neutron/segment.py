"""OS::Neutron::Segment: a segment of a Neutron network (routed provider networks).

Heat drives segments through openstacksdk's network proxy rather than neutronclient, so
this type does too (the Neutron client plugin's ``client()``): its failures are
openstacksdk's exceptions, as with Heat. The network is named by name or id; name and
description change in place, anything else makes a new segment.
"""

from __future__ import annotations

from typing import Any

from openstack import exceptions as sdk_errors

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.resources.neutron.base import NeutronResource

NETWORK_TYPES = (LOCAL, VLAN, VXLAN, GRE, GENEVE, FLAT) = (
    "local",
    "vlan",
    "vxlan",
    "gre",
    "geneve",
    "flat",
)
TUNNEL_TYPES = (VXLAN, GRE, GENEVE)
MAX_VLAN_ID = 4094


class Segment(NeutronResource):
    entity = "segment"
    required_service_extension = "segment"
    support_status = SupportStatus(version="9.0.0")
    type_description = """\
A resource for Neutron Segment.

This requires enabling the segments service plug-in by appending
'segments' to the list of service_plugins in the neutron.conf.

The default policy usage of this resource is limited to
administrators only.
"""

    PROPERTIES = (
        NETWORK,
        NETWORK_TYPE,
        PHYSICAL_NETWORK,
        SEGMENTATION_ID,
        NAME,
        DESCRIPTION,
    ) = (
        "network",
        "network_type",
        "physical_network",
        "segmentation_id",
        "name",
        "description",
    )

    properties_schema = {
        NETWORK: Schema(
            Schema.STRING,
            "The name/id of network to associate with this segment.",
            constraints=[constraints.CustomConstraint("neutron.network")],
            required=True,
        ),
        NETWORK_TYPE: Schema(
            Schema.STRING,
            "Type of network to associate with this segment.",
            constraints=[constraints.AllowedValues(list(NETWORK_TYPES))],
            required=True,
        ),
        PHYSICAL_NETWORK: Schema(
            Schema.STRING, "Name of physical network to associate with this segment."
        ),
        SEGMENTATION_ID: Schema(
            Schema.INTEGER,
            "Segmentation ID for this segment.",
            constraints=[constraints.Range(min=1)],
        ),
        NAME: Schema(Schema.STRING, "Name of the segment.", update_allowed=True),
        DESCRIPTION: Schema(Schema.STRING, "Description of the segment.", update_allowed=True),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.NETWORK],
                client_plugin=self.resolving_plugin(),
                finder="find_resourceid_by_name_or_id",
                entity="network",
            )
        ]

    def validate(self) -> Any:
        result = super().validate()
        if result:
            return result
        problem = self._provider_problem(
            self.properties[self.NETWORK_TYPE],
            self.properties[self.PHYSICAL_NETWORK],
            self.properties[self.SEGMENTATION_ID],
        )
        if problem:
            raise exception.StackValidationFailed(message=problem)
        return None

    @classmethod
    def _provider_problem(
        cls, network_type: str, physical_network: str | None, segmentation_id: int | None
    ) -> str | None:
        """What Heat finds wrong with the provider attributes, in Heat's order."""
        required = "{} is required for {} provider network."
        prohibited = "{} is prohibited for {} provider network."
        if network_type in (FLAT, VLAN) and physical_network is None:
            return required.format(cls.PHYSICAL_NETWORK, network_type)
        if network_type == VLAN and segmentation_id is None:
            return required.format(cls.SEGMENTATION_ID, network_type)
        if network_type in (LOCAL, FLAT) and segmentation_id is not None:
            return prohibited.format(cls.SEGMENTATION_ID, network_type)
        if network_type in TUNNEL_TYPES and physical_network is not None:
            return prohibited.format(cls.PHYSICAL_NETWORK, network_type)
        if network_type == VLAN and segmentation_id > MAX_VLAN_ID:  # type: ignore[operator]
            return "Up to 4094 VLAN network segments can exist on each physical_network."
        return None

    def _network_proxy(self) -> Any:
        return self.neutron().client()

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        body["network_id"] = body.pop(self.NETWORK)
        segment = self._network_proxy().create_segment(**body)
        self.resource_id_set(segment.id)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            self._network_proxy().update_segment(self.resource_id, **prop_diff)

    def handle_delete(self) -> None:
        # A segment already gone is no error to openstacksdk's delete.
        if self.resource_id is not None:
            self._network_proxy().delete_segment(self.resource_id)

    def _show_resource(self) -> Any:
        return self._network_proxy().get_segment(self.resource_id).to_dict()

    def needs_replace_failed(self) -> bool:
        if not self.resource_id:
            return True
        try:
            self._show_resource()
        except sdk_errors.NotFoundException:
            return True
        return False


RESOURCE_CLASSES = {"OS::Neutron::Segment": Segment}
