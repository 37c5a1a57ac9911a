"""OS::Neutron::SecurityGroup: a Neutron security group and its list of rules.

Neutron gives every new group two rules letting all traffic out (IPv4 and IPv6). A
template whose rules include an egress rule replaces them; one without keeps them. On
update the group's rules are reconciled with the template's (plus the two default egress
rules when it has no egress rule of its own): rules Neutron has that the template lacks
are deleted, the missing ones created, the others left alone. Name, description and
``stateful`` change in place; ``stateful`` only while no port uses the group.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.neutron.base import (
    SECURITY_GROUP_PROTOCOL_DESCRIPTION,
    SECURITY_GROUP_PROTOCOLS,
    NeutronResource,
)

STATEFUL_EXTENSION = "stateful-security-group"

# What Neutron adds to a new group, and what a group without egress rules keeps.
DEFAULT_EGRESS_RULES = (
    {"direction": "egress", "ethertype": "IPv4"},
    {"direction": "egress", "ethertype": "IPv6"},
)
# What makes two rules the same rule (Neutron's answer against the template's).
RULE_IDENTITY = (
    "direction",
    "ethertype",
    "protocol",
    "port_range_min",
    "port_range_max",
    "remote_group_id",
    "remote_ip_prefix",
    "security_group_id",
)


def rule_identity(rule: dict[str, Any]) -> tuple[str | None, ...]:
    # Ports compare as text: Neutron answers integers, the bodies we send carry strings.
    return tuple(None if rule.get(key) is None else str(rule[key]) for key in RULE_IDENTITY)


class SecurityGroup(NeutronResource):
    entity = "security_group"
    required_service_extension = "security-group"
    support_status = SupportStatus(version="2014.1")
    type_description = """\
A resource for managing Neutron security groups.

