"""AWS::EC2::Subnet: an IPv4 Neutron subnet on the VPC's network, plugged into the VPC's
router (when the VPC has one). Unplugged and deleted with the stack; nothing changes in
place. Its AvailabilityZone attribute is the property's value."""

from __future__ import annotations

from typing import Any

from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.resources.aws.ec2_tags import tags_schema
from keel_app.resources.aws.ec2_vpc import router_for_vpc


class Subnet(Resource):
    default_client_name = "neutron"

    PROPERTIES = (AVAILABILITY_ZONE, CIDR_BLOCK, VPC_ID, TAGS) = (
        "AvailabilityZone",
        "CidrBlock",
        "VpcId",
        "Tags",
    )
    ATTRIBUTES = (AVAILABILITY_ZONE,)

    properties_schema = {
        AVAILABILITY_ZONE: Schema(Schema.STRING, "Availability zone in which you want the subnet."),
        CIDR_BLOCK: Schema(Schema.STRING, "CIDR block to apply to subnet.", required=True),
        VPC_ID: Schema(
            Schema.STRING,
            "Ref structure that contains the ID of the VPC on which you want to create the subnet.",
            required=True,
        ),
        TAGS: tags_schema("List of tags to attach to this resource."),
    }

    attributes_schema = {
        AVAILABILITY_ZONE: AttributeSchema(
            "Availability Zone of the subnet.", type=AttributeSchema.STRING
        ),
    }

    def handle_create(self) -> None:
        neutron = self.client_plugin()
        network_id = self.properties.get(self.VPC_ID)
        subnet = neutron.create(
            "subnet",
            {
                "network_id": network_id,
                "cidr": self.properties.get(self.CIDR_BLOCK),
                "name": self.physical_resource_name(),
                "ip_version": 4,
            },
        )
        self.resource_id_set(subnet["id"])
        router = router_for_vpc(neutron, network_id)
        if router:
            neutron.add_interface_router(router["id"], {"subnet_id": subnet["id"]})

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        neutron = self.client_plugin()
        with neutron.ignore_not_found():
            router = router_for_vpc(neutron, self.properties.get(self.VPC_ID))
            if router:
                neutron.remove_interface_router(router["id"], {"subnet_id": self.resource_id})
        with neutron.ignore_not_found():
            neutron.delete("subnet", self.resource_id)

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.AVAILABILITY_ZONE:
            return self.properties.get(self.AVAILABILITY_ZONE)
        return None


RESOURCE_CLASSES = {"AWS::EC2::Subnet": Subnet}
