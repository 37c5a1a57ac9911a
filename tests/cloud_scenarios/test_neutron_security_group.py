"""OS::Neutron::SecurityGroup and OS::Neutron::SecurityGroupRule against the real Neutron:
the template's rules made beside (or instead of) Neutron's default egress rules, rules
reconciled in place on update, a rule resource replaced when it changes, everything gone
after delete, and the refusals reported as Heat reports them."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest, HTTPNotFound

from tests.cloud_scenarios.conftest import delete_stack, physical_ids, unique, wait_for_stack

# A rule as compared here: what Neutron holds, less ids and bookkeeping.
RULE_FIELDS = (
    "direction",
    "ethertype",
    "protocol",
    "port_range_min",
    "port_range_max",
    "remote_ip_prefix",
    "remote_group_id",
    "description",
)
# Neutron's own egress rules of a new group (they have no description at all).
ALL_OUT = {
    ("egress", "IPv4", None, None, None, None, None, None),
    ("egress", "IPv6", None, None, None, None, None, None),
}


def groups_template(ssh_from: str, web_rules: list[dict[str, Any]], rule_port: int) -> Any:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"name": {"type": "string"}},
        "resources": {
            "web": {
                "type": "OS::Neutron::SecurityGroup",
                "properties": {
                    "name": {"get_param": "name"},
                    "description": "web servers",
                    "rules": [
                        {
                            "protocol": "tcp",
                            "port_range_min": 22,
                            "port_range_max": 22,
                            "remote_ip_prefix": ssh_from,
                            "description": "ssh",
                        },
                        # Any protocol from the group's own members.
                        {"remote_mode": "remote_group_id"},
                        *web_rules,
                    ],
                },
            },
            "extra": {
                "type": "OS::Neutron::SecurityGroupRule",
                "properties": {
                    "security_group": {"get_resource": "web"},
                    "protocol": "udp",
                    "port_range_min": rule_port,
                    "port_range_max": rule_port,
                    "remote_ip_prefix": "192.168.0.0/16",
                    "description": "dns",
                },
            },
        },
        "outputs": {"rules": {"value": {"get_attr": ["web", "show", "security_group_rules"]}}},
    }


def rules_of(member: openstack.connection.Connection, group_id: str) -> dict[tuple, str]:
    """The group's rules as Neutron holds them, each with its id."""
    group = member.network.get_security_group(group_id)
    return {
        tuple(rule[field] for field in RULE_FIELDS): rule["id"]
        for rule in group.security_group_rules
    }


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


