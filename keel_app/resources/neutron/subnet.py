"""OS::Neutron::Subnet: an IP address block of a Neutron network.

Made from a CIDR, or from a subnet pool (with an optional prefix length); the network,
pool and segment are named by name or id and resolved to ids before the call. A gateway
of ``null``, ``~`` or ``""`` makes a subnet without a gateway, ``auto`` (create only)
lets Neutron choose. Names, DNS servers, the gateway, DHCP, allocation pools, host
routes, a first segment and tags change in place; the rest replaces the subnet.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.resources.neutron.base import NeutronResource

IPV6_MODES = ("dhcpv6-stateful", "dhcpv6-stateless", "slaac")
# The gateway values meaning "no gateway" (``~`` and null reach us as "").
NO_GATEWAY_VALUES = ("~", "", "auto")


def is_ip_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def hidden_since(version: str, use: str, deprecated_in: str) -> SupportStatus:
    """A deprecated property's status once hidden, pointing at its replacement."""
    return SupportStatus(
        status="HIDDEN",
        version=version,
        message=f"Use property {use}.",
        previous_status=SupportStatus(status="DEPRECATED", version=deprecated_in),
    )


class Subnet(NeutronResource):
    entity = "subnet"
    tags_collection = "subnets"
    type_description = """\
A resource for managing Neutron subnets.

A subnet represents an IP address block that can be used for assigning IP
addresses to virtual instances. Each subnet must have a CIDR and must be
associated with a network. IPs can be either selected from the whole subnet
CIDR, or from "allocation pools" that can be specified by the user.
"""

    PROPERTIES = (
        NETWORK_ID, NETWORK, SUBNETPOOL, PREFIXLEN, CIDR, VALUE_SPECS, NAME, IP_VERSION,
        DNS_NAMESERVERS, GATEWAY_IP, ENABLE_DHCP, ALLOCATION_POOLS, TENANT_ID,
        HOST_ROUTES, IPV6_RA_MODE, IPV6_ADDRESS_MODE, SEGMENT, TAGS,
    ) = (
        "network_id", "network", "subnetpool", "prefixlen", "cidr", "value_specs", "name",
        "ip_version", "dns_nameservers", "gateway_ip", "enable_dhcp", "allocation_pools",
        "tenant_id", "host_routes", "ipv6_ra_mode", "ipv6_address_mode", "segment", "tags",
    )  # fmt: skip

    ATTRIBUTES = (
        NAME_ATTR, NETWORK_ID_ATTR, TENANT_ID_ATTR, ALLOCATION_POOLS_ATTR, GATEWAY_IP_ATTR,
        HOST_ROUTES_ATTR, IP_VERSION_ATTR, CIDR_ATTR, DNS_NAMESERVERS_ATTR, ENABLE_DHCP_ATTR,
    ) = (
        "name", "network_id", "tenant_id", "allocation_pools", "gateway_ip", "host_routes",
        "ip_version", "cidr", "dns_nameservers", "enable_dhcp",
    )  # fmt: skip

    properties_schema = {
        NETWORK_ID: Schema(
            Schema.STRING,
            support_status=hidden_since("5.0.0", NETWORK, "2014.2"),
            constraints=[constraints.CustomConstraint("neutron.network")],
        ),
        NETWORK: Schema(
            Schema.STRING,
            "The ID of the attached network.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.network")],
            support_status=SupportStatus(version="2014.2"),
        ),
        SUBNETPOOL: Schema(
            Schema.STRING,
            "The name or ID of the subnet pool.",
            constraints=[constraints.CustomConstraint("neutron.subnetpool")],
            support_status=SupportStatus(version="6.0.0"),
        ),
        PREFIXLEN: Schema(
            Schema.INTEGER,
            "Prefix length for subnet allocation from subnet pool.",
            constraints=[constraints.Range(min=0)],
            support_status=SupportStatus(version="6.0.0"),
        ),
        CIDR: Schema(
            Schema.STRING,
            "The CIDR.",
            constraints=[constraints.CustomConstraint("net_cidr")],
        ),
        VALUE_SPECS: Schema(
            Schema.MAP,
            "Extra parameters to include in the request.",
            default={},
            update_allowed=True,
        ),
        NAME: Schema(Schema.STRING, "The name of the subnet.", update_allowed=True),
        IP_VERSION: Schema(
            Schema.INTEGER,
            "The IP version, which is 4 or 6.",
            default=4,
            constraints=[constraints.AllowedValues([4, 6])],
        ),
        DNS_NAMESERVERS: Schema(
            Schema.LIST,
            "A specified set of DNS name servers to be used.",
            default=[],
            update_allowed=True,
        ),
        GATEWAY_IP: Schema(
            Schema.STRING,
            'The gateway IP address. Set to any of [ null | ~ | "" ] to create/update a '
            "subnet without a gateway. If omitted when creation, neutron will assign the "
            "first free IP address within the subnet to the gateway automatically. If "
            "remove this from template when update, the old gateway IP address will be "
            "detached.",
            update_allowed=True,
        ),
        ENABLE_DHCP: Schema(
            Schema.BOOLEAN,
            "Set to true if DHCP is enabled and false if DHCP is disabled.",
            default=True,
            update_allowed=True,
        ),
        ALLOCATION_POOLS: Schema(
            Schema.LIST,
            "The start and end addresses for the allocation pools.",
            schema=Schema(
                Schema.MAP,
                schema={
                    "start": Schema(
                        Schema.STRING,
                        "Start address for the allocation pool.",
                        required=True,
                        constraints=[constraints.CustomConstraint("ip_addr")],
                    ),
                    "end": Schema(
                        Schema.STRING,
                        "End address for the allocation pool.",
                        required=True,
                        constraints=[constraints.CustomConstraint("ip_addr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        TENANT_ID: Schema(
            Schema.STRING,
            "The ID of the tenant who owns the network. Only administrative users can "
            "specify a tenant ID other than their own.",
        ),
        HOST_ROUTES: Schema(
            Schema.LIST,
            "A list of host route dictionaries for the subnet.",
            schema=Schema(
                Schema.MAP,
                schema={
                    "destination": Schema(
                        Schema.STRING,
                        "The destination for static route.",
                        required=True,
                        constraints=[constraints.CustomConstraint("net_cidr")],
                    ),
                    "nexthop": Schema(
                        Schema.STRING,
                        "The next hop for the destination.",
                        required=True,
                        constraints=[constraints.CustomConstraint("ip_addr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        IPV6_RA_MODE: Schema(
            Schema.STRING,
            "IPv6 RA (Router Advertisement) mode.",
            constraints=[constraints.AllowedValues(list(IPV6_MODES))],
            support_status=SupportStatus(version="2015.1"),
        ),
        IPV6_ADDRESS_MODE: Schema(
            Schema.STRING,
            "IPv6 address mode.",
            constraints=[constraints.AllowedValues(list(IPV6_MODES))],
            support_status=SupportStatus(version="2015.1"),
        ),
        SEGMENT: Schema(
            Schema.STRING,
            "The name/ID of the segment to associate.",
            constraints=[constraints.CustomConstraint("neutron.segment")],
            update_allowed=True,
            support_status=SupportStatus(
                version="11.0.0",
                message="Update allowed since version 11.0.0.",
                previous_status=SupportStatus(version="9.0.0"),
            ),
        ),
        TAGS: Schema(
            Schema.LIST,
            "The tags to be added to the subnet.",
            schema=Schema(Schema.STRING),
            update_allowed=True,
            support_status=SupportStatus(version="9.0.0"),
        ),
    }

    attributes_schema = {
        NAME_ATTR: AttributeSchema("Friendly name of the subnet.", type=AttributeSchema.STRING),
        NETWORK_ID_ATTR: AttributeSchema(
            "Parent network of the subnet.", type=AttributeSchema.STRING
        ),
        TENANT_ID_ATTR: AttributeSchema("Tenant owning the subnet.", type=AttributeSchema.STRING),
        ALLOCATION_POOLS_ATTR: AttributeSchema(
            "Ip allocation pools and their ranges.", type=AttributeSchema.LIST
        ),
        GATEWAY_IP_ATTR: AttributeSchema(
            "Ip of the subnet's gateway.", type=AttributeSchema.STRING
        ),
        HOST_ROUTES_ATTR: AttributeSchema(
            "Additional routes for this subnet.", type=AttributeSchema.LIST
        ),
        IP_VERSION_ATTR: AttributeSchema("Ip version for the subnet.", type=AttributeSchema.STRING),
        CIDR_ATTR: AttributeSchema(
            "CIDR block notation for this subnet.", type=AttributeSchema.STRING
        ),
        DNS_NAMESERVERS_ATTR: AttributeSchema(
            "List of dns nameservers.", type=AttributeSchema.LIST
        ),
        ENABLE_DHCP_ATTR: AttributeSchema(
            "'true' if DHCP is enabled for this subnet; 'false' otherwise.",
            type=AttributeSchema.STRING,
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        return [
            TranslationRule(
                properties, TranslationRule.REPLACE, [self.NETWORK], value_path=[self.NETWORK_ID]
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.NETWORK],
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity="network",
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.SUBNETPOOL],
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity="subnetpool",
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.SEGMENT],
                client_plugin=plugin,
                finder="find_network_segment",
            ),
        ]

    def validate(self) -> Any:
        # Heat's override drops what its parent found in value_specs: not checked here.
        Resource.validate(self)
        pool = self.properties[self.SUBNETPOOL]
        prefix_length = self.properties[self.PREFIXLEN]
        cidr = self.properties[self.CIDR]
        if pool is not None and cidr:
            raise exception.ResourcePropertyConflict(self.SUBNETPOOL, self.CIDR)
        if pool is None and not cidr:
            raise exception.PropertyUnspecifiedError(self.SUBNETPOOL, self.CIDR)
        if prefix_length and cidr:
            raise exception.ResourcePropertyConflict(self.PREFIXLEN, self.CIDR)
        ra_mode = self.properties[self.IPV6_RA_MODE]
        address_mode = self.properties[self.IPV6_ADDRESS_MODE]
        if self.properties[self.IP_VERSION] == 4 and (ra_mode or address_mode):
            raise exception.StackValidationFailed(
                message="ipv6_ra_mode and ipv6_address_mode are not supported for ipv4."
            )
        if ra_mode and address_mode and ra_mode != address_mode:
            raise exception.StackValidationFailed(
                message="When both ipv6_ra_mode and ipv6_address_mode are set, they must be equal."
            )
        gateway = self.properties.get(self.GATEWAY_IP)
        if gateway and gateway not in NO_GATEWAY_VALUES and not is_ip_address(gateway):
            # Heat passes its message and the value as a pair, shown as the pair's repr.
            pair = ('Gateway IP address "%(gateway)s" is in invalid format.', gateway)
            raise exception.StackValidationFailed(message=str(pair))
        return None

    @classmethod
    def normalize_gateway(cls, body: dict[str, Any]) -> None:
        """An empty gateway is no gateway (None for Neutron); ``auto`` is Neutron's pick."""
        if cls.GATEWAY_IP not in body:
            return
        if body[cls.GATEWAY_IP] == "":
            body[cls.GATEWAY_IP] = None
        if body.get(cls.GATEWAY_IP) == "auto":
            del body[cls.GATEWAY_IP]

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        body["network_id"] = body.pop(self.NETWORK)
        if body.get(self.SEGMENT):
            body["segment_id"] = body.pop(self.SEGMENT)
        tags = body.pop(self.TAGS, [])
        if body.get(self.SUBNETPOOL):
            body["subnetpool_id"] = body.pop(self.SUBNETPOOL)
        self.normalize_gateway(body)
        subnet = self.neutron().create(self.entity, body)
        self.resource_id_set(subnet["id"])
        if tags:
            self.set_tags(tags)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        self.prepare_update_properties(prop_diff)
        if self.ALLOCATION_POOLS in prop_diff and prop_diff[self.ALLOCATION_POOLS] is None:
            prop_diff[self.ALLOCATION_POOLS] = []
        if prop_diff.get(self.SEGMENT):
            if self.properties[self.SEGMENT] is not None:
                raise exception.ResourceActionNotSupported(
                    action="Updating the subnet segment assciation only allowed when the "
                    "current segment_id is None. The subnet is currently associated with "
                    "segment. In this state update"
                )
            prop_diff["segment_id"] = prop_diff.pop(self.SEGMENT)
        if prop_diff.get(self.GATEWAY_IP) == "auto":
            raise exception.ResourceActionNotSupported(
                action='The value "auto" for gateway_ip cannot be used to update an existing '
                "subnet. It is only supported during subnet creation."
            )
        self.normalize_gateway(prop_diff)
        if self.TAGS in prop_diff:
            self.set_tags(prop_diff.pop(self.TAGS))
        self.neutron().update(self.entity, self.resource_id, prop_diff)


RESOURCE_CLASSES = {"OS::Neutron::Subnet": Subnet}
