"""OS::Neutron::SecurityGroupRule: one rule added to a security group named by name or id.

The group and the remote group are resolved to ids by name or id; every property change
replaces the rule (Neutron's rules cannot be changed).
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.resources.neutron.base import (
    SECURITY_GROUP_PROTOCOL_DESCRIPTION,
    SECURITY_GROUP_PROTOCOLS,
    NeutronResource,
)

# Protocols whose "ports" are an ICMP type and code, which need not be ordered.
ICMP_PROTOCOLS = ("icmp", "icmpv6", "ipv6-icmp")


class SecurityGroupRule(NeutronResource):
    entity = "security_group_rule"
    required_service_extension = "security-group"
    support_status = SupportStatus(version="7.0.0")
    type_description = """\
A resource for managing Neutron security group rules.

Rules to use in security group resource.
"""

    PROPERTIES = (
        SECURITY_GROUP,
        DESCRIPTION,
        DIRECTION,
        ETHERTYPE,
        PORT_RANGE_MIN,
        PORT_RANGE_MAX,
        PROTOCOL,
        REMOTE_GROUP,
        REMOTE_IP_PREFIX,
    ) = (
        "security_group",
        "description",
        "direction",
        "ethertype",
        "port_range_min",
        "port_range_max",
        "protocol",
        "remote_group",
        "remote_ip_prefix",
    )

    properties_schema = {
        SECURITY_GROUP: Schema(
            Schema.STRING,
            "Security group name or ID to add rule.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.security_group")],
        ),
        DESCRIPTION: Schema(Schema.STRING, "Description of the security group rule."),
        DIRECTION: Schema(
            Schema.STRING,
            "The direction in which the security group rule is applied. For a compute "
            "instance, an ingress security group rule matches traffic that is incoming "
            "(ingress) for that instance. An egress rule is applied to traffic leaving "
            "the instance.",
            default="ingress",
            constraints=[constraints.AllowedValues(["ingress", "egress"])],
        ),
        ETHERTYPE: Schema(
            Schema.STRING,
            "Ethertype of the traffic.",
            default="IPv4",
            constraints=[constraints.AllowedValues(["IPv4", "IPv6"])],
        ),
        PORT_RANGE_MIN: Schema(
            Schema.INTEGER,
            "The minimum port number in the range that is matched by the security group "
            "rule. If the protocol is TCP or UDP, this value must be less than or equal "
            "to the value of the port_range_max attribute. If the protocol is ICMP, this "
            "value must be an ICMP type.",
            constraints=[constraints.Range(0, 65535)],
        ),
        PORT_RANGE_MAX: Schema(
            Schema.INTEGER,
            "The maximum port number in the range that is matched by the security group "
            "rule. The port_range_min attribute constrains the port_range_max attribute. "
            "If the protocol is ICMP, this value must be an ICMP code.",
            constraints=[constraints.Range(0, 65535)],
        ),
        PROTOCOL: Schema(
            Schema.STRING,
            SECURITY_GROUP_PROTOCOL_DESCRIPTION,
            default="tcp",
            constraints=[constraints.AllowedValues(SECURITY_GROUP_PROTOCOLS)],
        ),
        REMOTE_GROUP: Schema(
            Schema.STRING,
            "The remote group name or ID to be associated with this security group rule.",
            constraints=[constraints.CustomConstraint("neutron.security_group")],
        ),
        REMOTE_IP_PREFIX: Schema(
            Schema.STRING,
            "The remote IP prefix (CIDR) to be associated with this security group rule.",
            constraints=[constraints.CustomConstraint("net_cidr")],
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [group],
                client_plugin=plugin,
                finder="find_resourceid_by_name_or_id",
                entity="security_group",
            )
            for group in (self.SECURITY_GROUP, self.REMOTE_GROUP)
        ]

    def validate(self) -> Any:
        super().validate()
        if (
            self.properties[self.REMOTE_GROUP] is not None
            and self.properties[self.REMOTE_IP_PREFIX] is not None
        ):
            raise exception.ResourcePropertyConflict(self.REMOTE_GROUP, self.REMOTE_IP_PREFIX)
        port_max = self.properties[self.PORT_RANGE_MAX]
        port_min = self.properties[self.PORT_RANGE_MIN]
        if (
            port_max is not None
            and port_min is not None
            and self.properties[self.PROTOCOL] not in ICMP_PROTOCOLS
            and port_max < port_min
        ):
            raise exception.StackValidationFailed(
                message="The minimum port number must be less than or equal to the maximum "
                "port number."
            )
        return None

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        body["security_group_id"] = body.pop(self.SECURITY_GROUP)
        if self.REMOTE_GROUP in body:
            body["remote_group_id"] = body.pop(self.REMOTE_GROUP)
        for key in (self.PORT_RANGE_MIN, self.PORT_RANGE_MAX):
            if body.get(key) is not None:
                body[key] = str(body[key])
        rule = self.neutron().create(self.entity, body)
        self.resource_id_set(rule["id"])

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        with self.neutron().ignore_not_found():
            self.neutron().delete(self.entity, self.resource_id)


RESOURCE_CLASSES = {"OS::Neutron::SecurityGroupRule": SecurityGroupRule}
