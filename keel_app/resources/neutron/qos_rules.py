"""The rules of a Neutron QoS policy: OS::Neutron::QoSBandwidthLimitRule,
QoSDscpMarkingRule, QoSMinimumBandwidthRule and QoSMinimumPacketRateRule.

A rule lives under its policy (``qos/policies/<policy>/<kind>_rules/<rule>``); the policy
is named by name or id and looked up whenever the rule is reached. The rule's values change
in place; another policy means another rule.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.neutron.base import NeutronResource

POLICY, TENANT_ID = "policy", "tenant_id"
DIRECTION = "direction"

RULE_PROPERTIES = {
    POLICY: Schema(
        Schema.STRING,
        "ID or name of the QoS policy.",
        required=True,
        constraints=[constraints.CustomConstraint("neutron.qos_policy")],
    ),
    TENANT_ID: Schema(Schema.STRING, "The owner tenant ID of this rule."),
}


def _rate(description: str, **extra: Any) -> Schema:
    return Schema(
        Schema.INTEGER,
        description,
        update_allowed=True,
        constraints=[constraints.Range(min=0)],
        **extra,
    )


def _direction(allowed: list[str], **extra: Any) -> Schema:
    return Schema(
        Schema.STRING,
        "Traffic direction from the point of view of the port.",
        update_allowed=True,
        constraints=[constraints.AllowedValues(allowed)],
        default="egress",
        **extra,
    )


class QoSRule(NeutronResource):
    """One rule of kind ``entity`` (``bandwidth_limit_rule``...) in its policy."""

    required_service_extension = "qos"
    support_status = SupportStatus(version="6.0.0")

    POLICY = POLICY
    TENANT_ID = TENANT_ID

    def policy_id(self) -> str:
        return self.neutron().get_qos_policy_id(self.properties[POLICY])

    def _rules_path(self) -> str:
        return f"qos/policies/{self.policy_id()}/{self.entity}s"

    def _show_resource(self) -> Any:
        answer = self.neutron().request("GET", f"{self._rules_path()}/{self.resource_id}")
        return answer[self.entity]

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        body.pop(POLICY)
        rule = self.neutron().request("POST", self._rules_path(), {self.entity: body})
        self.resource_id_set(rule[self.entity]["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff:
            self.neutron().request(
                "PUT", f"{self._rules_path()}/{self.resource_id}", {self.entity: prop_diff}
            )

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        # A policy gone already took its rules with it.
        with self.neutron().ignore_not_found():
            self.neutron().request("DELETE", f"{self._rules_path()}/{self.resource_id}")


class QoSBandwidthLimitRule(QoSRule):
    entity = "bandwidth_limit_rule"
    type_description = """\
A resource for Neutron QoS bandwidth limit rule.

This rule can be associated with QoS policy, and then the policy
can be used by neutron port and network, to provide bandwidth limit
QoS capabilities.

The default policy usage of this resource is limited to
administrators only.
"""

    PROPERTIES = (MAX_BANDWIDTH, MAX_BURST_BANDWIDTH, DIRECTION) = (
        "max_kbps",
        "max_burst_kbps",
        DIRECTION,
    )

    properties_schema = {
        MAX_BANDWIDTH: _rate("Max bandwidth in kbps.", required=True),
        MAX_BURST_BANDWIDTH: _rate("Max burst bandwidth in kbps.", default=0),
        DIRECTION: _direction(
            ["egress", "ingress"], support_status=SupportStatus(version="13.0.0")
        ),
        **RULE_PROPERTIES,
    }


class QoSDscpMarkingRule(QoSRule):
    entity = "dscp_marking_rule"
    support_status = SupportStatus(version="7.0.0")
    type_description = """\
A resource for Neutron QoS DSCP marking rule.

This rule can be associated with QoS policy, and then the policy
can be used by neutron port and network, to provide DSCP marking
QoS capabilities.

The default policy usage of this resource is limited to
administrators only.
"""

    PROPERTIES = (DSCP_MARK,) = ("dscp_mark",)

    properties_schema = {
        DSCP_MARK: Schema(
            Schema.INTEGER,
            "DSCP mark between 0 and 56, except 2-6, 42, 44, and 50-54.",
            required=True,
            update_allowed=True,
            constraints=[
                constraints.AllowedValues(
                    [0, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34]
                    + [36, 38, 40, 46, 48, 56]
                )
            ],
        ),
        **RULE_PROPERTIES,
    }


class QoSMinimumBandwidthRule(QoSRule):
    entity = "minimum_bandwidth_rule"
    required_service_extension = "qos-bw-minimum-ingress"
    support_status = SupportStatus(version="14.0.0")
    type_description = """\
A resource for guaranteeing bandwidth.

This rule can be associated with a QoS policy, and then the policy
can be used by a neutron port to provide guaranteed bandwidth QoS
capabilities.

Depending on drivers the guarantee may be enforced on two levels.
First when a server is placed (scheduled) on physical infrastructure
and/or second in the data plane of the physical hypervisor. For details
please see Neutron documentation:

https://docs.openstack.org/neutron/latest/admin/config-qos-min-bw.html

The default policy usage of this resource is limited to
administrators only.
"""

    PROPERTIES = (MIN_BANDWIDTH, DIRECTION) = ("min_kbps", DIRECTION)

    properties_schema = {
        MIN_BANDWIDTH: _rate("Min bandwidth in kbps.", required=True),
        DIRECTION: _direction(["egress", "ingress"]),
        **RULE_PROPERTIES,
    }


class QoSMinimumPacketRateRule(QoSRule):
    entity = "minimum_packet_rate_rule"
    required_service_extension = "qos-pps-minimum"
    support_status = SupportStatus(version="19.0.0")
    type_description = """\
A resource for guaranteeing packet rate.

This rule can be associated with a QoS policy, and then the policy
can be used by a neutron port to provide guaranteed packet rate QoS
capabilities.

Depending on drivers the guarantee may be enforced on two levels.
First when a server is placed (scheduled) on physical infrastructure
and/or second in the data plane of the physical hypervisor. For details
please see Neutron documentation:

https://docs.openstack.org/neutron/latest/admin/config-qos-min-pps.html

The default policy usage of this resource is limited to
administrators only.
"""

    PROPERTIES = (MIN_PACKET_RATE, DIRECTION) = ("min_kpps", DIRECTION)

    properties_schema = {
        MIN_PACKET_RATE: _rate("Min packet rate in kpps.", required=True),
        DIRECTION: _direction(["any", "egress", "ingress"]),
        **RULE_PROPERTIES,
    }


RESOURCE_CLASSES = {
    "OS::Neutron::QoSBandwidthLimitRule": QoSBandwidthLimitRule,
    "OS::Neutron::QoSDscpMarkingRule": QoSDscpMarkingRule,
    "OS::Neutron::QoSMinimumBandwidthRule": QoSMinimumBandwidthRule,
    "OS::Neutron::QoSMinimumPacketRateRule": QoSMinimumPacketRateRule,
}