Security groups are sets of IP filter rules that are applied to an
instance's networking. They are project specific, and project members can
edit the default rules for their group and add new rules sets. All projects
have a "default" security group, which is applied to instances that have no
other security group defined.
"""

    PROPERTIES = (NAME, DESCRIPTION, RULES, STATEFUL) = (
        "name",
        "description",
        "rules",
        "stateful",
    )

    RULE_KEYS = (
        RULE_DIRECTION,
        RULE_ETHERTYPE,
        RULE_PORT_RANGE_MIN,
        RULE_PORT_RANGE_MAX,
        RULE_PROTOCOL,
        RULE_REMOTE_MODE,
        RULE_REMOTE_GROUP_ID,
        RULE_REMOTE_IP_PREFIX,
        RULE_DESCRIPTION,
    ) = (
        "direction",
        "ethertype",
        "port_range_min",
        "port_range_max",
        "protocol",
        "remote_mode",
        "remote_group_id",
        "remote_ip_prefix",
        "description",
    )

    rule_schema = {
        RULE_DIRECTION: Schema(
            Schema.STRING,
            "The direction in which the security group rule is applied. For a compute "
            "instance, an ingress security group rule matches traffic that is incoming "
            "(ingress) for that instance. An egress rule is applied to traffic leaving "
            "the instance.",
            default="ingress",
            constraints=[constraints.AllowedValues(["ingress", "egress"])],
        ),
        RULE_ETHERTYPE: Schema(
            Schema.STRING,
            "Ethertype of the traffic.",
            default="IPv4",
            constraints=[constraints.AllowedValues(["IPv4", "IPv6"])],
        ),
        RULE_PORT_RANGE_MIN: Schema(
            Schema.INTEGER,
            "The minimum port number in the range that is matched by the security group "
            "rule. If the protocol is TCP or UDP, this value must be less than or equal "
            "to the value of the port_range_max attribute. If the protocol is ICMP, this "
            "value must be an ICMP type.",
            constraints=[constraints.Range(0, 65535)],
        ),
        RULE_PORT_RANGE_MAX: Schema(
            Schema.INTEGER,
            "The maximum port number in the range that is matched by the security group "
            "rule. The port_range_min attribute constrains the port_range_max attribute. "
            "If the protocol is ICMP, this value must be an ICMP type.",
            constraints=[constraints.Range(0, 65535)],
        ),
        RULE_PROTOCOL: Schema(
            Schema.STRING,
            SECURITY_GROUP_PROTOCOL_DESCRIPTION
            + " If not specified, all protocols will be matched.",
            constraints=[constraints.AllowedValues(SECURITY_GROUP_PROTOCOLS)],
        ),
        RULE_REMOTE_MODE: Schema(
            Schema.STRING,
            "Whether to specify a remote group or a remote IP prefix.",
            default="remote_ip_prefix",
            constraints=[constraints.AllowedValues(["remote_ip_prefix", "remote_group_id"])],
        ),
        RULE_REMOTE_GROUP_ID: Schema(
            Schema.STRING,
            "The remote group ID to be associated with this security group rule. If no "
            "value is specified then this rule will use this security group for the "
            'remote_group_id. The remote mode parameter must be set to "remote_group_id".',
            constraints=[constraints.CustomConstraint("neutron.security_group")],
        ),
        RULE_REMOTE_IP_PREFIX: Schema(
            Schema.STRING,
            "The remote IP prefix (CIDR) to be associated with this security group rule.",
            constraints=[constraints.CustomConstraint("net_cidr")],
        ),
        RULE_DESCRIPTION: Schema(
            Schema.STRING,
            "Description of the security group rule.",
            support_status=SupportStatus(version="27.0.0"),
        ),
    }

    properties_schema = {
        NAME: Schema(
            Schema.STRING,
            "A string specifying a symbolic name for the security group, which is not "
            "required to be unique.",
            update_allowed=True,
        ),
        DESCRIPTION: Schema(
            Schema.STRING, "Description of the security group.", update_allowed=True
        ),
        RULES: Schema(
            Schema.LIST,
            "List of security group rules.",
            default=[],
            schema=Schema(Schema.MAP, schema=rule_schema),
            update_allowed=True,
        ),
        STATEFUL: Schema(
            Schema.BOOLEAN,
            "Whether to create this security group as stateful or stateless.",
            update_allowed=True,
            support_status=SupportStatus(version="27.0.0"),
        ),
    }

    # Validation

    def validate(self) -> Any:
        super().validate()
        if self.properties[self.NAME] == "default":
            raise exception.StackValidationFailed(
                message='Security groups cannot be assigned the name "default".'
            )
        if self.properties[self.STATEFUL] is False and not self.neutron().has_extension(
            STATEFUL_EXTENSION
        ):
            raise exception.StackValidationFailed(
                message="Neutron does not support stateless security groups; remove the "
                '"stateful" property or set it to true.'
            )
        return None

    # Creating

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        rules = body.pop(self.RULES, [])
        if not self.neutron().has_extension(STATEFUL_EXTENSION):
            body.pop(self.STATEFUL, None)
        group = self.neutron().create(self.entity, body)
        self.resource_id_set(group["id"])
        if rules:
            if any(rule[self.RULE_DIRECTION] == "egress" for rule in rules):
                # The template says what may leave: Neutron's allow-all rules go.
                self._delete_rules(lambda rule: rule["direction"] == "egress")
            self._create_rules([self._rule_body(rule) for rule in rules])

    def _rule_body(self, rule: dict[str, Any]) -> dict[str, Any]:
        """A template rule as Neutron's rule body: in this group, its remote resolved."""
        body = dict(rule)
        body["security_group_id"] = self.resource_id
        if self.RULE_REMOTE_MODE in body:
            if body.pop(self.RULE_REMOTE_MODE) == self.RULE_REMOTE_GROUP_ID:
                body[self.RULE_REMOTE_IP_PREFIX] = None
                # No group named: the rule lets in the members of this very group.
                body[self.RULE_REMOTE_GROUP_ID] = body.get(self.RULE_REMOTE_GROUP_ID) or (
                    self.resource_id
                )
            else:
                body[self.RULE_REMOTE_GROUP_ID] = None
        for key in (self.RULE_PORT_RANGE_MIN, self.RULE_PORT_RANGE_MAX):
            if body.get(key) is not None:
                body[key] = str(body[key])
        if body.get(self.RULE_DESCRIPTION) is None:
            # Neutron refuses a null description.
            body.pop(self.RULE_DESCRIPTION, None)
        return body

    def _create_rules(self, bodies: list[dict[str, Any]]) -> None:
        self.neutron().request("POST", "security-group-rules", {"security_group_rules": bodies})

    def _delete_rules(self, chosen: Callable[[dict[str, Any]], bool] | None = None) -> None:
        neutron = self.neutron()
        with neutron.ignore_not_found():
            for rule in self._show_resource()["security_group_rules"]:
                if chosen is None or chosen(rule):
                    with neutron.ignore_not_found():
                        neutron.delete("security_group_rule", rule["id"])

    # Updating

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        rules = prop_diff.pop(self.RULES, None)
        if self.STATEFUL in prop_diff:
            # Neutron refuses the change while ports use the group: fail before anything
            # is changed.
            self._refuse_stateful_change_in_use(prop_diff[self.STATEFUL])
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            self.neutron().update(self.entity, self.resource_id, prop_diff)
        if rules is not None:
            self._reconcile_rules(rules)

    def _refuse_stateful_change_in_use(self, stateful: Any) -> None:
        if stateful == self.properties[self.STATEFUL]:
            return
        # Only the ports the caller can see: Neutron still refuses if others use it.
        if not self.neutron().list("port", security_groups=[self.resource_id]):
            return
        raise exception.NotSupported(
            feature=f'Updating the "stateful" property while security group '
            f'"{self.resource_id}" is attached to ports. Detach all ports from the '
            "security group and retry."
        )

    def _reconcile_rules(self, rules: list[dict[str, Any]]) -> None:
        wanted_rules = list(rules or [])
        if not any(rule[self.RULE_DIRECTION] == "egress" for rule in wanted_rules):
            wanted_rules.extend(DEFAULT_EGRESS_RULES)
        wanted = [(rule_identity(body), body) for body in map(self._rule_body, wanted_rules)]
        wanted_identities = {identity for identity, _body in wanted}
        present = [
            (rule_identity(rule), rule) for rule in self._show_resource()["security_group_rules"]
        ]
        present_identities = {identity for identity, _rule in present}
        neutron = self.neutron()
        for identity, rule in present:
            if identity not in wanted_identities:
                with neutron.ignore_not_found():
                    neutron.delete("security_group_rule", rule["id"])
        missing = [body for identity, body in wanted if identity not in present_identities]
        if missing:
            self._create_rules(missing)

    # Deleting

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        self._delete_rules()
        with self.neutron().ignore_not_found():
            self.neutron().delete(self.entity, self.resource_id)


RESOURCE_CLASSES = {"OS::Neutron::SecurityGroup": SecurityGroup}
