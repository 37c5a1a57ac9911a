"""A server's network interfaces: the ``networks`` property made into Nova's ``networks``.

As in Heat, an entry with a port uses that port; an entry with a subnet or port extra
properties gets a port the resource makes itself (an "internal" port named
``<resource>-port-<n>``, deleted with the server); an entry with only a network (and
perhaps a fixed IP) lets Nova make the port. The ports Nova made are remembered as
"external" ports. Both lists live in the resource's data as Heat keeps them (JSON lists
of ``{"id": ...}``), so a stack taken over from Heat keeps cleaning up its ports.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

from keel_app.common import exception

INTERNAL_PORTS, EXTERNAL_PORTS = "internal_ports", "external_ports"

# The port extra properties sent as they are (value_specs is merged in, address pairs
# lose an unset MAC address, no_fixed_ips empties fixed_ips).
PORT_EXTRA_KEYS = (
    "admin_state_up",
    "mac_address",
    "binding:vnic_type",
    "port_security_enabled",
    "qos_policy",
    "propagate_uplink_status",
)


class ServerNetworks:
    """Mixed into the Server: its ``networks`` entries, ports and addresses."""

    NETWORK_KEYS = (
        NETWORK_UUID,
        NETWORK_ID,
        NETWORK_FIXED_IP,
        NETWORK_PORT,
        NETWORK_SUBNET,
        NETWORK_PORT_EXTRA,
        NETWORK_FLOATING_IP,
        ALLOCATE_NETWORK,
        NIC_TAG,
    ) = (
        "uuid",
        "network",
        "fixed_ip",
        "port",
        "subnet",
        "port_extra_properties",
        "floating_ip",
        "allocate_network",
        "tag",
    )

    # Provided by the resource.
    name: str
    properties: Any

    def neutron(self) -> Any:
        return self.client_plugin("neutron")  # type: ignore[attr-defined]

    # Validation

    def validate_network(self, network: dict[str, Any]) -> None:
        network_id = network.get(self.NETWORK_ID)
        port = network.get(self.NETWORK_PORT)
        subnet = network.get(self.NETWORK_SUBNET)
        allocate = network.get(self.ALLOCATE_NETWORK)
        if network_id is None and port is None and subnet is None and not allocate:
            raise exception.StackValidationFailed(
                message=f'One of the properties "{self.NETWORK_ID}", "{self.NETWORK_PORT}", '
                f'"{self.ALLOCATE_NETWORK}" or "{self.NETWORK_SUBNET}" should be set for the '
                f'specified network of server "{self.name}".'
            )
        if allocate and len([key for key, value in network.items() if value is not None]) != 1:
            raise exception.StackValidationFailed(
                message=f'Can not specify "{self.ALLOCATE_NETWORK}" with other keys of '
                "networks at the same time."
            )
        if network.get(self.NETWORK_FIXED_IP) and port is not None:
            raise exception.ResourcePropertyConflict(
                f"networks/{self.NETWORK_FIXED_IP}", f"networks/{self.NETWORK_PORT}"
            )
        if (
            network.get(self.NETWORK_FLOATING_IP) is not None
            and network_id is not None
            and port is None
            and subnet is None
            and not network.get(self.NETWORK_PORT_EXTRA)
        ):
            raise exception.StackValidationFailed(
                message=f'Property "{self.NETWORK_FLOATING_IP}" is not supported if only '
                f'"{self.NETWORK_ID}" is specified, because the corresponding port can not '
                "be retrieved."
            )

    @classmethod
    def allocate_network(cls, networks: list[dict[str, Any]] | None) -> str | None:
        for network in networks or []:
            if network.get(cls.ALLOCATE_NETWORK):
                return str(network[cls.ALLOCATE_NETWORK])
        return None

    def network_id(self, network: dict[str, Any]) -> str | None:
        network_id = network.get(self.NETWORK_ID)
        if network_id is None and network.get(self.NETWORK_SUBNET):
            return str(self.neutron().network_id_from_subnet_id(network[self.NETWORK_SUBNET]))
        return network_id

    def check_subnet_belongs_to_network(self, network: dict[str, Any]) -> None:
        if network.get(self.NETWORK_PORT) is not None:
            return
        network_id = network.get(self.NETWORK_ID)
        subnet = network.get(self.NETWORK_SUBNET)
        if subnet is not None and network_id is not None:
            if self.neutron().network_id_from_subnet_id(subnet) != network_id:
                raise exception.StackValidationFailed(
                    message=f"Specified subnet {subnet} does not belongs to network {network_id}."
                )

    # Nova's networks

    def build_nics(
        self, networks: list[dict[str, Any]] | None, security_groups: list[str] | None
    ) -> list[dict[str, Any]] | str | None:
        """Nova's ``networks``: "auto"/"none", or one entry per interface."""
        if not networks:
            return None
        allocate = self.allocate_network(networks)
        if allocate:
            return allocate
        nics = []
        for number, network in enumerate(networks):
            self.check_subnet_belongs_to_network(network)
            nic: dict[str, Any] = {}
            network_id = self.network_id(network)
            if network_id:
                nic["uuid"] = network_id
            port = network.get(self.NETWORK_PORT)
            if not port and (
                network.get(self.NETWORK_SUBNET) or network.get(self.NETWORK_PORT_EXTRA)
            ):
                port = self.create_internal_port(network, number, security_groups)
            if port:
                nic["port"] = port
            elif network.get(self.NETWORK_FIXED_IP):
                nic["fixed_ip"] = network[self.NETWORK_FIXED_IP]
            if network.get(self.NETWORK_FLOATING_IP) and port:
                association = {"port_id": port}
                if network.get(self.NETWORK_FIXED_IP):
                    association["fixed_ip_address"] = network[self.NETWORK_FIXED_IP]
                self.neutron().update("floatingip", network[self.NETWORK_FLOATING_IP], association)
            if network.get(self.NIC_TAG):
                nic["tag"] = network[self.NIC_TAG]
            nics.append(nic)
        return nics

    # Ports the resource makes

    def create_internal_port(
        self, network: dict[str, Any], number: int, security_groups: list[str] | None
    ) -> str:
        body: dict[str, Any] = {"network_id": self.network_id(network)}
        fixed_ip: dict[str, str] = {}
        if network.get(self.NETWORK_FIXED_IP):
            fixed_ip["ip_address"] = network[self.NETWORK_FIXED_IP]
        if network.get(self.NETWORK_SUBNET):
            fixed_ip["subnet_id"] = network[self.NETWORK_SUBNET]
        if fixed_ip:
            body["fixed_ips"] = [fixed_ip]
        extra = network.get(self.NETWORK_PORT_EXTRA) or {}
        if extra.get("no_fixed_ips"):
            body["fixed_ips"] = []
        if security_groups:
            body["security_groups"] = self.neutron().get_secgroup_uuids(security_groups)
        body.update(self.port_extra_fields(extra))
        body["name"] = f"{self.name}-port-{number}"
        port = self.neutron().create("port", body)
        self.ports_add(INTERNAL_PORTS, port["id"])
        return str(port["id"])

    def port_extra_fields(self, extra: dict[str, Any]) -> dict[str, Any]:
        fields: dict[str, Any] = dict(extra.get("value_specs") or {})
        for key in PORT_EXTRA_KEYS:
            if extra.get(key) is not None:
                fields[key] = extra[key]
        if "qos_policy" in fields:
            fields["qos_policy_id"] = self.neutron().get_qos_policy_id(fields.pop("qos_policy"))
        pairs = extra.get("allowed_address_pairs")
        if pairs is not None:
            fields["allowed_address_pairs"] = [
                {
                    key: value
                    for key, value in pair.items()
                    if value is not None or key != "mac_address"
                }
                for pair in pairs
            ]
        return fields

    def delete_internal_ports(self) -> None:
        for port in self.ports(INTERNAL_PORTS):
            with self.neutron().ignore_not_found():
                self.neutron().delete("port", port["id"])
            self.ports_remove(INTERNAL_PORTS, port["id"])
        self.data_delete(INTERNAL_PORTS)  # type: ignore[attr-defined]

    # The ports kept in the resource's data

    def ports(self, kind: str) -> list[dict[str, str]]:
        stored = self.data().get(kind)  # type: ignore[attr-defined]
        return list(json.loads(stored)) if stored else []

    def ports_add(self, kind: str, port_id: str) -> None:
        self.data_set(kind, json.dumps([*self.ports(kind), {"id": port_id}]))  # type: ignore[attr-defined]

    def ports_remove(self, kind: str, port_id: str) -> None:
        kept = [port for port in self.ports(kind) if port["id"] != port_id]
        self.data_set(kind, json.dumps(kept))  # type: ignore[attr-defined]

    def store_external_ports(self, interfaces: list[dict[str, Any]]) -> None:
        """Remember the ports Nova made for the server (those not the resource's own)."""
        attached = {interface["port_id"] for interface in interfaces}
        known = {port["id"] for port in self.ports(EXTERNAL_PORTS)}
        for port_id in known - attached:
            self.ports_remove(EXTERNAL_PORTS, port_id)
        internal = {port["id"] for port in self.ports(INTERNAL_PORTS)}
        for port_id in sorted(attached - internal - known):
            self.ports_add(EXTERNAL_PORTS, port_id)

    # Addresses, as the attributes show them

    def server_addresses(self, server_id: str) -> dict[str, list[dict[str, Any]]]:
        """Each network's addresses by name and by id, with ports, subnets and network."""
        neutron = self.neutron()
        by_name: dict[str, list[dict[str, Any]]] = {}
        for port in neutron.list("port", device_id=server_id):
            network = neutron.show("network", port["network_id"])
            addresses = by_name.setdefault(network["name"], [])
            for fixed_ip in port["fixed_ips"]:
                ip = fixed_ip.get("ip_address")
                try:
                    # A one-element list, as Heat has it (a trailing comma in its code).
                    version: Any = [ipaddress.ip_address(ip).version]
                except ValueError:
                    version = None
                address = {
                    "addr": ip,
                    "OS-EXT-IPS-MAC:mac_addr": port["mac_address"],
                    "OS-EXT-IPS:type": "fixed",
                    "port": port["id"],
                    "version": version,
                }
                if ip:
                    for floating in neutron.list("floatingip", fixed_ip_address=ip):
                        addresses.append(
                            {
                                "addr": floating["floating_ip_address"],
                                "version": version,
                                "OS-EXT-IPS-MAC:mac_addr": port["mac_address"],
                                "OS-EXT-IPS:type": "floating",
                                "port": None,
                            }
                        )
                address["subnets"] = [
                    neutron.show("subnet", entry["subnet_id"])
                    for entry in port["fixed_ips"]
                    if entry.get("subnet_id")
                ]
                address["network"] = network
                addresses.append(address)
        return self.with_network_ids(by_name)

    def with_network_ids(self, networks: dict[str, Any]) -> dict[str, Any]:
        """The networks keyed by name, and again by id where the name finds one network."""
        extended = json.loads(json.dumps(networks))
        neutron = self.neutron()
        for name in list(networks):
            try:
                network_id = neutron.find_resourceid_by_name_or_id("network", name)
            except Exception as error:
                if neutron.is_not_found(error) or type(error).__name__ == (
                    "NeutronClientNoUniqueMatch"
                ):
                    continue
                raise
            extended[network_id] = extended[name]
        return extended
