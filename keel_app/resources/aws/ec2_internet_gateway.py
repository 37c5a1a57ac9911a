"""AWS::EC2::InternetGateway and AWS::EC2::VPCGatewayAttachment.

An internet gateway is only a name (its physical id); what it stands for is the cloud's
one external network. Attaching it to a VPC gives that network as external gateway to
the routers of the stack's route tables in the VPC (not to the VPC's own router, as in
Heat), which is why an attachment waits for those route tables and goes before them;
deleting the attachment takes the gateways away again. A cloud with no external
network, or more than one, refuses the attachment.

Heat 27 reads the route tables' routers from resources its convergence step builds from
the template alone, whose physical ids are unset: there, every attachment to a VPC with
a route table fails ("Router None could not be found") and its delete leaves the
gateways. Here the route tables are read with their stored state, so the routers are
the ones the route tables made.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from keel_app.common import exception
from keel_app.engine.properties import Schema
from keel_app.engine.resource import Resource
from keel_app.engine.resource.siblings import load_sibling
from keel_app.resources.aws.ec2_route_table import (
    RouteTable,
    clear_router_gateway,
    set_router_gateway,
)
from keel_app.resources.aws.ec2_tags import tags_schema

ROUTE_TABLE_TYPE = "AWS::EC2::RouteTable"


def external_network_id(neutron: Any) -> str:
    """The id of the one external network the caller sees."""
    networks = neutron.list("network", **{"router:external": True})
    if len(networks) != 1:
        raise exception.Error(f"Expected 1 external network, found {len(networks)}")
    return str(networks[0]["id"])


class InternetGateway(Resource):
    # Nothing but its name: the create reaches no service and never waits.
    acts_locally = True

    PROPERTIES = (TAGS,) = ("Tags",)

    properties_schema = {TAGS: tags_schema(None)}

    def handle_create(self) -> None:
        self.resource_id_set(self.physical_resource_name())

    def handle_delete(self) -> None:
        return None


class VPCGatewayAttachment(Resource):
    default_client_name = "neutron"

    PROPERTIES = (VPC_ID, INTERNET_GATEWAY_ID, VPN_GATEWAY_ID) = (
        "VpcId",
        "InternetGatewayId",
        "VpnGatewayId",
    )

    properties_schema = {
        VPC_ID: Schema(Schema.STRING, "VPC ID for this gateway association.", required=True),
        INTERNET_GATEWAY_ID: Schema(Schema.STRING, "ID of the InternetGateway."),
        VPN_GATEWAY_ID: Schema(
            Schema.STRING, "ID of the VPNGateway to attach to the VPC.", implemented=False
        ),
    }

    def _vpc_route_tables(self, ignore_errors: bool = False) -> Iterator[Any]:
        """The stack's route tables in this attachment's VPC."""
        for other in self.stack.resources.values():
            if not (isinstance(other, RouteTable) or other.type() == ROUTE_TABLE_TYPE):
                continue
            try:
                vpc_id = self.properties[self.VPC_ID]
                table_vpc_id = other.properties.get(RouteTable.VPC_ID)
            except (ValueError, TypeError):
                if ignore_errors:
                    continue
                raise
            if table_vpc_id == vpc_id:
                yield other

    def add_dependencies(self, deps: Any) -> None:
        # The gateways go onto the route tables' routers: those come first. Property
        # errors are left for validation, which reports them where they are.
        super().add_dependencies(deps)
        for route_table in self._vpc_route_tables(ignore_errors=True):
            deps += (self, route_table)

    def _route_table_routers(self) -> list[str | None]:
        """The ids of the routers the VPC's route tables made (None: not made)."""
        return [
            load_sibling(self.stack, route_table.name).resource_id
            for route_table in self._vpc_route_tables()
        ]

    def handle_create(self) -> None:
        neutron = self.client_plugin()
        network_id = external_network_id(neutron)
        for router_id in self._route_table_routers():
            # A route table not made yet fails the attachment, as Neutron answers.
            set_router_gateway(neutron, router_id, network_id)  # type: ignore[arg-type]

    def handle_delete(self) -> None:
        neutron = self.client_plugin()
        for router_id in self._route_table_routers():
            if router_id is None:
                continue
            with neutron.ignore_not_found():
                clear_router_gateway(neutron, router_id)


RESOURCE_CLASSES = {
    "AWS::EC2::InternetGateway": InternetGateway,
    "AWS::EC2::VPCGatewayAttachment": VPCGatewayAttachment,
}
