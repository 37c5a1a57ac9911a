"""OS::Neutron::Port: a port on a Neutron network.

The network and the fixed IPs' subnets are named by name or id and resolved to ids;
security groups by name or id too (``[]`` means none, leaving them out means the
project's default group). A port with a ``replacement_policy`` of REPLACE_ALWAYS is
replaced by every stack update; otherwise everything but the network, the MAC address
and the hidden ``network_id`` changes in place. ``binding:profile`` in ``value_specs``
is merged with what Neutron holds on update, so that the keys Neutron manages stay.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.resources.neutron.base import NeutronResource
from keel_app.resources.neutron.subnet import Subnet, hidden_since

LOG = logging.getLogger(__name__)

VNIC_TYPES = (
    "normal", "direct", "macvtap", "direct-physical", "baremetal", "virtio-forwarder",
    "smart-nic",
)  # fmt: skip
BINDING_PROFILE = "binding:profile"


class Port(NeutronResource):
    entity = "port"
    tags_collection = "ports"
    type_description = """\
A resource for managing Neutron ports.

A port represents a virtual switch port on a logical network switch.
Virtual instances attach their interfaces into ports. The logical port also
defines the MAC address and the IP address(es) to be assigned to the
interfaces plugged into them. When IP addresses are associated to a port,
this also implies the port is associated with a subnet, as the IP address
was taken from the allocation pool for a specific subnet.
"""

    PROPERTIES = (
        NAME, NETWORK_ID, NETWORK, FIXED_IPS, SECURITY_GROUPS, REPLACEMENT_POLICY,
        DEVICE_ID, DEVICE_OWNER, DNS_NAME, TAGS,
    ) = (
        "name", "network_id", "network", "fixed_ips", "security_groups",
        "replacement_policy", "device_id", "device_owner", "dns_name", "tags",
    )  # fmt: skip

    EXTRA_PROPERTIES = (
        VALUE_SPECS, ADMIN_STATE_UP, MAC_ADDRESS, ALLOWED_ADDRESS_PAIRS, VNIC_TYPE,
        QOS_POLICY, PORT_SECURITY_ENABLED, PROPAGATE_UPLINK_STATUS, NO_FIXED_IPS,
    ) = (
        "value_specs", "admin_state_up", "mac_address", "allowed_address_pairs",
        "binding:vnic_type", "qos_policy", "port_security_enabled",
        "propagate_uplink_status", "no_fixed_ips",
    )  # fmt: skip

    FIXED_IP_KEYS = (FIXED_IP_SUBNET_ID, FIXED_IP_SUBNET, FIXED_IP_IP_ADDRESS) = (
        "subnet_id",
        "subnet",
        "ip_address",
    )
    ADDRESS_PAIR_KEYS = (ADDRESS_PAIR_MAC_ADDRESS, ADDRESS_PAIR_IP_ADDRESS) = (
        "mac_address",
        "ip_address",
    )

    ATTRIBUTES = (
        ADMIN_STATE_UP_ATTR, DEVICE_ID_ATTR, DEVICE_OWNER_ATTR, FIXED_IPS_ATTR,
        MAC_ADDRESS_ATTR, NAME_ATTR, NETWORK_ID_ATTR, SECURITY_GROUPS_ATTR, STATUS,
        TENANT_ID, ALLOWED_ADDRESS_PAIRS_ATTR, SUBNETS_ATTR, PORT_SECURITY_ENABLED_ATTR,
        QOS_POLICY_ATTR, DNS_ASSIGNMENT, NETWORK_ATTR, PROPAGATE_UPLINK_STATUS_ATTR,
    ) = (
        "admin_state_up", "device_id", "device_owner", "fixed_ips", "mac_address", "name",
        "network_id", "security_groups", "status", "tenant_id", "allowed_address_pairs",
        "subnets", "port_security_enabled", "qos_policy_id", "dns_assignment", "network",
        "propagate_uplink_status",
    )  # fmt: skip

    properties_schema = {
        NAME: Schema(Schema.STRING, "A symbolic name for this port.", update_allowed=True),
        NETWORK_ID: Schema(
            Schema.STRING,
            support_status=hidden_since("5.0.0", NETWORK, "2014.2"),
            constraints=[constraints.CustomConstraint("neutron.network")],
        ),
        NETWORK: Schema(
            Schema.STRING,
            "Network this port belongs to. If you plan to use current port to assign "
            "Floating IP, you should specify fixed_ips with subnet. Note if this changes "
            "to a different network update, the port will be replaced.",
            support_status=SupportStatus(version="2014.2"),
            required=True,
            constraints=[constraints.CustomConstraint("neutron.network")],
        ),
        DEVICE_ID: Schema(
            Schema.STRING, "Device ID of this port.", update_allowed=True, default=""
        ),
        DEVICE_OWNER: Schema(
            Schema.STRING,
            "Name of the network owning the port. The value is typically "
            "network:floatingip or network:router_interface or network:dhcp.",
            update_allowed=True,
            default="",
        ),
        FIXED_IPS: Schema(
            Schema.LIST,
            "Desired IPs for this port.",
            schema=Schema(
                Schema.MAP,
                schema={
                    FIXED_IP_SUBNET_ID: Schema(
                        Schema.STRING,
                        # Heat's version string carries a trailing space.
                        support_status=hidden_since("5.0.0", FIXED_IP_SUBNET, "2014.2 "),
                        constraints=[constraints.CustomConstraint("neutron.subnet")],
                    ),
                    FIXED_IP_SUBNET: Schema(
                        Schema.STRING,
                        "Subnet in which to allocate the IP address for this port.",
                        support_status=SupportStatus(version="2014.2"),
                        constraints=[constraints.CustomConstraint("neutron.subnet")],
                    ),
                    FIXED_IP_IP_ADDRESS: Schema(
                        Schema.STRING,
                        "IP address desired in the subnet for this port.",
                        constraints=[constraints.CustomConstraint("ip_addr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        SECURITY_GROUPS: Schema(
            Schema.LIST,
            "Security group IDs to associate with this port.",
            update_allowed=True,
        ),
        REPLACEMENT_POLICY: Schema(
            Schema.STRING,
            "Policy on how to respond to a stack-update for this resource. REPLACE_ALWAYS "
            "will replace the port regardless of any property changes. AUTO will update "
            "the existing port for any changed update-allowed property.",
            default="AUTO",
            constraints=[constraints.AllowedValues(["REPLACE_ALWAYS", "AUTO"])],
            update_allowed=True,
            support_status=SupportStatus(
                status="HIDDEN",
                version="9.0.0",
                previous_status=SupportStatus(
                    status="DEPRECATED",
                    version="6.0.0",
                    message="Replacement policy used to work around flawed nova/neutron "
                    "port interaction which has been fixed since Liberty.",
                    previous_status=SupportStatus(version="2014.2"),
                ),
            ),
        ),
        DNS_NAME: Schema(
            Schema.STRING,
            "DNS name associated with the port.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("dns_name")],
            support_status=SupportStatus(version="7.0.0"),
        ),
        TAGS: Schema(
            Schema.LIST,
            "The tags to be added to the port.",
            schema=Schema(Schema.STRING),
            update_allowed=True,
            support_status=SupportStatus(version="9.0.0"),
        ),
        VALUE_SPECS: Schema(
            Schema.MAP,
            "Extra parameters to include in the request.",
            default={},
            update_allowed=True,
        ),
        ADMIN_STATE_UP: Schema(
            Schema.BOOLEAN,
            "The administrative state of this port.",
            default=True,
            update_allowed=True,
        ),
        MAC_ADDRESS: Schema(
            Schema.STRING,
            "MAC address to give to this port. The default update policy of this property "
            "in neutron is that allow admin role only.",
            constraints=[constraints.CustomConstraint("mac_addr")],
        ),
        ALLOWED_ADDRESS_PAIRS: Schema(
            Schema.LIST,
            "Additional MAC/IP address pairs allowed to pass through the port.",
            schema=Schema(
                Schema.MAP,
                schema={
                    ADDRESS_PAIR_MAC_ADDRESS: Schema(
                        Schema.STRING,
                        "MAC address to allow through this port.",
                        constraints=[constraints.CustomConstraint("mac_addr")],
                    ),
                    ADDRESS_PAIR_IP_ADDRESS: Schema(
                        Schema.STRING,
                        "IP address to allow through this port.",
                        required=True,
                        constraints=[constraints.CustomConstraint("ip_or_cidr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        VNIC_TYPE: Schema(
            Schema.STRING,
            "The vnic type to be bound on the neutron port. To support SR-IOV PCI "
            "passthrough networking, you can request that the neutron port to be realized "
            "as normal (virtual nic), direct (pci passthrough), or macvtap (virtual "
            "interface with a tap-like software interface). Note that this only works for "
            "Neutron deployments that support the bindings extension.",
            constraints=[constraints.AllowedValues(list(VNIC_TYPES))],
            support_status=SupportStatus(version="2015.1"),
            update_allowed=True,
            default="normal",
        ),
        PORT_SECURITY_ENABLED: Schema(
            Schema.BOOLEAN,
            "Flag to enable/disable port security on the port. When disable this "
            "feature(set it to False), there will be no packages filtering, like "
            "security-group and address-pairs.",
            update_allowed=True,
            support_status=SupportStatus(version="5.0.0"),
        ),
        QOS_POLICY: Schema(
            Schema.STRING,
            "The name or ID of QoS policy to attach to this port.",
            constraints=[constraints.CustomConstraint("neutron.qos_policy")],
            update_allowed=True,
            support_status=SupportStatus(version="6.0.0"),
        ),
        PROPAGATE_UPLINK_STATUS: Schema(
            Schema.BOOLEAN,
            "Flag to enable/disable propagate uplink status on the port.",
            update_allowed=True,
            support_status=SupportStatus(version="15.0.0"),
        ),
        NO_FIXED_IPS: Schema(
            Schema.BOOLEAN,
            "Flag to disable all fixed ips on the port.",
            update_allowed=True,
            support_status=SupportStatus(version="16.0.0"),
            default=False,
        ),
    }

    attributes_schema = {
        ADMIN_STATE_UP_ATTR: AttributeSchema(
            "The administrative state of this port.", type=AttributeSchema.STRING
        ),
        DEVICE_ID_ATTR: AttributeSchema(
            "Unique identifier for the device.", type=AttributeSchema.STRING
        ),
        DEVICE_OWNER_ATTR: AttributeSchema(
            "Name of the network owning the port.", type=AttributeSchema.STRING
        ),
        FIXED_IPS_ATTR: AttributeSchema("Fixed IP addresses.", type=AttributeSchema.LIST),
        MAC_ADDRESS_ATTR: AttributeSchema("MAC address of the port.", type=AttributeSchema.STRING),
        NAME_ATTR: AttributeSchema("Friendly name of the port.", type=AttributeSchema.STRING),
        NETWORK_ID_ATTR: AttributeSchema(
            "Unique identifier for the network owning the port.", type=AttributeSchema.STRING
        ),
        SECURITY_GROUPS_ATTR: AttributeSchema(
            "A list of security groups for the port.", type=AttributeSchema.LIST
        ),
        STATUS: AttributeSchema("The status of the port.", type=AttributeSchema.STRING),
        TENANT_ID: AttributeSchema("Tenant owning the port.", type=AttributeSchema.STRING),
        ALLOWED_ADDRESS_PAIRS_ATTR: AttributeSchema(
            "Additional MAC/IP address pairs allowed to pass through a port.",
            type=AttributeSchema.LIST,
        ),
        SUBNETS_ATTR: AttributeSchema(
            "A list of all subnet attributes for the port.", type=AttributeSchema.LIST
        ),
        PORT_SECURITY_ENABLED_ATTR: AttributeSchema(
            "Port security enabled of the port.",
            support_status=SupportStatus(version="5.0.0"),
            type=AttributeSchema.BOOLEAN,
        ),
        QOS_POLICY_ATTR: AttributeSchema(
            "The QoS policy ID attached to this port.",
            type=AttributeSchema.STRING,
            support_status=SupportStatus(version="6.0.0"),
        ),
        DNS_ASSIGNMENT: AttributeSchema(
            "The DNS assigned to this port.",
            type=AttributeSchema.MAP,
            support_status=SupportStatus(version="7.0.0"),
        ),
        NETWORK_ATTR: AttributeSchema(
            "The attributes of the network owning the port. (The full list of response "
            "parameters can be found in the `Openstack Networking service API reference "
            "<https://docs.openstack.org/api-ref/network/>`_.) The following examples "
            "demonstrate some (not all) possible expressions. (Obtains the network, the "
            "MTU (Maximum transmission unit), the network tags and the l2_adjacency "
            "property): ``{get_attr: [<port>, network]}``, ``{get_attr: [<port>, network, "
            "mtu]}``, ``{get_attr: [<port>, network, tags]}?``, ``{get_attr: [<port>, "
            "network, l2_adjacency]}``.",
            type=AttributeSchema.MAP,
            support_status=SupportStatus(version="11.0.0"),
        ),
        PROPAGATE_UPLINK_STATUS_ATTR: AttributeSchema(
            "Enable/Disable propagate uplink status for the port.",
            support_status=SupportStatus(version="15.0.0"),
            type=AttributeSchema.BOOLEAN,
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
                TranslationRule.REPLACE,
                [self.FIXED_IPS, self.FIXED_IP_SUBNET],
                value_name=self.FIXED_IP_SUBNET_ID,
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
                [self.FIXED_IPS, self.FIXED_IP_SUBNET],
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity="subnet",
            ),
        ]

    def validate(self) -> Any:
        # Heat's override drops what its parent found in value_specs: not checked here.
        Resource.validate(self)
        if self.properties.get(self.FIXED_IPS) and self.properties.get(self.NO_FIXED_IPS):
            raise exception.ResourcePropertyConflict(self.FIXED_IPS, self.NO_FIXED_IPS)
        return None

    def add_dependencies(self, deps: Any) -> None:
        # Which subnet a port takes its address from is not known: every subnet of the
        # template on the port's network is made before the port.
        super().add_dependencies(deps)
        for other in self.stack.resources.values():
            if not isinstance(other, Subnet):
                continue
            try:
                same_network = (
                    other.properties.get(Subnet.NETWORK) == (self.properties[self.NETWORK])
                )
            except (ValueError, TypeError):
                continue  # reported by validation, in its own context
            if same_network:
                deps += (self, other)

    # Bodies

    def prepare_port_properties(self, body: dict[str, Any], for_update: bool = False) -> None:
        """Fixed IPs, address pairs, security groups and the policy, as Neutron takes them."""
        if body.pop(self.NO_FIXED_IPS, False):
            body[self.FIXED_IPS] = []
        elif self.FIXED_IPS in body:
            if body[self.FIXED_IPS]:
                body[self.FIXED_IPS] = [self._fixed_ip(item) for item in body[self.FIXED_IPS]]
            else:
                # An empty list would take every address away: Neutron picks on create,
                # and an update leaves the addresses alone.
                del body[self.FIXED_IPS]
        if self.ALLOWED_ADDRESS_PAIRS in body:
            body[self.ALLOWED_ADDRESS_PAIRS] = [
                {key: value for key, value in pair.items() if value is not None}
                for pair in body[self.ALLOWED_ADDRESS_PAIRS] or []
            ]
        if self.SECURITY_GROUPS in body:
            groups = body[self.SECURITY_GROUPS]
            if groups is not None:
                body[self.SECURITY_GROUPS] = self.neutron().get_secgroup_uuids(groups)
            elif for_update:
                # Taken off the template: back to the project's default group.
                body[self.SECURITY_GROUPS] = self.neutron().get_secgroup_uuids(["default"])
        body.pop(self.REPLACEMENT_POLICY, None)

    def _fixed_ip(self, fixed_ip: dict[str, Any]) -> dict[str, Any]:
        entry = {key: value for key, value in fixed_ip.items() if value is not None}
        if self.FIXED_IP_SUBNET in entry:
            entry[self.FIXED_IP_SUBNET_ID] = entry.pop(self.FIXED_IP_SUBNET)
        return entry

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        body["network_id"] = body.pop(self.NETWORK)
        self.prepare_port_properties(body)
        qos_policy = body.pop(self.QOS_POLICY, None)
        tags = body.pop(self.TAGS, [])
        if qos_policy:
            body["qos_policy_id"] = self.neutron().get_qos_policy_id(qos_policy)
        port = self.neutron().create(self.entity, body)
        self.resource_id_set(port["id"])
        if tags:
            self.set_tags(tags)

    def store_config_defaults(self, attributes: dict[str, Any]) -> None:
        super().store_config_defaults(attributes)
        if self.VNIC_TYPE in attributes:
            self.data_set(self.VNIC_TYPE, attributes[self.VNIC_TYPE])

    def check_create_complete(self, _token: Any = None) -> bool:
        attributes = self._show_resource()
        self.store_config_defaults(attributes)
        return self.is_built(attributes)

    # Updates

    def needs_replace(self, after_properties: Any) -> bool:
        return bool(after_properties.get(self.REPLACEMENT_POLICY) == "REPLACE_ALWAYS")

    def prepare_update_properties(self, prop_diff: dict[str, Any]) -> None:
        if self.VALUE_SPECS in prop_diff:
            before = dict(self.properties.get(self.VALUE_SPECS) or {})
            specs = prop_diff[self.VALUE_SPECS]
            if specs and BINDING_PROFILE in specs and self.resource_id:
                held = self._show_resource()
                if held and BINDING_PROFILE in held:
                    specs[BINDING_PROFILE] = self._merged_profile(
                        held[BINDING_PROFILE], before.get(BINDING_PROFILE) or {}, specs
                    )
                    # The merge is the new value whatever the template said before.
                    before.pop(BINDING_PROFILE, None)
            prop_diff.pop(self.VALUE_SPECS)
            if specs is not None:
                prop_diff.update(
                    {
                        key: value
                        for key, value in specs.items()
                        if not before or before.get(key) != value
                    }
                )
        if "name" in prop_diff and prop_diff["name"] is None:
            prop_diff["name"] = self.physical_resource_name()

    @staticmethod
    def _merged_profile(
        held: dict[str, Any], old: dict[str, Any], specs: dict[str, Any]
    ) -> dict[str, Any]:
        """What Neutron holds, with the template's changes since last time applied."""
        merged = dict(held)
        for key, value in specs[BINDING_PROFILE].items():
            if value != old.get(key):
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
        return merged

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        self.prepare_update_properties(prop_diff)
        if self.QOS_POLICY in prop_diff:
            policy = prop_diff.pop(self.QOS_POLICY)
            prop_diff["qos_policy_id"] = (
                self.neutron().get_qos_policy_id(policy) if policy else None
            )
        if self.TAGS in prop_diff:
            self.set_tags(prop_diff.pop(self.TAGS))
        self.prepare_port_properties(prop_diff, for_update=True)
        if prop_diff:
            LOG.debug("updating port with %s", prop_diff)
            self.neutron().update(self.entity, self.resource_id, prop_diff)

    def check_update_complete(self, _token: Any = None) -> bool:
        return self.is_built(self._show_resource())

    def prepare_for_replace(self) -> None:
        """Before its replacement is made, the port lets go of its addresses (kept in
        its data as ``port_fip``), so that the new port may take the same ones."""
        if self.resource_id is None:
            return
        with self.neutron().ignore_not_found():
            fixed_ips = self._show_resource().get(self.FIXED_IPS, [])
            self.data_set("port_fip", json.dumps(fixed_ips))
            self.neutron().update(self.entity, self.resource_id, {self.FIXED_IPS: []})

    # Attributes

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == self.SUBNETS_ATTR:
            try:
                return [
                    self.neutron().show("subnet", fixed_ip["subnet_id"])
                    for fixed_ip in self._show_resource().get(self.FIXED_IPS, [])
                    if fixed_ip.get("subnet_id")
                ]
            except Exception as error:
                LOG.warning("Failed to fetch resource attributes: %s", error)
                return None
        if name == self.NETWORK_ATTR:
            try:
                return self.neutron().show("network", self._show_resource().get("network_id"))
            except Exception as error:
                LOG.warning("Failed to fetch resource attributes: %s", error)
                return None
        return super()._resolve_attribute(name)


RESOURCE_CLASSES = {"OS::Neutron::Port": Port}
