"""AWS::EC2::EIP and AWS::EC2::EIPAssociation: Neutron floating IPs on the cloud's one
external network, bound to an instance's (first) port or to a network interface.

An EIP is a floating IP (its physical id), associated with the instance InstanceId names
if any, in place when InstanceId changes; its reference is its address. An association
binds an address (EIP, found by address) to an instance, or a floating IP (AllocationId)
to an instance's first port or to a port (NetworkInterfaceId); for the latter it first
gives the VPC router of the port's network (if there is one) a gateway on the floating
IP's network, as Heat does. A new instance or port changes the binding in place; a new
address or allocation moves it, unless the instance or port changes too.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.clients.client_exception import EntityMatchNotFound
from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.resources.aws.ec2_internet_gateway import external_network_id
from keel_app.resources.aws.ec2_route_table import set_router_gateway
from keel_app.resources.aws.ec2_vpc import router_for_vpc

LOG = logging.getLogger(__name__)


class ElasticIp(Resource):
    default_client_name = "nova"

    PROPERTIES = (DOMAIN, INSTANCE_ID) = ("Domain", "InstanceId")
    ATTRIBUTES = (ALLOCATION_ID,) = ("AllocationId",)

    properties_schema = {
        DOMAIN: Schema(
            Schema.STRING,
            'Set to "vpc" to have IP address allocation associated to your VPC.',
            support_status=SupportStatus(
                status="DEPRECATED",
                message="Now we only allow vpc here, so no need to set up this tag anymore.",
                version="9.0.0",
            ),
            constraints=[constraints.AllowedValues(["vpc"])],
        ),
        INSTANCE_ID: Schema(
            Schema.STRING,
            "Instance ID to associate with EIP.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("nova.server")],
        ),
    }

    attributes_schema = {
        ALLOCATION_ID: AttributeSchema(
            "ID that AWS assigns to represent the allocation of the address for use with "
            "Amazon VPC. Returned only for VPC elastic IP addresses.",
            type=AttributeSchema.STRING,
        ),
    }

    def handle_create(self) -> None:
        neutron = self.client_plugin("neutron")
        floating_ip = neutron.create(
            "floatingip", {"floating_network_id": external_network_id(neutron)}
        )
        self.resource_id_set(floating_ip["id"])
        instance_id = self.properties[self.INSTANCE_ID]
        if instance_id:
            self.client_plugin().associate_floatingip(instance_id, floating_ip["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if self.INSTANCE_ID not in prop_diff:
            return
        nova = self.client_plugin()
        instance_id = prop_diff[self.INSTANCE_ID]
        if instance_id:
            nova.associate_floatingip(instance_id, self.resource_id)
        else:
            nova.dissociate_floatingip(self.resource_id)

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        # The association may never have been made (a create that failed there).
        if self.properties[self.INSTANCE_ID]:
            with self.client_plugin().ignore_not_found():
                self.client_plugin().dissociate_floatingip(self.resource_id)
        neutron = self.client_plugin("neutron")
        with neutron.ignore_not_found():
            neutron.delete("floatingip", self.resource_id)

    def address(self) -> str:
        if self.resource_id is None:
            return ""
        neutron = self.client_plugin("neutron")
        with neutron.ignore_not_found():
            return str(neutron.show("floatingip", self.resource_id)["floating_ip_address"])
        return ""

    def get_reference_id(self) -> str:
        return self.address() or str(self.name)

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.ALLOCATION_ID:
            return str(self.resource_id)
        return None


class ElasticIpAssociation(Resource):
    default_client_name = "nova"

    PROPERTIES = (INSTANCE_ID, EIP, ALLOCATION_ID, NETWORK_INTERFACE_ID) = (
        "InstanceId",
        "EIP",
        "AllocationId",
        "NetworkInterfaceId",
    )

    properties_schema = {
        INSTANCE_ID: Schema(
            Schema.STRING,
            "Instance ID to associate with EIP specified by EIP property.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("nova.server")],
        ),
        EIP: Schema(
            Schema.STRING,
            "EIP address to associate with instance.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("ip_addr")],
        ),
        ALLOCATION_ID: Schema(
            Schema.STRING, "Allocation ID for VPC EIP address.", update_allowed=True
        ),
        NETWORK_INTERFACE_ID: Schema(
            Schema.STRING, "Network interface ID to associate with EIP.", update_allowed=True
        ),
    }

    def get_reference_id(self) -> str:
        name = self.physical_resource_name()
        return str(name) if name is not None else super().get_reference_id()

    def validate(self) -> Any:
        super().validate()
        address = self.properties[self.EIP]
        allocation_id = self.properties[self.ALLOCATION_ID]
        instance_id = self.properties[self.INSTANCE_ID]
        if bool(address) == bool(allocation_id):
            raise exception.StackValidationFailed(
                message="Either 'EIP' or 'AllocationId' must be provided."
            )
        if address and not instance_id:
            raise exception.StackValidationFailed(
                message="Must specify 'InstanceId' if you specify 'EIP'."
            )
        if not instance_id and not self.properties[self.NETWORK_INTERFACE_ID]:
            raise exception.PropertyUnspecifiedError("InstanceId", "NetworkInterfaceId")
        return None

    # Ports and floating IPs

    def port(self, interface_id: str | None, instance_id: str | None) -> dict[str, Any] | None:
        """The port named, else the instance's first port (None: neither given)."""
        neutron = self.client_plugin("neutron")
        if interface_id:
            return neutron.list("port", id=interface_id)[0]  # type: ignore[no-any-return]
        if instance_id:
            return neutron.list("port", device_id=instance_id)[0]  # type: ignore[no-any-return]
        return None

    def add_gateway_router(self, floating_ip_id: str, network_id: str) -> None:
        """Give the VPC router of the port's network a gateway on the floating IP's
        network (a network made outside a VPC has no such router)."""
        neutron = self.client_plugin("neutron")
        router = router_for_vpc(neutron, network_id)
        if router is not None:
            floating_ip = neutron.show("floatingip", floating_ip_id)
            set_router_gateway(neutron, router["id"], floating_ip["floating_network_id"])

    def bind_floating_ip(
        self, floating_ip_id: str, port_id: str | None, ignore_not_found: bool = False
    ) -> None:
        neutron = self.client_plugin("neutron")
        try:
            neutron.update("floatingip", floating_ip_id, {"port_id": port_id})
        except Exception as error:
            if not (ignore_not_found and neutron.is_not_found(error)):
                raise

    def bind_to_port(self, floating_ip_id: str, port: dict[str, Any] | None) -> None:
        if port is None:
            LOG.error("Port not specified.")
            raise exception.NotFound("Failed to update, can not found port info.")
        self.add_gateway_router(floating_ip_id, port["network_id"])
        self.bind_floating_ip(floating_ip_id, port["id"])

    def remove_address(self, address: str, ignore_not_found: bool = False) -> None:
        nova = self.client_plugin()
        try:
            nova.dissociate_floatingip_address(address)
        except Exception as error:
            gone = isinstance(error, EntityMatchNotFound) or nova.is_not_found(error)
            if not (ignore_not_found and gone):
                raise

    def unbind(self) -> None:
        """Undo the binding the current properties made."""
        if self.properties[self.EIP]:
            self.remove_address(self.properties[self.EIP])
        else:
            self.bind_floating_ip(self.properties[self.ALLOCATION_ID], None)

    # Life cycle

    def handle_create(self) -> None:
        address = self.properties[self.EIP]
        instance_id = self.properties[self.INSTANCE_ID]
        if address:
            self.client_plugin().associate_floatingip_address(instance_id, address)
            self.resource_id_set(address)
            return
        floating_ip_id = self.properties[self.ALLOCATION_ID]
        if not floating_ip_id:
            return
        port = self.port(self.properties[self.NETWORK_INTERFACE_ID], instance_id)
        if port is None:
            LOG.warning("Skipping association, resource not specified")
            return
        self.add_gateway_router(floating_ip_id, port["network_id"])
        self.bind_floating_ip(floating_ip_id, port["id"])
        self.resource_id_set(floating_ip_id)

    def needs_replace_with_prop_diff(
        self, changed_properties_set: Any, after_props: Any, before_props: Any
    ) -> bool:
        if self.ALLOCATION_ID in changed_properties_set or self.EIP in changed_properties_set:
            instance_id = interface_id = None
            if self.INSTANCE_ID in changed_properties_set:
                instance_id = after_props.get(self.INSTANCE_ID)
            if self.NETWORK_INTERFACE_ID in changed_properties_set:
                interface_id = after_props.get(self.NETWORK_INTERFACE_ID)
            return bool(instance_id or interface_id)
        return False

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        instance_id = self.properties[self.INSTANCE_ID]
        interface_id = self.properties[self.NETWORK_INTERFACE_ID]
        if self.ALLOCATION_ID in prop_diff or self.EIP in prop_diff:
            # A new address or allocation for the same instance or port.
            new_address = prop_diff.get(self.EIP)
            new_allocation = prop_diff.get(self.ALLOCATION_ID)
            if new_address:
                self.unbind()
                self.client_plugin().associate_floatingip_address(instance_id, new_address)
                self.resource_id_set(new_address)
            elif new_allocation:
                self.unbind()
                self.bind_to_port(new_allocation, self.port(interface_id, instance_id))
                self.resource_id_set(new_allocation)
        elif self.INSTANCE_ID in prop_diff or self.NETWORK_INTERFACE_ID in prop_diff:
            # The same address or allocation for another instance or port: bound anew,
            # which takes it from the old one.
            new_instance = prop_diff.get(self.INSTANCE_ID)
            if self.properties[self.EIP]:
                self.client_plugin().associate_floatingip_address(
                    new_instance, self.properties[self.EIP]
                )
            else:
                port = self.port(prop_diff.get(self.NETWORK_INTERFACE_ID), new_instance)
                self.bind_to_port(self.properties[self.ALLOCATION_ID], port)

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        if self.properties[self.EIP]:
            self.remove_address(self.properties[self.EIP], ignore_not_found=True)
        elif self.properties[self.ALLOCATION_ID]:
            self.bind_floating_ip(self.properties[self.ALLOCATION_ID], None, ignore_not_found=True)


RESOURCE_CLASSES = {
    "AWS::EC2::EIP": ElasticIp,
    "AWS::EC2::EIPAssociation": ElasticIpAssociation,
}
