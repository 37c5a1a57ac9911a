"""OS::Neutron::Net: a Neutron network.

Created from its properties (the QoS policy resolved to an id, DHCP agents scheduled and
tags set after the network exists) and complete once Neutron reports it ACTIVE or DOWN.
Every property but ``tenant_id`` and ``availability_zone_hints`` changes in place.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.neutron.base import NeutronResource


class Net(NeutronResource):
    entity = "network"
    tags_collection = "networks"
    type_description = """\
A resource for managing Neutron net.

A network is a virtual isolated layer-2 broadcast domain which is typically
reserved to the tenant who created it, unless the network has been
explicitly configured to be shared.
"""

    PROPERTIES = (
        NAME,
        VALUE_SPECS,
        ADMIN_STATE_UP,
        TENANT_ID,
        SHARED,
        DHCP_AGENT_IDS,
        PORT_SECURITY_ENABLED,
        QOS_POLICY,
        DNS_DOMAIN,
        AVAILABILITY_ZONE_HINTS,
        TAGS,
    ) = (
        "name",
        "value_specs",
        "admin_state_up",
        "tenant_id",
        "shared",
        "dhcp_agent_ids",
        "port_security_enabled",
        "qos_policy",
        "dns_domain",
        "availability_zone_hints",
        "tags",
    )

    ATTRIBUTES = (
        STATUS,
        NAME_ATTR,
        SUBNETS,
        ADMIN_STATE_UP_ATTR,
        TENANT_ID_ATTR,
        PORT_SECURITY_ENABLED_ATTR,
        MTU_ATTR,
        QOS_POLICY_ATTR,
        L2_ADJACENCY,
        SEGMENTS,
    ) = (
        "status",
        "name",
        "subnets",
        "admin_state_up",
        "tenant_id",
        "port_security_enabled",
        "mtu",
        "qos_policy_id",
        "l2_adjacency",
        "segments",
    )

    properties_schema = {
        NAME: Schema(
            Schema.STRING,
            "A string specifying a symbolic name for the network, which is not required "
            "to be unique.",
            update_allowed=True,
        ),
        VALUE_SPECS: Schema(
            Schema.MAP,
            "Extra parameters to include in the request. Parameters are often specific "
            "to installed hardware or extensions.",
            default={},
            update_allowed=True,
        ),
        ADMIN_STATE_UP: Schema(
            Schema.BOOLEAN,
            "A boolean value specifying the administrative status of the network.",
            default=True,
            update_allowed=True,
        ),
        TENANT_ID: Schema(
            Schema.STRING,
            "The ID of the tenant which will own the network. Only administrative users "
            "can set the tenant identifier; this cannot be changed using authorization "
            "policies.",
        ),
        SHARED: Schema(
            Schema.BOOLEAN,
            "Whether this network should be shared across all tenants. Note that the "
            "default policy setting restricts usage of this attribute to administrative "
            "users only.",
            default=False,
            update_allowed=True,
        ),
        DHCP_AGENT_IDS: Schema(
            Schema.LIST,
            "The IDs of the DHCP agent to schedule the network. Note that the default "
            "policy setting in Neutron restricts usage of this property to administrative "
            "users only.",
            update_allowed=True,
        ),
        PORT_SECURITY_ENABLED: Schema(
            Schema.BOOLEAN,
            "Flag to enable/disable port security on the network. It provides the "
            "default value for the attribute of the ports created on this network.",
            update_allowed=True,
            support_status=SupportStatus(version="5.0.0"),
        ),
        QOS_POLICY: Schema(
            Schema.STRING,
            "The name or ID of QoS policy to attach to this network.",
            constraints=[constraints.CustomConstraint("neutron.qos_policy")],
            update_allowed=True,
            support_status=SupportStatus(version="6.0.0"),
        ),
        DNS_DOMAIN: Schema(
            Schema.STRING,
            "DNS domain associated with this network.",
            constraints=[constraints.CustomConstraint("dns_domain")],
            update_allowed=True,
            support_status=SupportStatus(version="7.0.0"),
        ),
        AVAILABILITY_ZONE_HINTS: Schema(
            Schema.LIST,
            "Availability zone candidates for the network. It requires the "
            "availability_zone extension to be available.",
            support_status=SupportStatus(version="19.0.0"),
        ),
        TAGS: Schema(
            Schema.LIST,
            "The tags to be added to the network.",
            schema=Schema(Schema.STRING),
            update_allowed=True,
            support_status=SupportStatus(version="9.0.0"),
        ),
    }

    attributes_schema = {
        STATUS: AttributeSchema("The status of the network.", type=AttributeSchema.STRING),
        NAME_ATTR: AttributeSchema("The name of the network.", type=AttributeSchema.STRING),
        SUBNETS: AttributeSchema("Subnets of this network.", type=AttributeSchema.LIST),
        ADMIN_STATE_UP_ATTR: AttributeSchema(
            "The administrative status of the network.", type=AttributeSchema.STRING
        ),
        TENANT_ID_ATTR: AttributeSchema(
            "The tenant owning this network.", type=AttributeSchema.STRING
        ),
        PORT_SECURITY_ENABLED_ATTR: AttributeSchema(
            "Port security enabled of the network.",
            support_status=SupportStatus(version="5.0.0"),
            type=AttributeSchema.BOOLEAN,
        ),
        MTU_ATTR: AttributeSchema(
            "The maximum transmission unit size(in bytes) for the network.",
            support_status=SupportStatus(version="5.0.0"),
            type=AttributeSchema.INTEGER,
        ),
        QOS_POLICY_ATTR: AttributeSchema(
            "The QoS policy ID attached to this network.",
            type=AttributeSchema.STRING,
            support_status=SupportStatus(version="6.0.0"),
        ),
        L2_ADJACENCY: AttributeSchema(
            "A boolean value for L2 adjacency, True means that you can expect L2 "
            "connectivity throughout the Network.",
            type=AttributeSchema.BOOLEAN,
            support_status=SupportStatus(version="9.0.0"),
        ),
        SEGMENTS: AttributeSchema(
            "The segments of this network.",
            type=AttributeSchema.LIST,
            support_status=SupportStatus(version="11.0.0"),
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.QOS_POLICY],
                client_plugin=self.resolving_plugin(),
                finder="get_qos_policy_id",
            )
        ]

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        dhcp_agent_ids = body.pop(self.DHCP_AGENT_IDS, None)
        qos_policy = body.pop(self.QOS_POLICY, None)
        tags = body.pop(self.TAGS, [])
        if qos_policy:
            body["qos_policy_id"] = qos_policy
        network = self.neutron().create(self.entity, body)
        self.resource_id_set(network["id"])
        if dhcp_agent_ids:
            self._replace_dhcp_agents(dhcp_agent_ids)
        if tags:
            self.set_tags(tags)

    def check_create_complete(self, _token: Any = None) -> bool:
        attributes = self._show_resource()
        self.store_config_defaults(attributes)
        return self.is_built(attributes)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            if self.DHCP_AGENT_IDS in prop_diff:
                self._replace_dhcp_agents(prop_diff.pop(self.DHCP_AGENT_IDS) or [])
            if self.QOS_POLICY in prop_diff:
                policy = prop_diff.pop(self.QOS_POLICY)
                prop_diff["qos_policy_id"] = (
                    self.neutron().get_qos_policy_id(policy) if policy else None
                )
            if self.TAGS in prop_diff:
                self.set_tags(prop_diff.pop(self.TAGS))
        if prop_diff:
            self.neutron().update(self.entity, self.resource_id, prop_diff)

    def check_update_complete(self, _token: Any = None) -> bool:
        return self.is_built(self._show_resource())

    def _replace_dhcp_agents(self, agent_ids: list[str]) -> None:
        neutron = self.neutron()
        hosting = neutron.request("GET", f"networks/{self.resource_id}/dhcp-agents")
        old = {agent["id"] for agent in hosting["agents"]}
        new = set(agent_ids)
        for agent_id in new - old:
            # Already scheduled there (a conflict) is what was wanted.
            with neutron.ignore_conflict():
                neutron.request(
                    "POST", f"agents/{agent_id}/dhcp-networks", {"network_id": self.resource_id}
                )
        for agent_id in old - new:
            # Gone, or not scheduled there: nothing left to undo.
            with neutron.ignore_conflict_and_not_found():
                neutron.request("DELETE", f"agents/{agent_id}/dhcp-networks/{self.resource_id}")

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == self.SEGMENTS:
            segments = self.neutron().list("segment", network_id=self.resource_id)
            # Unnamed segments first, as Heat sorts them.
            return sorted(segments, key=lambda segment: segment.get("name") is not None)
        return self._show_resource().get(name)


RESOURCE_CLASSES = {"OS::Neutron::Net": Net}
