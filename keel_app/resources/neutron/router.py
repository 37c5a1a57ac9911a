"""OS::Neutron::Router and OS::Neutron::RouterInterface.

A router is made with its external gateway (the network, and the gateway's fixed IPs'
subnets, named by name or id), scheduled onto the L3 agents given and tagged; everything
but ``distributed``, ``ha`` and ``tenant_id`` changes in place. A router interface plugs
a router into a subnet or a port; its physical id is ``<router>:subnet_id=<subnet>``
(or ``port_id=``), as Heat writes it, and it is replaced by any change.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.resources.neutron.base import NeutronResource
from keel_app.resources.neutron.subnet import Subnet


class Router(NeutronResource):
    required_service_extension = "router"
    entity = "router"
    tags_collection = "routers"
    type_description = """\
A resource that implements Neutron router.

Router is a physical or virtual network device that passes network traffic
between different networks.
"""

    PROPERTIES = (
        NAME, EXTERNAL_GATEWAY, VALUE_SPECS, ADMIN_STATE_UP, L3_AGENT_ID, L3_AGENT_IDS,
        DISTRIBUTED, HA, AVAILABILITY_ZONE_HINTS, TAGS, TENANT_ID,
    ) = (
        "name", "external_gateway_info", "value_specs", "admin_state_up", "l3_agent_id",
        "l3_agent_ids", "distributed", "ha", "availability_zone_hints", "tags", "tenant_id",
    )  # fmt: skip
    GATEWAY_KEYS = (GATEWAY_NETWORK, GATEWAY_ENABLE_SNAT, GATEWAY_FIXED_IPS) = (
        "network",
        "enable_snat",
        "external_fixed_ips",
    )
    GATEWAY_FIXED_IP_KEYS = (IP_ADDRESS, SUBNET) = ("ip_address", "subnet")

    ATTRIBUTES = (
        STATUS,
        EXTERNAL_GATEWAY_INFO_ATTR,
        NAME_ATTR,
        ADMIN_STATE_UP_ATTR,
        TENANT_ID_ATTR,
    ) = (
        "status",
        "external_gateway_info",
        "name",
        "admin_state_up",
        "tenant_id",
    )

    properties_schema = {
        NAME: Schema(Schema.STRING, "The name of the router.", update_allowed=True),
        EXTERNAL_GATEWAY: Schema(
            Schema.MAP,
            "External network gateway configuration for a router.",
            schema={
                GATEWAY_NETWORK: Schema(
                    Schema.STRING,
                    "ID or name of the external network for the gateway.",
                    required=True,
                    update_allowed=True,
                ),
                GATEWAY_ENABLE_SNAT: Schema(
                    Schema.BOOLEAN,
                    "Enables Source NAT on the router gateway. NOTE: The default policy "
                    "setting in Neutron restricts usage of this property to administrative "
                    "users only.",
                    update_allowed=True,
                ),
                GATEWAY_FIXED_IPS: Schema(
                    Schema.LIST,
                    "External fixed IP addresses for the gateway.",
                    schema=Schema(
                        Schema.MAP,
                        schema={
                            IP_ADDRESS: Schema(
                                Schema.STRING,
                                "External fixed IP address.",
                                constraints=[constraints.CustomConstraint("ip_addr")],
                            ),
                            SUBNET: Schema(
                                Schema.STRING,
                                "Subnet of external fixed IP address.",
                                constraints=[constraints.CustomConstraint("neutron.subnet")],
                            ),
                        },
                    ),
                    update_allowed=True,
                    support_status=SupportStatus(version="6.0.0"),
                ),
            },
            update_allowed=True,
        ),
        VALUE_SPECS: Schema(
            Schema.MAP,
            "Extra parameters to include in the creation request.",
            default={},
            update_allowed=True,
        ),
        ADMIN_STATE_UP: Schema(
            Schema.BOOLEAN,
            "The administrative state of the router.",
            default=True,
            update_allowed=True,
        ),
        L3_AGENT_ID: Schema(
            Schema.STRING,
            "ID of the L3 agent. NOTE: The default policy setting in Neutron restricts "
            "usage of this property to administrative users only.",
            update_allowed=True,
            support_status=SupportStatus(
                status="HIDDEN",
                version="6.0.0",
                previous_status=SupportStatus(
                    status="DEPRECATED",
                    version="2015.1",
                    message="Use property l3_agent_ids.",
                    previous_status=SupportStatus(version="2014.1"),
                ),
            ),
        ),
        L3_AGENT_IDS: Schema(
            Schema.LIST,
            "ID list of the L3 agent. User can specify multi-agents for highly available "
            "router. NOTE: The default policy setting in Neutron restricts usage of this "
            "property to administrative users only.",
            schema=Schema(Schema.STRING),
            update_allowed=True,
            support_status=SupportStatus(version="2015.1"),
        ),
        DISTRIBUTED: Schema(
            Schema.BOOLEAN,
            "Indicates whether or not to create a distributed router. NOTE: The default "
            "policy setting in Neutron restricts usage of this property to administrative "
            "users only. This property can not be used in conjunction with the L3 agent ID.",
            support_status=SupportStatus(version="2015.1"),
        ),
        HA: Schema(
            Schema.BOOLEAN,
            "Indicates whether or not to create a highly available router. NOTE: The "
            "default policy setting in Neutron restricts usage of this property to "
            "administrative users only. And now neutron do not support distributed and ha "
            "at the same time.",
            support_status=SupportStatus(version="2015.1"),
        ),
        AVAILABILITY_ZONE_HINTS: Schema(
            Schema.LIST,
            "Availability zone candidates for the router. It requires the "
            "availability_zone extension to be available.",
            update_allowed=True,
            support_status=SupportStatus(version="19.0.0"),
        ),
        TAGS: Schema(
            Schema.LIST,
            "The tags to be added to the router.",
            schema=Schema(Schema.STRING),
            update_allowed=True,
            support_status=SupportStatus(version="9.0.0"),
        ),
        TENANT_ID: Schema(
            Schema.STRING,
            "The ID of the tenant which will own the router. Only administrative users can "
            "set the tenant identifier; this cannot be changed using authorization "
            "policies.",
            support_status=SupportStatus(version="24.0.0"),
        ),
    }

    attributes_schema = {
        STATUS: AttributeSchema("The status of the router.", type=AttributeSchema.STRING),
        EXTERNAL_GATEWAY_INFO_ATTR: AttributeSchema(
            "Gateway network for the router.", type=AttributeSchema.MAP
        ),
        NAME_ATTR: AttributeSchema("Friendly name of the router.", type=AttributeSchema.STRING),
        ADMIN_STATE_UP_ATTR: AttributeSchema(
            "Administrative state of the router.", type=AttributeSchema.STRING
        ),
        TENANT_ID_ATTR: AttributeSchema("Tenant owning the router.", type=AttributeSchema.STRING),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        rules = [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.EXTERNAL_GATEWAY, self.GATEWAY_NETWORK],
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity="network",
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.EXTERNAL_GATEWAY, self.GATEWAY_FIXED_IPS, self.SUBNET],
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity="subnet",
            ),
        ]
        if properties.get(self.L3_AGENT_ID):
            # The hidden single agent joins the list.
            rules += [
                TranslationRule(
                    properties,
                    TranslationRule.ADD,
                    [self.L3_AGENT_IDS],
                    [properties.get(self.L3_AGENT_ID)],
                ),
                TranslationRule(properties, TranslationRule.DELETE, [self.L3_AGENT_ID]),
            ]
        return rules

    def validate(self) -> Any:
        # Heat's override drops what its parent found in value_specs: not checked here.
        Resource.validate(self)
        distributed = self.properties[self.DISTRIBUTED]
        agent_id = self.properties[self.L3_AGENT_ID]
        agent_ids = self.properties[self.L3_AGENT_IDS]
        ha = self.properties[self.HA]
        if agent_id and agent_ids:
            raise exception.ResourcePropertyConflict(self.L3_AGENT_ID, self.L3_AGENT_IDS)
        if distributed and (agent_id or agent_ids):
            raise exception.ResourcePropertyConflict(
                self.DISTRIBUTED, f"{self.L3_AGENT_ID}/{self.L3_AGENT_IDS}"
            )
        if ha and distributed:
            raise exception.ResourcePropertyConflict(self.DISTRIBUTED, self.HA)
        if not ha and agent_ids and len(agent_ids) > 1:
            raise exception.StackValidationFailed(
                message="Non HA routers can only have one L3 agent."
            )
        return None

    def add_dependencies(self, deps: Any) -> None:
        # The gateway takes an address of a subnet of its network: subnets first.
        super().add_dependencies(deps)
        gateway = self.properties[self.EXTERNAL_GATEWAY]
        if not gateway:
            return
        for other in self.stack.resources.values():
            if not isinstance(other, Subnet):
                continue
            try:
                network = other.properties.get(Subnet.NETWORK)
            except (ValueError, TypeError):
                continue  # reported by validation, in its own context
            if network == gateway.get(self.GATEWAY_NETWORK):
                deps += (self, other)

    # Bodies

    def _resolve_gateway(self, body: dict[str, Any]) -> None:
        """The gateway as Neutron takes it: ``network_id``, unset keys left out."""
        if not body.get(self.EXTERNAL_GATEWAY):
            return
        gateway = body[self.EXTERNAL_GATEWAY] = dict(body[self.EXTERNAL_GATEWAY])
        gateway["network_id"] = gateway.pop(self.GATEWAY_NETWORK)
        if gateway[self.GATEWAY_ENABLE_SNAT] is None:
            del gateway[self.GATEWAY_ENABLE_SNAT]
        if gateway[self.GATEWAY_FIXED_IPS] is None:
            del gateway[self.GATEWAY_FIXED_IPS]
            return
        fixed_ips = []
        for fixed_ip in gateway[self.GATEWAY_FIXED_IPS]:
            entry = {key: value for key, value in fixed_ip.items() if value is not None}
            if self.SUBNET in entry:
                entry["subnet_id"] = entry.pop(self.SUBNET)
            fixed_ips.append(entry)
        gateway[self.GATEWAY_FIXED_IPS] = fixed_ips

    def _agent_ids(self, body: dict[str, Any]) -> list[str] | None:
        agent_id = body.pop(self.L3_AGENT_ID, None)
        agent_ids = body.pop(self.L3_AGENT_IDS, None)
        if not agent_ids and agent_id:
            return [agent_id]
        return agent_ids  # type: ignore[no-any-return]

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        self._resolve_gateway(body)
        agent_ids = self._agent_ids(body)
        tags = body.pop(self.TAGS, [])
        router = self.neutron().create(self.entity, body)
        self.resource_id_set(router["id"])
        if agent_ids:
            self._replace_agents(agent_ids)
        if tags:
            self.set_tags(tags)

    def check_create_complete(self, _token: Any = None) -> bool:
        return self.is_built(self._show_resource())

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if self.EXTERNAL_GATEWAY in prop_diff:
            self._resolve_gateway(prop_diff)
        if self.L3_AGENT_IDS in prop_diff or self.L3_AGENT_ID in prop_diff:
            self._replace_agents(self._agent_ids(prop_diff))
        if self.TAGS in prop_diff:
            self.set_tags(prop_diff.pop(self.TAGS))
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            self.neutron().update(self.entity, self.resource_id, prop_diff)

    def _replace_agents(self, agent_ids: list[str] | None) -> None:
        """Take the router off every L3 agent hosting it, then onto ``agent_ids``."""
        neutron = self.neutron()
        hosting = neutron.request("GET", f"routers/{self.resource_id}/l3-agents")
        for agent in hosting["agents"]:
            neutron.request("DELETE", f"agents/{agent['id']}/l3-routers/{self.resource_id}")
        for agent_id in agent_ids or []:
            neutron.request(
                "POST", f"agents/{agent_id}/l3-routers", {"router_id": self.resource_id}
            )


class RouterInterface(NeutronResource):
    required_service_extension = "router"
    type_description = """\
