"""AWS::EC2::RouteTable and AWS::EC2::SubnetRouteTableAssociation.

A route table is a Neutron router of its own; once it is ACTIVE it takes the external
gateway of the VPC's router, if that has one. An association moves a subnet from the
VPC's router to the route table's, and back to the VPC's router when it is deleted; it
has no physical id (its reference is its name). Nothing changes in place.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import Resource
from keel_app.resources.aws.ec2_tags import tags_schema
from keel_app.resources.aws.ec2_vpc import router_for_vpc
from keel_app.resources.neutron.base import NeutronResource


def set_router_gateway(neutron: Any, router_id: str, network_id: str) -> None:
    neutron.update("router", router_id, {"external_gateway_info": {"network_id": network_id}})


def clear_router_gateway(neutron: Any, router_id: str) -> None:
    neutron.update("router", router_id, {"external_gateway_info": {}})


class RouteTable(Resource):
    default_client_name = "neutron"
    support_status = SupportStatus(version="2014.1")

    PROPERTIES = (VPC_ID, TAGS) = ("VpcId", "Tags")

    properties_schema = {
        VPC_ID: Schema(
            Schema.STRING, "VPC ID for where the route table is created.", required=True
        ),
        TAGS: tags_schema("List of tags to be attached to this resource."),
    }

    def handle_create(self) -> None:
        router = self.client_plugin().create("router", {"name": self.physical_resource_name()})
        self.resource_id_set(router["id"])

    def check_create_complete(self, _token: Any = None) -> bool:
        neutron = self.client_plugin()
        if not NeutronResource.is_built(neutron.show("router", self.resource_id)):
            return False
        vpc_router = router_for_vpc(neutron, self.properties.get(self.VPC_ID))
        if vpc_router and vpc_router.get("external_gateway_info"):
            # The VPC reaches outside: so does this table.
            network_id = vpc_router["external_gateway_info"]["network_id"]
            set_router_gateway(neutron, self.resource_id, network_id)
        return True

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        neutron = self.client_plugin()
        with neutron.ignore_not_found():
            neutron.delete("router", self.resource_id)
        # In case a gateway attachment left its gateway behind.
        with neutron.ignore_not_found():
            clear_router_gateway(neutron, self.resource_id)


class SubnetRouteTableAssociation(Resource):
    default_client_name = "neutron"

    PROPERTIES = (ROUTE_TABLE_ID, SUBNET_ID) = ("RouteTableId", "SubnetId")

    properties_schema = {
        ROUTE_TABLE_ID: Schema(Schema.STRING, "Route table ID.", required=True),
        SUBNET_ID: Schema(
            Schema.STRING,
            "Subnet ID.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.subnet")],
        ),
    }

    def _vpc_router_of(self, subnet_id: str) -> dict[str, Any] | None:
        neutron = self.client_plugin()
        return router_for_vpc(neutron, neutron.network_id_from_subnet_id(subnet_id))

    def handle_create(self) -> None:
        neutron = self.client_plugin()
        subnet_id = self.properties.get(self.SUBNET_ID)
        with neutron.ignore_not_found():
            vpc_router = self._vpc_router_of(subnet_id)
            if vpc_router:
                neutron.remove_interface_router(vpc_router["id"], {"subnet_id": subnet_id})
        neutron.add_interface_router(
            self.properties.get(self.ROUTE_TABLE_ID), {"subnet_id": subnet_id}
        )

    def handle_delete(self) -> None:
        neutron = self.client_plugin()
        subnet_id = self.properties.get(self.SUBNET_ID)
        with neutron.ignore_not_found():
            neutron.remove_interface_router(
                self.properties.get(self.ROUTE_TABLE_ID), {"subnet_id": subnet_id}
            )
        with neutron.ignore_not_found():
            vpc_router = self._vpc_router_of(subnet_id)
            if vpc_router:
                neutron.add_interface_router(vpc_router["id"], {"subnet_id": subnet_id})


RESOURCE_CLASSES = {
    "AWS::EC2::RouteTable": RouteTable,
    "AWS::EC2::SubnetRouteTableAssociation": SubnetRouteTableAssociation,
}
