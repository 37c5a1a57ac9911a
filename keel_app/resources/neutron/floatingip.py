"""OS::Neutron::FloatingIP and OS::Neutron::FloatingIPAssociation.

A floating IP is allocated on an external network (and subnet), named by name or id, and
optionally bound to a port; the port, the fixed address it maps to and the DNS name and
domain change in place. An association binds an existing floating IP to a port, moves
it on update, and unbinds it on delete; its physical id is its own resource row's id,
as Heat writes it.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.resources.neutron.base import NeutronResource
from keel_app.resources.neutron.port import Port
from keel_app.resources.neutron.router import Router, RouterInterface

LOG = logging.getLogger(__name__)


def _interface_subnet(interface: Any) -> Any:
    return interface.properties.get(RouterInterface.SUBNET) or interface.properties.get(
        RouterInterface.SUBNET_ID
    )


def _port_subnets(port: Any) -> list[Any]:
    return [
        fixed_ip.get(Port.FIXED_IP_SUBNET) or fixed_ip.get(Port.FIXED_IP_SUBNET_ID)
        for fixed_ip in port.properties.get(Port.FIXED_IPS) or []
    ]


def _required_ports(resource: Any, deps: Any) -> list[Any]:
    """The ports of the template that ``resource`` already requires."""
    return [required for required in deps.graph()[resource] if isinstance(required, Port)]


def depend_on_router_interfaces(resource: Any, deps: Any) -> None:
    """Make ``resource`` wait for the template's router interfaces on the subnet of a port
    it requires: the port's subnet must be plugged into a router before an address binds
    (Heat looks at a port's first fixed IP only)."""
    for other in resource.stack.resources.values():
        if not isinstance(other, RouterInterface):
            continue
        subnet = _interface_subnet(other)
        for port in _required_ports(resource, deps):
            subnets = _port_subnets(port)
            if subnets and subnets[0] == subnet:
                deps += (resource, other)
                break


class FloatingIP(NeutronResource):
    entity = "floatingip"
    type_description = """\
A resource for managing Neutron floating ips.

Floating IP addresses can change their association between routers by
action of the user. One of the most common use cases for floating IPs is
to provide public IP addresses to a private cloud, where there are a
limited number of IP addresses available. Another is for a public cloud
user to have a "static" IP address that can be reassigned when an instance
is upgraded or moved.
"""

    PROPERTIES = (
        FLOATING_NETWORK_ID, FLOATING_NETWORK, FLOATING_SUBNET, VALUE_SPECS, PORT_ID,
        FIXED_IP_ADDRESS, FLOATING_IP_ADDRESS, DNS_NAME, DNS_DOMAIN,
    ) = (
        "floating_network_id", "floating_network", "floating_subnet", "value_specs",
        "port_id", "fixed_ip_address", "floating_ip_address", "dns_name", "dns_domain",
    )  # fmt: skip

    ATTRIBUTES = (
        ROUTER_ID, TENANT_ID, FLOATING_NETWORK_ID_ATTR, FIXED_IP_ADDRESS_ATTR,
        FLOATING_IP_ADDRESS_ATTR, PORT_ID_ATTR,
    ) = (
        "router_id", "tenant_id", "floating_network_id", "fixed_ip_address",
        "floating_ip_address", "port_id",
    )  # fmt: skip

    properties_schema = {
        FLOATING_NETWORK_ID: Schema(
            Schema.STRING,
            support_status=SupportStatus(
                status="HIDDEN",
                version="5.0.0",
                message="Use property floating_network.",
                previous_status=SupportStatus(status="DEPRECATED", version="2014.2"),
            ),
            constraints=[constraints.CustomConstraint("neutron.network")],
        ),
        FLOATING_NETWORK: Schema(
            Schema.STRING,
            "Network to allocate floating IP from.",
            support_status=SupportStatus(version="2014.2"),
            required=True,
            constraints=[constraints.CustomConstraint("neutron.network")],
        ),
        FLOATING_SUBNET: Schema(
            Schema.STRING,
            "Subnet to allocate floating IP from.",
            support_status=SupportStatus(version="9.0.0"),
            constraints=[constraints.CustomConstraint("neutron.subnet")],
        ),
        VALUE_SPECS: Schema(
            Schema.MAP,
            'Extra parameters to include in the "floatingip" object in the creation '
            "request. Parameters are often specific to installed hardware or extensions.",
            default={},
        ),
        PORT_ID: Schema(
            Schema.STRING,
            "ID of an existing port with at least one IP address to associate with this "
            "floating IP.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
        FIXED_IP_ADDRESS: Schema(
            Schema.STRING,
            "IP address to use if the port has multiple addresses.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("ip_addr")],
        ),
        FLOATING_IP_ADDRESS: Schema(
            Schema.STRING,
            "IP address of the floating IP. NOTE: The default policy setting in Neutron "
            "restricts usage of this property to administrative users only.",
            constraints=[constraints.CustomConstraint("ip_addr")],
            support_status=SupportStatus(version="5.0.0"),
        ),
        DNS_NAME: Schema(
            Schema.STRING,
            "DNS name associated with floating ip.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("rel_dns_name")],
            support_status=SupportStatus(version="7.0.0"),
        ),
        DNS_DOMAIN: Schema(
            Schema.STRING,
            "DNS domain associated with floating ip.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("dns_domain")],
            support_status=SupportStatus(version="7.0.0"),
        ),
    }

    attributes_schema = {
        ROUTER_ID: AttributeSchema(
            "ID of the router used as gateway, set when associated with a port.",
            type=AttributeSchema.STRING,
        ),
        TENANT_ID: AttributeSchema(
            "The tenant owning this floating IP.", type=AttributeSchema.STRING
        ),
        FLOATING_NETWORK_ID_ATTR: AttributeSchema(
            "ID of the network in which this IP is allocated.", type=AttributeSchema.STRING
        ),
        FIXED_IP_ADDRESS_ATTR: AttributeSchema(
            "IP address of the associated port, if specified.",
            type=AttributeSchema.STRING,
            cache_mode=AttributeSchema.CACHE_NONE,
        ),
        FLOATING_IP_ADDRESS_ATTR: AttributeSchema(
            "The allocated address of this IP.", type=AttributeSchema.STRING
        ),
        PORT_ID_ATTR: AttributeSchema(
            "ID of the port associated with this IP.",
            type=AttributeSchema.STRING,
            cache_mode=AttributeSchema.CACHE_NONE,
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        return [
            TranslationRule(
                properties,
                TranslationRule.REPLACE,
                [self.FLOATING_NETWORK],
                value_path=[self.FLOATING_NETWORK_ID],
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.FLOATING_NETWORK],
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity="network",
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.FLOATING_SUBNET],
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity="subnet",
            ),
        ]

    def add_dependencies(self, deps: Any) -> None:
        # The address is reachable once the external network is a router's gateway and
        # the port's subnet is plugged into a router.
        super().add_dependencies(deps)
        for other in self.stack.resources.values():
            try:
                if isinstance(other, RouterInterface):
                    subnet = _interface_subnet(other)
                    if any(
                        self._port_on_subnet(port, subnet) for port in _required_ports(self, deps)
                    ):
                        deps += (self, other)
                elif isinstance(other, Router):
                    gateway = other.properties.get(Router.EXTERNAL_GATEWAY)
                    network = self.properties[self.FLOATING_NETWORK]
                    if gateway and gateway.get(Router.GATEWAY_NETWORK) == network:
                        deps += (self, other)
            except (ValueError, TypeError):
                continue  # reported by validation, in its own context

    def _port_on_subnet(self, port: Any, subnet: Any) -> bool:
        if _port_subnets(port):
            return subnet in _port_subnets(port)
        # A port without fixed IPs may be on any subnet of its network.
        if subnet is None:
            return True
        network = port.properties.get(Port.NETWORK) or port.properties.get(Port.NETWORK_ID)
        if not network:
            return False
        try:
            return subnet in self.neutron().show("network", network)["subnets"]
        except Exception as error:
            LOG.info("Ignoring Neutron error while getting FloatingIP dependencies: %s", error)
            return False

    def validate(self) -> Any:
        # Heat's override drops what its parent found in value_specs: not checked here.
        Resource.validate(self)
        if (
            self.properties[self.PORT_ID] is None
            and self.properties[self.FIXED_IP_ADDRESS] is not None
        ):
            raise exception.ResourcePropertyDependency(
                prop1=self.FIXED_IP_ADDRESS, prop2=self.PORT_ID
            )
        return None

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        body["floating_network_id"] = body.pop(self.FLOATING_NETWORK)
        if self.FLOATING_SUBNET in body:
            body["subnet_id"] = body.pop(self.FLOATING_SUBNET)
        floating_ip = self.neutron().create(self.entity, body)
        self.resource_id_set(floating_ip["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        # Heat sends the binding only, whatever else changed.
        port_id = prop_diff.get(self.PORT_ID, self.properties[self.PORT_ID])
        fixed_ip = prop_diff.get(self.FIXED_IP_ADDRESS, self.properties[self.FIXED_IP_ADDRESS])
        self.neutron().update(
            self.entity, self.resource_id, {"port_id": port_id, "fixed_ip_address": fixed_ip}
        )


class FloatingIPAssociation(NeutronResource):
    type_description = """\
A resource for associating floating ips and ports.

This resource allows associating a floating IP to a port with at least one
IP address to associate with this floating IP.
"""

    PROPERTIES = (FLOATINGIP_ID, PORT_ID, FIXED_IP_ADDRESS) = (
        "floatingip_id",
        "port_id",
        "fixed_ip_address",
    )

    properties_schema = {
        FLOATINGIP_ID: Schema(
            Schema.STRING,
            "ID of the floating IP to associate.",
            required=True,
            update_allowed=True,
        ),
        PORT_ID: Schema(
            Schema.STRING,
            "ID of an existing port with at least one IP address to associate with this "
            "floating IP.",
            required=True,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("neutron.port")],
        ),
        FIXED_IP_ADDRESS: Schema(
            Schema.STRING,
            "IP address to use if the port has multiple addresses.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("ip_addr")],
        ),
    }

    def add_dependencies(self, deps: Any) -> None:
        super().add_dependencies(deps)
        depend_on_router_interfaces(self, deps)

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.name)
        floating_ip_id = body.pop(self.FLOATINGIP_ID)
        self.neutron().update("floatingip", floating_ip_id, body)
        self.resource_id_set(self.id)

    def handle_delete(self) -> None:
        if not self.resource_id:
            return
        with self.neutron().ignore_not_found():
            self.neutron().update(
                "floatingip", self.properties[self.FLOATINGIP_ID], {"port_id": None}
            )

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        floating_ip_id = self.properties[self.FLOATINGIP_ID]
        if self.FLOATINGIP_ID in prop_diff:
            # Another address: the old one lets go of the port first.
            with self.neutron().ignore_not_found():
                self.neutron().update("floatingip", floating_ip_id, {"port_id": None})
        floating_ip_id = prop_diff.get(self.FLOATINGIP_ID) or floating_ip_id
        port_id = prop_diff.get(self.PORT_ID) or self.properties[self.PORT_ID]
        fixed_ip = prop_diff.get(self.FIXED_IP_ADDRESS) or self.properties[self.FIXED_IP_ADDRESS]
        self.neutron().update(
            "floatingip", floating_ip_id, {"port_id": port_id, "fixed_ip_address": fixed_ip}
        )
        self.resource_id_set(self.id)

    def needs_replace_failed(self) -> bool:
        return True


RESOURCE_CLASSES = {
    "OS::Neutron::FloatingIP": FloatingIP,
    "OS::Neutron::FloatingIPAssociation": FloatingIPAssociation,
}