A resource for managing Neutron router interfaces.

Router interfaces associate routers with existing subnets or ports.
"""

    PROPERTIES = (ROUTER, ROUTER_ID, SUBNET_ID, SUBNET, PORT_ID, PORT) = (
        "router",
        "router_id",
        "subnet_id",
        "subnet",
        "port_id",
        "port",
    )

    properties_schema = {
        ROUTER: Schema(
            Schema.STRING,
            "The router.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.router")],
        ),
        ROUTER_ID: Schema(
            Schema.STRING,
            "ID of the router.",
            support_status=SupportStatus(
                status="HIDDEN",
                version="6.0.0",
                previous_status=SupportStatus(
                    status="DEPRECATED",
                    message="Use property router.",
                    version="2015.1",
                    previous_status=SupportStatus(version="2013.1"),
                ),
            ),
            constraints=[constraints.CustomConstraint("neutron.router")],
        ),
        SUBNET_ID: Schema(
            Schema.STRING,
            support_status=SupportStatus(
                status="HIDDEN",
                message="Use property subnet.",
                version="5.0.0",
                previous_status=SupportStatus(status="DEPRECATED", version="2014.2"),
            ),
            constraints=[constraints.CustomConstraint("neutron.subnet")],
        ),
        SUBNET: Schema(
            Schema.STRING,
            "The subnet, either subnet or port should be specified.",
            constraints=[constraints.CustomConstraint("neutron.subnet")],
        ),
        PORT_ID: Schema(
            Schema.STRING,
            "The port id, either subnet or port_id should be specified.",
            support_status=SupportStatus(
                status="HIDDEN",
                version="6.0.0",
                previous_status=SupportStatus(
                    status="DEPRECATED",
                    message="Use property port.",
                    version="2015.1",
                    previous_status=SupportStatus(version="2014.1"),
                ),
            ),
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
        PORT: Schema(
            Schema.STRING,
            "The port, either subnet or port should be specified.",
            support_status=SupportStatus(version="2015.1"),
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        rules = [
            TranslationRule(properties, TranslationRule.REPLACE, [new], value_path=[old])
            for new, old in (
                (self.PORT, self.PORT_ID),
                (self.ROUTER, self.ROUTER_ID),
                (self.SUBNET, self.SUBNET_ID),
            )
        ]
        rules += [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [name],
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity=entity,
            )
            for name, entity in (
                (self.PORT, "port"),
                (self.ROUTER, "router"),
                (self.SUBNET, "subnet"),
            )
        ]
        return rules

    def validate(self) -> Any:
        # Heat's override drops what its parent found in value_specs: not checked here.
        Resource.validate(self)
        has_subnet = self.properties.get(self.SUBNET) is not None
        has_port = self.properties.get(self.PORT) is not None
        if has_subnet and has_port:
            raise exception.ResourcePropertyConflict(self.SUBNET, self.PORT)
        if not has_subnet and not has_port:
            raise exception.PropertyUnspecifiedError(self.SUBNET, self.PORT)
        return None

    def handle_create(self) -> None:
        properties = dict(self.properties)
        router_id = properties.get(self.ROUTER)
        key, value = "subnet_id", properties.get(self.SUBNET)
        if not value:
            key, value = "port_id", properties.get(self.PORT)
        self.neutron().add_interface_router(router_id, {key: value})
        self.resource_id_set(f"{router_id}:{key}={value}")

    def handle_delete(self) -> None:
        if not self.resource_id:
            return
        parts = self.resource_id.replace("=", ":").split(":")
        if len(parts) == 2:
            # Written by old Heat releases: "<router>:<subnet>".
            parts.insert(1, "subnet_id")
        router_id, key, value = parts
        with self.neutron().ignore_not_found():
            self.neutron().remove_interface_router(router_id, {key: value})

    def needs_replace_failed(self) -> bool:
        # Nothing of its own to look at in Neutron: a failed interface is made again.
        return True


RESOURCE_CLASSES = {
    "OS::Neutron::Router": Router,
    "OS::Neutron::RouterInterface": RouterInterface,
}
