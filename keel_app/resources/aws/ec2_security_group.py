"""AWS::EC2::SecurityGroup on Neutron: a security group with EC2-shaped ingress and egress
rules.

The group is named after the stack. Each rule becomes an IPv4 Neutron rule: CidrIp is
the remote prefix (dropped when the rule has no ports), FromPort/ToPort the port range
(negative ports mean none), IpProtocol the protocol, and SourceSecurityGroupId (else
SourceSecurityGroupName, sent as it is) the remote group. A template with egress rules
replaces Neutron's allow-all egress rules; one without keeps them. Rules change in place:
Heat's update compares Neutron's rules with the template's on ports, protocol, prefix,
remote group and direction, deletes those the template lacks (Neutron's default egress
rules included) and creates the missing ones; a rule Neutron already has (a conflict) is
taken as made. VpcId is accepted and not used.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.properties import Schema
from keel_app.engine.resource import Resource

NEUTRON = "neutron"


def _port(value: Any) -> int | None:
    # Neutron takes no negative port: EC2's -1 ("any") becomes no port.
    if value is None:
        return None
    port = int(value)
    return None if port < 0 else port


class SecurityGroup(Resource):
    PROPERTIES = (GROUP_DESCRIPTION, VPC_ID, SECURITY_GROUP_INGRESS, SECURITY_GROUP_EGRESS) = (
        "GroupDescription",
        "VpcId",
        "SecurityGroupIngress",
        "SecurityGroupEgress",
    )

    RULE_KEYS = (
        RULE_CIDR_IP,
        RULE_FROM_PORT,
        RULE_TO_PORT,
        RULE_IP_PROTOCOL,
        RULE_SOURCE_SECURITY_GROUP_ID,
        RULE_SOURCE_SECURITY_GROUP_NAME,
        RULE_SOURCE_SECURITY_GROUP_OWNER_ID,
    ) = (
        "CidrIp",
        "FromPort",
        "ToPort",
        "IpProtocol",
        "SourceSecurityGroupId",
        "SourceSecurityGroupName",
        "SourceSecurityGroupOwnerId",
    )

    rule_schema = {
        RULE_CIDR_IP: Schema(Schema.STRING),
        RULE_FROM_PORT: Schema(Schema.STRING),
        RULE_TO_PORT: Schema(Schema.STRING),
        RULE_IP_PROTOCOL: Schema(Schema.STRING),
        RULE_SOURCE_SECURITY_GROUP_ID: Schema(Schema.STRING),
        RULE_SOURCE_SECURITY_GROUP_NAME: Schema(Schema.STRING),
        RULE_SOURCE_SECURITY_GROUP_OWNER_ID: Schema(Schema.STRING, implemented=False),
    }

    properties_schema = {
        GROUP_DESCRIPTION: Schema(
            Schema.STRING, "Description of the security group.", required=True
        ),
        VPC_ID: Schema(Schema.STRING, "Physical ID of the VPC. Not implemented."),
        SECURITY_GROUP_INGRESS: Schema(
            Schema.LIST,
            schema=Schema(Schema.MAP, "List of security group ingress rules.", schema=rule_schema),
            update_allowed=True,
        ),
        SECURITY_GROUP_EGRESS: Schema(
            Schema.LIST,
            schema=Schema(Schema.MAP, "List of security group egress rules.", schema=rule_schema),
            update_allowed=True,
        ),
    }

    def neutron(self) -> Any:
        return self.client_plugin(NEUTRON)

    # Rules in the shape Heat compares them in

    def _template_rules(self, properties: Any, key: str, direction: str) -> list[dict[str, Any]]:
        rules = []
        for rule in properties.get(key) or []:
            from_port = _port(rule.get(self.RULE_FROM_PORT))
            to_port = _port(rule.get(self.RULE_TO_PORT))
            has_ports = (
                rule.get(self.RULE_FROM_PORT) is not None or rule.get(self.RULE_TO_PORT) is not None
            )
            rules.append(
                {
                    self.RULE_CIDR_IP: rule.get(self.RULE_CIDR_IP) if has_ports else None,
                    self.RULE_FROM_PORT: from_port,
                    self.RULE_TO_PORT: to_port,
                    self.RULE_IP_PROTOCOL: rule.get(self.RULE_IP_PROTOCOL),
                    # An id, else a name: passed on to Neutron as it is.
                    self.RULE_SOURCE_SECURITY_GROUP_ID: (
                        rule.get(self.RULE_SOURCE_SECURITY_GROUP_ID)
                        or rule.get(self.RULE_SOURCE_SECURITY_GROUP_NAME)
                    ),
                    "direction": direction,
                }
            )
        return rules

    def _all_template_rules(self, properties: Any) -> list[dict[str, Any]]:
        return self._template_rules(
            properties, self.SECURITY_GROUP_EGRESS, "egress"
        ) + self._template_rules(properties, self.SECURITY_GROUP_INGRESS, "ingress")

    def _neutron_rules(self, group: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """The group's rules by id, in the template rules' shape."""
        return {
            rule["id"]: {
                self.RULE_CIDR_IP: rule["remote_ip_prefix"],
                self.RULE_FROM_PORT: rule["port_range_min"],
                self.RULE_TO_PORT: rule["port_range_max"],
                self.RULE_IP_PROTOCOL: rule["protocol"],
                self.RULE_SOURCE_SECURITY_GROUP_ID: rule["remote_group_id"],
                "direction": rule["direction"],
            }
            for rule in group["security_group_rules"]
        }

    def _create_rule(self, rule: dict[str, Any]) -> None:
        neutron = self.neutron()
        body = {
            "direction": rule["direction"],
            "ethertype": "IPv4",
            "remote_ip_prefix": rule[self.RULE_CIDR_IP],
            "port_range_min": rule[self.RULE_FROM_PORT],
            "port_range_max": rule[self.RULE_TO_PORT],
            "protocol": rule[self.RULE_IP_PROTOCOL],
            "remote_group_id": rule[self.RULE_SOURCE_SECURITY_GROUP_ID],
            "security_group_id": self.resource_id,
        }
        try:
            neutron.create("security_group_rule", body)
        except Exception as error:
            if not neutron.is_conflict(error):
                raise  # a conflict: Neutron has that rule already

    def _delete_rule(self, rule_id: str) -> None:
        with self.neutron().ignore_not_found():
            self.neutron().delete("security_group_rule", rule_id)

    # Life cycle

    def handle_create(self) -> None:
        neutron = self.neutron()
        group = neutron.create(
            "security_group",
            {
                "name": self.physical_resource_name(),
                "description": self.properties[self.GROUP_DESCRIPTION],
            },
        )
        self.resource_id_set(group["id"])
        if self.properties[self.SECURITY_GROUP_EGRESS]:
            # The template says what may leave: Neutron's allow-all rules go.
            for rule in group["security_group_rules"]:
                if rule["direction"] == "egress":
                    neutron.delete("security_group_rule", rule["id"])
        for rule in self._template_rules(self.properties, self.SECURITY_GROUP_INGRESS, "ingress"):
            self._create_rule(rule)
        for rule in self._template_rules(self.properties, self.SECURITY_GROUP_EGRESS, "egress"):
            self._create_rule(rule)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if (
            self.SECURITY_GROUP_INGRESS not in prop_diff
            and self.SECURITY_GROUP_EGRESS not in prop_diff
        ):
            return
        wanted = self._all_template_rules(
            json_snippet.properties(self.properties_schema, self.context)
        )
        present = self._neutron_rules(self.neutron().show("security_group", self.resource_id))
        for rule_id, rule in present.items():
            if rule not in wanted:
                self._delete_rule(rule_id)
        for rule in wanted:
            if rule not in present.values():
                self._create_rule(rule)

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        neutron = self.neutron()
        with neutron.ignore_not_found():
            group = neutron.show("security_group", self.resource_id)
            for rule in group["security_group_rules"]:
                self._delete_rule(rule["id"])
            with neutron.ignore_not_found():
                neutron.delete("security_group", self.resource_id)


RESOURCE_CLASSES = {"AWS::EC2::SecurityGroup": SecurityGroup}
