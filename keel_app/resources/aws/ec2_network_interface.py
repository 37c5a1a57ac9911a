"""AWS::EC2::NetworkInterface: a Neutron port with one fixed IP on the given subnet.

GroupSet names security groups by name or id: left out, the port gets the project's
default group; ``[]`` gives it none. GroupSet changes in place (taken out of the
template, the port goes back to the default group); anything else replaces the port.
The PrivateIpAddress attribute is the port's first fixed IP.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.resources.aws.ec2_tags import tags_schema


class NetworkInterface(Resource):
    default_client_name = "neutron"

    PROPERTIES = (
        DESCRIPTION,
        GROUP_SET,
        PRIVATE_IP_ADDRESS,
        SOURCE_DEST_CHECK,
        SUBNET_ID,
        TAGS,
    ) = (
        "Description",
        "GroupSet",
        "PrivateIpAddress",
        "SourceDestCheck",
        "SubnetId",
        "Tags",
    )
    ATTRIBUTES = (PRIVATE_IP_ADDRESS_ATTR,) = ("PrivateIpAddress",)

    properties_schema = {
        DESCRIPTION: Schema(Schema.STRING, "Description for this interface."),
        GROUP_SET: Schema(
            Schema.LIST,
            "List of security group IDs associated with this interface.",
            update_allowed=True,
        ),
        PRIVATE_IP_ADDRESS: Schema(Schema.STRING),
        SOURCE_DEST_CHECK: Schema(
            Schema.BOOLEAN,
            "Flag indicating if traffic to or from instance is validated.",
            implemented=False,
        ),
        SUBNET_ID: Schema(
            Schema.STRING,
            "Subnet ID to associate with this interface.",
            required=True,
            constraints=[constraints.CustomConstraint("neutron.subnet")],
        ),
        TAGS: tags_schema("List of tags associated with this interface."),
    }

    attributes_schema = {
        PRIVATE_IP_ADDRESS_ATTR: AttributeSchema(
            "Private IP address of the network interface.", type=AttributeSchema.STRING
        ),
    }

    def handle_create(self) -> None:
        neutron = self.client_plugin()
        subnet_id = self.properties[self.SUBNET_ID]
        fixed_ip = {"subnet_id": subnet_id}
        if self.properties[self.PRIVATE_IP_ADDRESS]:
            fixed_ip["ip_address"] = self.properties[self.PRIVATE_IP_ADDRESS]
        body: dict[str, Any] = {
            "name": self.physical_resource_name(),
            "admin_state_up": True,
            "network_id": neutron.network_id_from_subnet_id(subnet_id),
            "fixed_ips": [fixed_ip],
        }
        group_set = self.properties[self.GROUP_SET]
        if group_set is not None:
            # Left out, Neutron gives the port the default group; [] means none.
            body["security_groups"] = neutron.get_secgroup_uuids(group_set)
        port = neutron.create("port", body)
        self.resource_id_set(port["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if self.GROUP_SET not in prop_diff:
            return
        neutron = self.client_plugin()
        # As at create: no GroupSet means the default group.
        group_set = prop_diff[self.GROUP_SET]
        groups = neutron.get_secgroup_uuids(["default"] if group_set is None else group_set)
        neutron.update("port", self.resource_id, {"security_groups": groups})

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        neutron = self.client_plugin()
        with neutron.ignore_not_found():
            neutron.delete("port", self.resource_id)

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.PRIVATE_IP_ADDRESS_ATTR and self.resource_id is not None:
            fixed_ips = self.client_plugin().show("port", self.resource_id)["fixed_ips"]
            return fixed_ips[0]["ip_address"] if fixed_ips else None
        return None


RESOURCE_CLASSES = {"AWS::EC2::NetworkInterface": NetworkInterface}
