"""AWS::EC2::VPC, Subnet, RouteTable, SubnetRouteTableAssociation, InternetGateway,
VPCGatewayAttachment and NetworkInterface against the real Neutron, from CFN templates:
a VPC's network and router, subnets plugged into the VPC's router or a route table's, the
route table's gateway on the cloud's external network, a network interface's port and
its security groups changed in place; everything gone after delete; Heat's refusals."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)
from tests.cloud_scenarios.external_network import (
    ExternalNetwork,
    external_network,
    wait_until_the_only_external_network,
)

# What a failed test leaves is deleted after it.
pytestmark = pytest.mark.usefixtures("stacks_left_behind")


@pytest.fixture(scope="module")
def public(cloud: Cloud) -> Iterator[ExternalNetwork]:
    """The cloud's external network (Heat's internet gateway expects exactly one)."""
    with external_network(cloud, "ec2-public") as made:
        yield made


def vpc_template() -> dict[str, Any]:
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "vpc": {"Type": "AWS::EC2::VPC", "Properties": {"CidrBlock": "10.60.0.0/16"}},
            "subnet": {
                "Type": "AWS::EC2::Subnet",
                "Properties": {
                    "VpcId": {"Ref": "vpc"},
                    "CidrBlock": "10.60.1.0/24",
                    "AvailabilityZone": "nova",
                    "Tags": [],
                },
            },
            "routed": {
                "Type": "AWS::EC2::Subnet",
                "Properties": {"VpcId": {"Ref": "vpc"}, "CidrBlock": "10.60.2.0/24"},
            },
            "table": {"Type": "AWS::EC2::RouteTable", "Properties": {"VpcId": {"Ref": "vpc"}}},
            "association": {
                "Type": "AWS::EC2::SubnetRouteTableAssociation",
                # Its delete plugs the subnet back into the VPC's router, a new port on the
                # network, which Neutron refuses (a Conflict, in Heat too) while another
                # subnet of the network is being deleted: it goes before that subnet.
                "DependsOn": "subnet",
                "Properties": {"RouteTableId": {"Ref": "table"}, "SubnetId": {"Ref": "routed"}},
            },
            "gateway": {"Type": "AWS::EC2::InternetGateway"},
            "attachment": {
                "Type": "AWS::EC2::VPCGatewayAttachment",
                # Heat makes an attachment wait for its VPC's route tables by itself; the
                # engine's convergence graph does not take such implied dependencies yet.
                "DependsOn": "table",
                "Properties": {"VpcId": {"Ref": "vpc"}, "InternetGatewayId": {"Ref": "gateway"}},
            },
            "group": {
                "Type": "AWS::EC2::SecurityGroup",
                "Properties": {"GroupDescription": "nic", "VpcId": {"Ref": "vpc"}},
            },
            "nic": {
                "Type": "AWS::EC2::NetworkInterface",
                "Properties": {
                    "SubnetId": {"Ref": "subnet"},
                    "PrivateIpAddress": "10.60.1.20",
                    "GroupSet": [{"Ref": "group"}],
                    "Description": "eth0",
                },
            },
        },
        "Outputs": {
            "ip": {"Value": {"Fn::GetAtt": ["nic", "PrivateIpAddress"]}},
            "zone": {"Value": {"Fn::GetAtt": ["subnet", "AvailabilityZone"]}},
        },
    }


def interface_subnets(member: openstack.connection.Connection, router_id: str) -> set[str]:
    return {
        fixed_ip["subnet_id"]
        for port in member.network.ports(device_id=router_id)
        if port.device_owner == "network:router_interface"
        for fixed_ip in port.fixed_ips
    }


def default_group_id(member: openstack.connection.Connection) -> str:
    project_id = member.current_project_id
    [group] = member.network.security_groups(name="default", project_id=project_id)
    return str(group.id)


def test_a_vpc_with_subnets_a_routed_gateway_and_an_interface_lives_and_goes(
    heat: Any, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    template = vpc_template()
    wait_until_the_only_external_network(member, public)
    created = heat.stacks.create(stack_name=unique("ec2-vpc"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)

    # The VPC: a network, and a router of the same name found by that name.
    network = member.network.get_network(ids["vpc"])
    [vpc_router] = member.network.routers(name=network.name)
    assert network.name.startswith("ec2-vpc-") and "-vpc-" in network.name
    # The plain subnet is on the VPC's router; the routed one moved to the table's.
    subnet = member.network.get_subnet(ids["subnet"])
    assert (subnet.network_id, subnet.cidr, subnet.ip_version) == (ids["vpc"], "10.60.1.0/24", 4)
    routed = member.network.get_subnet(ids["routed"])
    assert (routed.network_id, routed.cidr) == (ids["vpc"], "10.60.2.0/24")
    assert interface_subnets(member, vpc_router.id) == {ids["subnet"]}
    assert interface_subnets(member, ids["table"]) == {ids["routed"]}
    # The gateway: only a name, attached as the external gateway of the VPC's route
    # tables (the VPC's own router keeps none, as in Heat).
    assert ids["gateway"].startswith("ec2-vpc-") and "-gateway-" in ids["gateway"]
    table = member.network.get_router(ids["table"])
    assert table.external_gateway_info["network_id"] == public.network.id
    assert member.network.get_router(vpc_router.id).external_gateway_info is None
    # The interface: a port on the subnet with the address and group asked for.
    port = member.network.get_port(ids["nic"])
    assert port.network_id == ids["vpc"]
    assert port.fixed_ips == [{"subnet_id": ids["subnet"], "ip_address": "10.60.1.20"}]
    assert port.security_group_ids == [ids["group"]]
    assert outputs(heat.stacks.get(stack_id)) == {"ip": "10.60.1.20", "zone": "nova"}

    # In place: the interface's groups, none at all.
    no_groups = copy.deepcopy(template)
    no_groups["Resources"]["nic"]["Properties"]["GroupSet"] = []
    heat.stacks.update(stack_id, template=no_groups)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert member.network.get_port(ids["nic"]).security_group_ids == []

    # Taken out of the template: the project's default group, as at create.
    default_groups = copy.deepcopy(template)
    del default_groups["Resources"]["nic"]["Properties"]["GroupSet"]
    heat.stacks.update(stack_id, template=default_groups)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert member.network.get_port(ids["nic"]).security_group_ids == [default_group_id(member)]

    # Replaced: a new address is a new port.
    moved = copy.deepcopy(default_groups)
    moved["Resources"]["nic"]["Properties"]["PrivateIpAddress"] = "10.60.1.21"
    heat.stacks.update(stack_id, template=moved)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    new_nic = physical_ids(heat, stack_id)["nic"]
    assert new_nic != ids["nic"]
    assert member.network.find_port(ids["nic"]) is None
    assert member.network.get_port(new_nic).fixed_ips[0]["ip_address"] == "10.60.1.21"
    assert outputs(heat.stacks.get(stack_id))["ip"] == "10.60.1.21"

    delete_stack(heat, stack_id)
    assert member.network.find_network(ids["vpc"]) is None
    assert member.network.find_router(vpc_router.id) is None
    assert member.network.find_router(ids["table"]) is None
    assert member.network.find_port(new_nic) is None
    assert member.network.find_security_group(ids["group"]) is None
    assert list(member.network.ports(network_id=public.network.id)) == []


def test_a_route_table_takes_the_gateway_the_vpc_router_has(
    heat: Any, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {"vpc": {"Type": "AWS::EC2::VPC"}},
    }
    created = heat.stacks.create(stack_name=unique("ec2-table"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    vpc_id = physical_ids(heat, stack_id)["vpc"]
    [vpc_router] = member.network.routers(name=member.network.get_network(vpc_id).name)
    # Someone gives the VPC's router a way out.
    member.network.update_router(
        vpc_router, external_gateway_info={"network_id": public.network.id}
    )

    with_table = copy.deepcopy(template)
    with_table["Resources"]["table"] = {
        "Type": "AWS::EC2::RouteTable",
        "Properties": {"VpcId": {"Ref": "vpc"}},
    }
    heat.stacks.update(stack_id, template=with_table)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    table_id = physical_ids(heat, stack_id)["table"]
    table = member.network.get_router(table_id)
    assert table.external_gateway_info["network_id"] == public.network.id

    delete_stack(heat, stack_id)
    assert member.network.find_router(table_id) is None
    assert member.network.find_router(vpc_router.id) is None
    assert member.network.find_network(vpc_id) is None


def test_a_gateway_attachment_needs_exactly_one_external_network(
    heat: Any, cloud: Cloud, member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "vpc": {"Type": "AWS::EC2::VPC"},
            "table": {"Type": "AWS::EC2::RouteTable", "Properties": {"VpcId": {"Ref": "vpc"}}},
            "gateway": {"Type": "AWS::EC2::InternetGateway"},
            "attachment": {
                "Type": "AWS::EC2::VPCGatewayAttachment",
                "DependsOn": "table",
                "Properties": {"VpcId": {"Ref": "vpc"}, "InternetGatewayId": {"Ref": "gateway"}},
            },
        },
    }
    with external_network(cloud, "ec2-second-public"):
        created = heat.stacks.create(
            stack_name=unique("ec2-two-publics"), template=template, disable_rollback=True
        )
        stack_id = created["stack"]["id"]
        stack = wait_for_stack(heat, stack_id, "CREATE")
        assert stack.stack_status == "CREATE_FAILED"
        # Two or more: other tests sharing the cloud may have theirs too.
        refusal = re.fullmatch(
            "Resource CREATE failed: Error: resources.attachment: "
            r"Expected 1 external network, found (\d+)",
            stack.stack_status_reason,
        )
        assert refusal and int(refusal.group(1)) >= 2, stack.stack_status_reason
        table_id = physical_ids(heat, stack_id)["table"]
        assert member.network.get_router(table_id).external_gateway_info is None
        delete_stack(heat, stack_id)
    assert member.network.find_router(table_id) is None


def test_tags_are_refused_as_heat_refuses_them(heat: Any) -> None:
    template = vpc_template()
    template["Resources"]["subnet"]["Properties"]["Tags"] = [{"Key": "tier", "Value": "web"}]
    name = unique("ec2-tagged")
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=name, template=template)

    assert refused.value.error["error"]["type"] == "StackValidationFailed"
    # Heat's API repeats the separators of a message with a path.
    assert refused.value.error["error"]["message"] == (
        "Property error: : Resources.subnet.Properties.Tags: : Property 0 not implemented yet"
    )
    assert [stack for stack in heat.stacks.list() if stack.stack_name == name] == []


def test_an_interface_with_an_unknown_group_fails_as_in_heat(
    heat: Any, member: openstack.connection.Connection
) -> None:
    missing = unique("no-such-group")
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "vpc": {"Type": "AWS::EC2::VPC"},
            "subnet": {
                "Type": "AWS::EC2::Subnet",
                "Properties": {"VpcId": {"Ref": "vpc"}, "CidrBlock": "10.61.1.0/24"},
            },
            "nic": {
                "Type": "AWS::EC2::NetworkInterface",
                "Properties": {"SubnetId": {"Ref": "subnet"}, "GroupSet": [missing]},
            },
        },
    }
    created = heat.stacks.create(stack_name=unique("ec2-nic-refused"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: EntityNotFound: resources.nic: "
        f"The Resource ({missing}) could not be found."
    )
    ids = physical_ids(heat, stack_id)
    assert ids["nic"] == ""
    delete_stack(heat, stack_id)
    assert member.network.find_subnet(ids["subnet"]) is None
    assert member.network.find_network(ids["vpc"]) is None


def test_an_association_taken_away_gives_the_subnet_back_to_the_vpc_router(
    heat: Any, member: openstack.connection.Connection
) -> None:
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "vpc": {"Type": "AWS::EC2::VPC"},
            "subnet": {
                "Type": "AWS::EC2::Subnet",
                "Properties": {"VpcId": {"Ref": "vpc"}, "CidrBlock": "10.62.1.0/24"},
            },
            "table": {"Type": "AWS::EC2::RouteTable", "Properties": {"VpcId": {"Ref": "vpc"}}},
            "association": {
                "Type": "AWS::EC2::SubnetRouteTableAssociation",
                "Properties": {"RouteTableId": {"Ref": "table"}, "SubnetId": {"Ref": "subnet"}},
            },
        },
    }
    created = heat.stacks.create(stack_name=unique("ec2-association"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)
    [vpc_router] = member.network.routers(name=member.network.get_network(ids["vpc"]).name)
    assert interface_subnets(member, ids["table"]) == {ids["subnet"]}
    assert interface_subnets(member, vpc_router.id) == set()

    without = copy.deepcopy(template)
    del without["Resources"]["association"]
    heat.stacks.update(stack_id, template=without)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert interface_subnets(member, ids["table"]) == set()
    assert interface_subnets(member, vpc_router.id) == {ids["subnet"]}

    delete_stack(heat, stack_id)
    assert member.network.find_router(vpc_router.id) is None
    assert member.network.find_router(ids["table"]) is None
    assert member.network.find_network(ids["vpc"]) is None