def test_rules_are_made_reconciled_in_place_and_deleted_with_the_group(
    heat: Any, member: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    name = unique("web-sg")
    https = {"protocol": "tcp", "port_range_min": 443, "port_range_max": 443}
    template = groups_template("10.0.0.0/8", [https], 53)
    stack_id = create_stack(
        stack_name=unique("sg-life"), template=template, parameters={"name": name}
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    group = member.network.get_security_group(ids["web"])
    assert (group.name, group.description) == (name, "web servers")
    ssh = ("ingress", "IPv4", "tcp", 22, 22, "10.0.0.0/8", None, "ssh")
    members = ("ingress", "IPv4", None, None, None, None, group.id, "")
    web = ("ingress", "IPv4", "tcp", 443, 443, None, None, "")
    dns = ("ingress", "IPv4", "udp", 53, 53, "192.168.0.0/16", None, "dns")
    before = rules_of(member, group.id)
    # No egress rule in the template: Neutron's own two are kept.
    assert set(before) == {ssh, members, web, dns} | ALL_OUT
    assert before[dns] == ids["extra"]
    shown = heat.stacks.get(stack_id).outputs[0]["output_value"]
    assert {rule["id"] for rule in shown} == set(before.values())

    # Only outgoing HTTPS now, and HTTPS in no more; the rule resource on another port.
    https_out = {"direction": "egress", **https, "remote_ip_prefix": "0.0.0.0/0"}
    heat.stacks.update(
        stack_id,
        template=groups_template("10.0.0.0/8", [https_out], 5353),
        parameters={"name": name + "-2"},
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    after_ids = physical_ids(heat, stack_id)
    assert after_ids["web"] == group.id
    assert member.network.get_security_group(group.id).name == name + "-2"
    after = rules_of(member, group.id)
    out = ("egress", "IPv4", "tcp", 443, 443, "0.0.0.0/0", None, "")
    mdns = ("ingress", "IPv4", "udp", 5353, 5353, "192.168.0.0/16", None, "dns")
    assert set(after) == {ssh, members, out, mdns}
    # Unchanged rules are left as they were, the rule resource is replaced.
    assert (after[ssh], after[members]) == (before[ssh], before[members])
    assert after[mdns] == after_ids["extra"] != ids["extra"]

    # Without an egress rule again, Neutron's allow-all egress rules come back.
    heat.stacks.update(
        stack_id, template=groups_template("10.1.0.0/16", [], 5353), parameters={"name": name}
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    ssh_narrow = ("ingress", "IPv4", "tcp", 22, 22, "10.1.0.0/16", None, "ssh")
    # As in Heat, the group's rules are reconciled with all that Neutron holds: the rule
    # resource's rule, which the group's template does not list, goes too.
    assert set(rules_of(member, group.id)) == {ssh_narrow, members} | {
        (*rule[:-1], "") for rule in ALL_OUT
    }

    delete_stack(heat, stack_id)
    assert member.network.find_security_group(group.id) is None
    assert member.network.find_security_group_rule(after_ids["extra"]) is None


def test_an_egress_rule_in_the_template_replaces_neutrons_default_egress(
    heat: Any, member: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "closed": {
                "type": "OS::Neutron::SecurityGroup",
                "properties": {
                    "rules": [{"direction": "egress", "ethertype": "IPv6", "protocol": "ipv6-icmp"}]
                },
            }
        },
    }
    stack_name = unique("sg-egress")
    stack_id = create_stack(stack_name=stack_name, template=template)
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    group = member.network.get_security_group(physical_ids(heat, stack_id)["closed"])
    # Named after the stack and the resource, as Heat names what the template leaves unnamed.
    assert group.name.startswith(f"{stack_name}-closed-")
    assert set(rules_of(member, group.id)) == {
        ("egress", "IPv6", "ipv6-icmp", None, None, None, None, "")
    }
    delete_stack(heat, stack_id)
    assert member.network.find_security_group(group.id) is None


def test_a_rule_neutron_refuses_fails_the_create_with_neutronclients_error(
    heat: Any, member: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {"type": "OS::Neutron::SecurityGroup"},
            # Within the schema's port range, but no ICMP type.
            "icmp": {
                "type": "OS::Neutron::SecurityGroupRule",
                "properties": {
                    "security_group": {"get_resource": "group"},
                    "protocol": "icmp",
                    "port_range_min": 300,
                },
            },
        },
    }
    stack_id = create_stack(stack_name=unique("sg-icmp"), template=template)
    stack = wait_for_stack(heat, stack_id, "CREATE")

    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: BadRequest: resources.icmp: Invalid value for ICMP type "
        "(port_range_min) 300. It must be 0 to 255.\nNeutron server returns request_ids: "
        "['req-"
    ), stack.stack_status_reason
    group_id = physical_ids(heat, stack_id)["group"]
    assert set(rules_of(member, group_id)) == ALL_OUT
    delete_stack(heat, stack_id)
    assert member.network.find_security_group(group_id) is None


def test_a_group_named_default_is_refused_before_anything_is_made(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {"type": "OS::Neutron::SecurityGroup", "properties": {"name": "default"}}
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("sg-default"), template=template)

    assert refused.value.error["error"] == {
        "message": 'Security groups cannot be assigned the name "default".',
        "traceback": None,
        "type": "StackValidationFailed",
    }


def test_a_rule_for_a_group_that_does_not_exist_is_refused(heat: Any) -> None:
    missing = unique("no-such-group")
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "rule": {
                "type": "OS::Neutron::SecurityGroupRule",
                "properties": {"security_group": missing},
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("sg-missing"), template=template)

    assert refused.value.error["error"] == {
        "message": "Property error: : resources.rule.properties.security_group: : Error "
        "validating "
        f"value '{missing}': Unable to find security_group with name or id '{missing}'",
        "traceback": None,
        "type": "StackValidationFailed",
    }


def stateful_template(stateful: bool, with_port: bool) -> dict[str, Any]:
    resources: dict[str, Any] = {
        "group": {"type": "OS::Neutron::SecurityGroup", "properties": {"stateful": stateful}}
    }
    if with_port:
        resources["net"] = {"type": "OS::Neutron::Net"}
        resources["port"] = {
            "type": "OS::Neutron::Port",
            "properties": {
                "network": {"get_resource": "net"},
                "security_groups": [{"get_resource": "group"}],
                "fixed_ips": [],
            },
        }
    return {"heat_template_version": "2018-08-31", "resources": resources}


def test_stateful_changes_in_place_only_while_no_port_uses_the_group(
    heat: Any, member: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    stack_id = create_stack(
        stack_name=unique("sg-stateful"), template=stateful_template(True, with_port=False)
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    group_id = physical_ids(heat, stack_id)["group"]
    assert member.network.get_security_group(group_id).stateful is True

    heat.stacks.update(stack_id, template=stateful_template(False, with_port=True))
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["group"] == group_id
    assert member.network.get_security_group(group_id).stateful is False

    heat.stacks.update(stack_id, template=stateful_template(True, with_port=True))
    stack = wait_for_stack(heat, stack_id, "UPDATE")

    assert stack.stack_status == "UPDATE_FAILED"
    assert stack.stack_status_reason == (
        'Resource UPDATE failed: NotSupported: resources.group: Updating the "stateful" '
        f'property while security group "{group_id}" is attached to ports. Detach all ports '
        "from the security group and retry. is not supported."
    )
    assert member.network.get_security_group(group_id).stateful is False
