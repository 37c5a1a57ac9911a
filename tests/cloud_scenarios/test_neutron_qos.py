"""OS::Neutron::QoSPolicy and its rules (bandwidth limit, DSCP marking, minimum bandwidth,
minimum packet rate) against the real Neutron, as the cloud's admin (Heat's and Neutron's
policies keep QoS to admins): a policy with one rule of each kind, named by a network and
a port, changed in place (the network moved to a policy named by name), a rule moved to
another policy replaced, refused as Neutron refuses, and gone after delete."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPNotFound

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat
from tests.cloud_scenarios.conftest import physical_ids, unique, wait_for_stack


@pytest.fixture(scope="module")
def heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with admin_heat(cloud, tmp_path_factory.mktemp("neutron-qos")) as client:
        yield client


@pytest.fixture
def create_stack(heat: Any) -> Iterator[Callable[..., str]]:
    """Creates a stack, the id returned; what a test leaves behind is deleted after it."""
    made: list[str] = []

    def create(**arguments: Any) -> str:
        stack_id = str(heat.stacks.create(**arguments)["stack"]["id"])
        made.append(stack_id)
        return stack_id

    yield create
    for stack_id in made:
        with contextlib.suppress(HTTPNotFound):  # the test deleted it
            heat.stacks.delete(stack_id)
    for stack_id in made:
        wait_for_stack(heat, stack_id, "DELETE")


def qos_template(
    policy: dict[str, Any],
    rules: dict[str, dict[str, Any]],
    net: dict[str, Any],
    dscp_policy: str = "policy",
) -> dict[str, Any]:
    """A policy with one rule of each kind, a spare policy, and a network and a port on
    it that use the policy."""
    kinds = {
        "limit": "OS::Neutron::QoSBandwidthLimitRule",
        "dscp": "OS::Neutron::QoSDscpMarkingRule",
        "minimum": "OS::Neutron::QoSMinimumBandwidthRule",
        "packets": "OS::Neutron::QoSMinimumPacketRateRule",
    }
    resources: dict[str, Any] = {
        "policy": {
            "type": "OS::Neutron::QoSPolicy",
            "properties": {"name": {"get_param": "name"}, **policy},
        },
        "spare": {
            "type": "OS::Neutron::QoSPolicy",
            "properties": {"name": {"list_join": ["-", [{"get_param": "name"}, "spare"]]}},
        },
        # A policy named by name is no dependency: the network waits for both.
        "net": {"type": "OS::Neutron::Net", "depends_on": ["policy", "spare"], "properties": net},
        "subnet": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": "10.213.0.0/24"},
        },
        "port": {
            "type": "OS::Neutron::Port",
            "depends_on": ["subnet"],
            "properties": {
                "network": {"get_resource": "net"},
                "qos_policy": {"get_resource": "policy"},
            },
        },
    }
    for name, kind in kinds.items():
        owner = dscp_policy if name == "dscp" else "policy"
        resources[name] = {
            "type": kind,
            "properties": {"policy": {"get_resource": owner}, **rules[name]},
        }
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"name": {"type": "string"}},
        "resources": resources,
        "outputs": {"rules": {"value": {"get_attr": ["policy", "rules"]}}},
    }


def rule_values(rule: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in rule.items() if key not in ("id", "qos_policy_id")}


def test_a_policy_its_rules_and_their_users_are_made_changed_in_place_and_deleted(
    heat: Any, admin: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    name = unique("qos")
    rules = {
        "limit": {"max_kbps": 1000},
        "dscp": {"dscp_mark": 26},
        "minimum": {"min_kbps": 500},
        "packets": {"min_kpps": 10, "direction": "any"},
    }
    net = {"name": name, "qos_policy": {"get_resource": "policy"}}
    stack_id = create_stack(
        stack_name=unique("qos-life"),
        template=qos_template({"description": "gold"}, rules, net),
        parameters={"name": name},
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    policy = admin.network.get_qos_policy(ids["policy"])
    assert (policy.name, policy.description, policy.is_shared) == (name, "gold", False)
    by_kind = {rule["type"]: rule for rule in policy.rules}
    assert {kind: rule["id"] for kind, rule in by_kind.items()} == {
        "bandwidth_limit": ids["limit"],
        "dscp_marking": ids["dscp"],
        "minimum_bandwidth": ids["minimum"],
        "minimum_packet_rate": ids["packets"],
    }
    assert {kind: rule_values(rule) for kind, rule in by_kind.items()} == {
        "bandwidth_limit": {
            "type": "bandwidth_limit",
            "max_kbps": 1000,
            "max_burst_kbps": 0,
            "direction": "egress",
        },
        "dscp_marking": {"type": "dscp_marking", "dscp_mark": 26},
        "minimum_bandwidth": {"type": "minimum_bandwidth", "min_kbps": 500, "direction": "egress"},
        "minimum_packet_rate": {"type": "minimum_packet_rate", "min_kpps": 10, "direction": "any"},
    }
    assert admin.network.get_network(ids["net"]).qos_policy_id == policy.id
    assert admin.network.get_port(ids["port"]).qos_policy_id == policy.id
    # The output shows the policy as it was when it completed, before its rules were
    # made: Heat's convergence keeps the attribute from then.
    assert heat.stacks.get(stack_id).outputs[0]["output_value"] == []
    assert len(policy.rules) == 4

    # Every value changes in place, the network moves to the spare policy, named by its
    # name now that it exists; the DSCP rule moves there too, which takes a new rule.
    changed = {
        "limit": {"max_kbps": 2000, "max_burst_kbps": 300, "direction": "ingress"},
        "dscp": {"dscp_mark": 34},
        "minimum": {"min_kbps": 800, "direction": "ingress"},
        "packets": {"min_kpps": 20, "direction": "egress"},
    }
    template = qos_template(
        {"description": "silver", "shared": True},
        changed,
        {"name": name, "qos_policy": f"{name}-spare"},
        dscp_policy="spare",
    )
    heat.stacks.update(stack_id, template=template, parameters={"name": name})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason

    after = physical_ids(heat, stack_id)
    assert after["dscp"] != ids["dscp"]
    assert {key: value for key, value in after.items() if key != "dscp"} == {
        key: value for key, value in ids.items() if key != "dscp"
    }
    policy = admin.network.get_qos_policy(ids["policy"])
    assert (policy.name, policy.description, policy.is_shared) == (name, "silver", True)
    assert {rule["type"]: rule_values(rule) for rule in policy.rules} == {
        "bandwidth_limit": {
            "type": "bandwidth_limit",
            "max_kbps": 2000,
            "max_burst_kbps": 300,
            "direction": "ingress",
        },
        "minimum_bandwidth": {
            "type": "minimum_bandwidth",
            "min_kbps": 800,
            "direction": "ingress",
        },
        "minimum_packet_rate": {
            "type": "minimum_packet_rate",
            "min_kpps": 20,
            "direction": "egress",
        },
    }
    spare = admin.network.get_qos_policy(ids["spare"])
    assert [(rule["id"], rule["dscp_mark"]) for rule in spare.rules] == [(after["dscp"], 34)]
    assert admin.network.get_network(ids["net"]).qos_policy_id == spare.id
    assert admin.network.get_port(ids["port"]).qos_policy_id == policy.id

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert admin.network.find_port(ids["port"]) is None
    assert admin.network.find_network(ids["net"]) is None
    assert admin.network.find_qos_policy(ids["policy"]) is None
    assert admin.network.find_qos_policy(ids["spare"]) is None


def test_a_rate_beyond_neutrons_range_fails_with_neutronclients_error(
    heat: Any, admin: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    # Heat only asks for a rate of at least 0; Neutron's limit is its integer column's.
    # (A rule conflicting with another is refused too, but Heat retries conflicts.)
    name = unique("qos-huge")
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "policy": {"type": "OS::Neutron::QoSPolicy", "properties": {"name": name}},
            "limit": {
                "type": "OS::Neutron::QoSBandwidthLimitRule",
                "properties": {"policy": {"get_resource": "policy"}, "max_kbps": 3000000000},
            },
        },
    }
    stack_id = create_stack(stack_name=name, template=template)
    stack = wait_for_stack(heat, stack_id, "CREATE")

    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: BadRequest: resources.limit: Invalid input for max_kbps. "
        "Reason: '3000000000' is too large - must be no larger than '2147483647'.\n"
        "Neutron server returns request_ids: ['req-"
    ), stack.stack_status_reason
    assert admin.network.get_qos_policy(physical_ids(heat, stack_id)["policy"]).rules == []
