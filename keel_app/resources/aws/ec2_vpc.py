"""AWS::EC2::VPC: a Neutron network and a router, tied together by bearing the same name.

The physical id is the network's; the VPC's router is found again by the network's name
(the other EC2 types plug their subnets into it and copy its gateway). Nothing changes
in place. The CIDR block is accepted and not sent anywhere, as in Heat.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.properties import Schema
from keel_app.engine.resource import Resource
from keel_app.resources.aws.ec2_tags import tags_schema
from keel_app.resources.neutron.base import NeutronResource


def network_for_vpc(neutron: Any, network_id: str) -> dict[str, Any]:
    return neutron.show("network", network_id)


def router_for_vpc(neutron: Any, network_id: str) -> dict[str, Any] | None:
    """The router named as the VPC's network; None where there is none (a network made
    outside Heat)."""
    name = network_for_vpc(neutron, network_id)["name"]
    routers = neutron.list("router", name=name)
    if len(routers) > 1:
        raise exception.Error(f"Multiple routers found with name {name}")
    return routers[0] if routers else None


class VPC(Resource):
    default_client_name = "neutron"

    PROPERTIES = (CIDR_BLOCK, INSTANCE_TENANCY, TAGS) = ("CidrBlock", "InstanceTenancy", "Tags")

    properties_schema = {
        CIDR_BLOCK: Schema(Schema.STRING, "CIDR block to apply to the VPC."),
        INSTANCE_TENANCY: Schema(
            Schema.STRING,
            "Allowed tenancy of instances launched in the VPC. default - any tenancy; "
            "dedicated - instance will be dedicated, regardless of the tenancy option "
            "specified at instance launch.",
            default="default",
            constraints=[constraints.AllowedValues(["default", "dedicated"])],
            implemented=False,
        ),
        TAGS: tags_schema("List of tags to attach to the instance."),
    }

    def handle_create(self) -> None:
        neutron = self.client_plugin()
        name = self.physical_resource_name()
        network = neutron.create("network", {"name": name})
        self.resource_id_set(network["id"])
        neutron.create("router", {"name": name})

    def check_create_complete(self, _token: Any = None) -> bool:
        neutron = self.client_plugin()
        if not NeutronResource.is_built(network_for_vpc(neutron, self.resource_id)):
            return False
        return NeutronResource.is_built(router_for_vpc(neutron, self.resource_id))  # type: ignore[arg-type]

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        neutron = self.client_plugin()
        with neutron.ignore_not_found():
            router = router_for_vpc(neutron, self.resource_id)
            if router:
                neutron.delete("router", router["id"])
        with neutron.ignore_not_found():
            neutron.delete("network", self.resource_id)


RESOURCE_CLASSES = {"AWS::EC2::VPC": VPC}
