"""OS::Neutron::ProviderNet: a network on a given piece of the physical network (a flat
or VLAN physical network, a VXLAN/GRE/Geneve segment), admin-only by Neutron's policy.

The ``network_type``, ``physical_network`` and ``segmentation_id`` properties are sent as
Neutron's ``provider:*`` attributes and ``router_external`` as ``router:external``; the
rest behaves as OS::Neutron::Net's, and everything but the owner changes in place.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.neutron.net import Net

NETWORK_TYPES = (LOCAL, VLAN, VXLAN, GRE, GENEVE, FLAT) = (
    "local",
    "vlan",
    "vxlan",
    "gre",
    "geneve",
    "flat",
)


class ProviderNet(Net):
    required_service_extension = "provider"
    support_status = SupportStatus(version="2014.1")
    type_description = """\
A resource for managing Neutron provider networks.

Provider networks specify details of physical realisation of the existing
network.

The default policy usage of this resource is limited to
administrators only.
"""

    PROPERTIES = (
        NAME,
        PROVIDER_NETWORK_TYPE,
        PROVIDER_PHYSICAL_NETWORK,
        PROVIDER_SEGMENTATION_ID,
        ADMIN_STATE_UP,
        SHARED,
        PORT_SECURITY_ENABLED,
        ROUTER_EXTERNAL,
        DNS_DOMAIN,
        AVAILABILITY_ZONE_HINTS,
        TAGS,
        TENANT_ID,
    ) = (
        "name",
        "network_type",
        "physical_network",
        "segmentation_id",
        "admin_state_up",
        "shared",
        "port_security_enabled",
        "router_external",
        "dns_domain",
        "availability_zone_hints",
        "tags",
        "tenant_id",
    )

    ATTRIBUTES = (STATUS, SUBNETS, SEGMENTS) = ("status", "subnets", "segments")

    # The properties sent under Neutron's extension attribute names.
    API_NAMES = {
        PROVIDER_NETWORK_TYPE: "provider:network_type",
        PROVIDER_PHYSICAL_NETWORK: "provider:physical_network",
        PROVIDER_SEGMENTATION_ID: "provider:segmentation_id",
        ROUTER_EXTERNAL: "router:external",
    }

    properties_schema = {
        NAME: Net.properties_schema[NAME],
        PROVIDER_NETWORK_TYPE: Schema(
            Schema.STRING,
            "A string specifying the provider network type for the network.",
            update_allowed=True,
            required=True,
            constraints=[constraints.AllowedValues(NETWORK_TYPES)],
        ),
        PROVIDER_PHYSICAL_NETWORK: Schema(
            Schema.STRING,
            "A string specifying physical network mapping for the network.",
            update_allowed=True,
        ),
        PROVIDER_SEGMENTATION_ID: Schema(
            Schema.STRING,
            "A string specifying the segmentation id for the network.",
            update_allowed=True,
        ),
        ADMIN_STATE_UP: Net.properties_schema[ADMIN_STATE_UP],
        SHARED: Schema(
            Schema.BOOLEAN,
            "Whether this network should be shared across all tenants.",
            default=True,
            update_allowed=True,
        ),
        PORT_SECURITY_ENABLED: Schema(
            Schema.BOOLEAN,
            "Flag to enable/disable port security on the network. It provides the "
            "default value for the attribute of the ports created on this network.",
            update_allowed=True,
            support_status=SupportStatus(version="8.0.0"),
        ),
        ROUTER_EXTERNAL: Schema(
            Schema.BOOLEAN,
            "Whether the network contains an external router.",
            default=False,
            update_allowed=True,
            support_status=SupportStatus(version="6.0.0"),
        ),
        TAGS: Schema(
            Schema.LIST,
            "The tags to be added to the provider network.",
            schema=Schema(Schema.STRING),
            update_allowed=True,
            support_status=SupportStatus(version="12.0.0"),
        ),
        DNS_DOMAIN: Schema(
            Schema.STRING,
            "DNS domain associated with this network.",
            constraints=[constraints.CustomConstraint("dns_domain")],
            update_allowed=True,
            support_status=SupportStatus(version="15.0.0"),
        ),
        AVAILABILITY_ZONE_HINTS: Schema(
            Schema.LIST,
            "Availability zone candidates for the network. It requires the "
            "availability_zone extension to be available.",
            update_allowed=True,
            support_status=SupportStatus(version="19.0.0"),
        ),
        TENANT_ID: Schema(
            Schema.STRING,
            "The ID of the tenant which will own the provider network. Only administrative "
            "users can set the tenant identifier; this cannot be changed using "
            "authorization policies.",
            support_status=SupportStatus(version="24.0.0"),
        ),
    }

    attributes_schema = {
        STATUS: AttributeSchema("The status of the network.", type=AttributeSchema.STRING),
        SUBNETS: AttributeSchema("Subnets of this network.", type=AttributeSchema.LIST),
        SEGMENTS: AttributeSchema(
            "The segments of this network.",
            type=AttributeSchema.LIST,
            support_status=SupportStatus(version="16.0.0"),
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        # No QoS policy to resolve: the type has no such property.
        return []

    def validate(self) -> Any:
        super().validate()
        network_type = self.properties[self.PROVIDER_NETWORK_TYPE]
        if self.properties[self.PROVIDER_SEGMENTATION_ID] and network_type in (LOCAL, FLAT):
            raise exception.StackValidationFailed(
                message="segmentation_id not allowed for network types: local, flat"
            )
        if self.properties[self.PROVIDER_PHYSICAL_NETWORK] and network_type in (
            VXLAN,
            GRE,
            GENEVE,
            LOCAL,
        ):
            # Heat's message names flat where it means local.
            raise exception.StackValidationFailed(
                message="physical_network not allowed for network types: vxlan, gre, geneve, flat"
            )
        return None

    def to_api_names(self, body: dict[str, Any]) -> None:
        for name, api_name in self.API_NAMES.items():
            if name in body:
                body[api_name] = body.pop(name)

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        self.to_api_names(body)
        tags = body.pop(self.TAGS, [])
        network = self.neutron().create(self.entity, body)
        self.resource_id_set(network["id"])
        if tags:
            self.set_tags(tags)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff:
            self.to_api_names(prop_diff)
            self.prepare_update_properties(prop_diff)
            if self.TAGS in prop_diff:
                self.set_tags(prop_diff.pop(self.TAGS))
        if prop_diff:
            self.neutron().update(self.entity, self.resource_id, prop_diff)


RESOURCE_CLASSES = {"OS::Neutron::ProviderNet": ProviderNet}
