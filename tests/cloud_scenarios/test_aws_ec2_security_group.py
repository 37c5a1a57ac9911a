"""AWS::EC2::SecurityGroup against the real Neutron, from CFN templates: EC2 rules made as
IPv4 Neutron rules (Neutron's allow-all egress kept or replaced), rules reconciled in place
on update as Heat reconciles them, everything gone after delete, and Heat's refusals."""

from __future__ import annotations

import copy
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud_scenarios.conftest import delete_stack, physical_ids, unique, wait_for_stack

# What a failed test leaves is deleted after it.
pytestmark = pytest.mark.usefixtures("stacks_left_behind")

# A rule as compared here: what Neutron holds, less ids and bookkeeping.
RULE_FIELDS = (
    "direction",
    "ethertype",
    "protocol",
    "port_range_min",
    "port_range_max",
    "remote_ip_prefix",
    "remote_group_id",
)
# Neutron's own egress rules of a new group.
ALL_OUT = {
    ("egress", "IPv4", None, None, None, None, None),
    ("egress", "IPv6", None, None, None, None, None),
}


def rules(member: openstack.connection.Connection, group_id: str) -> set[tuple[Any, ...]]:
    return {
        tuple(rule[field] for field in RULE_FIELDS)
        for rule in member.network.get_security_group(group_id).security_group_rules
    }


def groups_template(web_ingress: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "web": {
                "Type": "AWS::EC2::SecurityGroup",
                "Properties": {
                    "GroupDescription": "web servers",
                    "SecurityGroupIngress": web_ingress,
                    "SecurityGroupEgress": [
                        {"IpProtocol": "tcp", "FromPort": "443", "ToPort": "443",
                         "CidrIp": "0.0.0.0/0"},
                    ],
                },
            },
            "admin": {
                "Type": "AWS::EC2::SecurityGroup",
                "Properties": {
                    "GroupDescription": "admins",
                    "SecurityGroupIngress": [
                        {"IpProtocol": "tcp", "FromPort": "22", "ToPort": "22",
                         "SourceSecurityGroupId": {"Ref": "web"}},
                    ],
                },
            },
        },
        "Outputs": {"web": {"Value": {"Ref": "web"}}},
    }  # fmt: skip


SSH = {"IpProtocol": "tcp", "FromPort": "22", "ToPort": "22", "CidrIp": "10.0.0.0/8"}
# EC2's -1: any ICMP type and code, which Neutron takes as no port range.
PING = {"IpProtocol": "icmp", "FromPort": "-1", "ToPort": "-1", "CidrIp": "0.0.0.0/0"}
DNS = {"IpProtocol": "udp", "FromPort": "53", "ToPort": "53", "CidrIp": "192.168.0.0/16"}
# No ports: any traffic of the protocol, and Heat drops the prefix then.
ANY_TCP = {"IpProtocol": "tcp", "CidrIp": "172.16.0.0/12"}


def test_a_security_group_lives_changes_its_rules_in_place_and_goes(
    heat: Any, member: openstack.connection.Connection
) -> None:
    template = groups_template([SSH, PING, ANY_TCP])
    created = heat.stacks.create(stack_name=unique("ec2-group"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    web = member.network.get_security_group(ids["web"])
    assert web.description == "web servers"
    assert web.name.startswith("ec2-group-") and "-web-" in web.name
    # Its own egress rule took the place of Neutron's allow-all ones.
    assert rules(member, ids["web"]) == {
        ("ingress", "IPv4", "tcp", 22, 22, "10.0.0.0/8", None),
        ("ingress", "IPv4", "icmp", None, None, "0.0.0.0/0", None),
        ("ingress", "IPv4", "tcp", None, None, None, None),
        ("egress", "IPv4", "tcp", 443, 443, "0.0.0.0/0", None),
    }
    # No egress rule of its own: Neutron's stay.
    assert rules(member, ids["admin"]) == {
        ("ingress", "IPv4", "tcp", 22, 22, None, ids["web"]),
        *ALL_OUT,
    }
    assert heat.stacks.get(stack_id).outputs[0]["output_value"] == ids["web"]

    # In place: the ping rule goes, a DNS rule comes, the others are left alone.
    web_rule_ids = {
        rule["protocol"]: rule["id"]
        for rule in member.network.get_security_group(ids["web"]).security_group_rules
        if rule["port_range_min"] == 22
    }
    changed = groups_template([SSH, ANY_TCP, DNS])
    heat.stacks.update(stack_id, template=changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert rules(member, ids["web"]) == {
        ("ingress", "IPv4", "tcp", 22, 22, "10.0.0.0/8", None),
        ("ingress", "IPv4", "tcp", None, None, None, None),
        ("ingress", "IPv4", "udp", 53, 53, "192.168.0.0/16", None),
        ("egress", "IPv4", "tcp", 443, 443, "0.0.0.0/0", None),
    }
    kept = member.network.get_security_group(ids["web"]).security_group_rules
    assert web_rule_ids == {
        rule["protocol"]: rule["id"] for rule in kept if rule["port_range_min"] == 22
    }

    # The admin group's rules change too: Heat's reconciliation keeps only the
    # template's rules, so Neutron's default egress rules go with the update.
    admin_changed = copy.deepcopy(changed)
    admin_changed["Resources"]["admin"]["Properties"]["SecurityGroupIngress"].append(DNS)
    heat.stacks.update(stack_id, template=admin_changed)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert rules(member, ids["admin"]) == {
        ("ingress", "IPv4", "tcp", 22, 22, None, ids["web"]),
        ("ingress", "IPv4", "udp", 53, 53, "192.168.0.0/16", None),
    }

    delete_stack(heat, stack_id)
    for group_id in (ids["web"], ids["admin"]):
        assert member.network.find_security_group(group_id) is None


def test_an_unimplemented_rule_key_is_refused_before_anything_is_made(
    heat: Any,
) -> None:
    owned = dict(SSH, SourceSecurityGroupOwnerId="123456789012")
    name = unique("ec2-group-refused")
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=name, template=groups_template([owned]))

    assert refused.value.error["error"]["type"] == "StackValidationFailed"
    # Heat's API repeats the separators of a message with a path.
    assert refused.value.error["error"]["message"] == (
        "Property error: : Resources.web.Properties.SecurityGroupIngress[0]: : "
        "Property SourceSecurityGroupOwnerId not implemented yet"
    )
    assert [stack for stack in heat.stacks.list() if stack.stack_name == name] == []


def test_a_port_that_is_no_number_fails_the_create_as_in_heat(
    heat: Any, member: openstack.connection.Connection
) -> None:
    broken = dict(SSH, FromPort="ssh")
    created = heat.stacks.create(
        stack_name=unique("ec2-group-bad-port"), template=groups_template([broken])
    )
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: ValueError: resources.web: "
        "invalid literal for int() with base 10: 'ssh'"
    )
    web_id = physical_ids(heat, stack_id)["web"]
    delete_stack(heat, stack_id)
    assert member.network.find_security_group(web_id) is None
