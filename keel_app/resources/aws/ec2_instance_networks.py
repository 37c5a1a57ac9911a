"""An AWS::EC2::Instance's network interfaces, by Heat's rules.

``NetworkInterfaces`` names ports (each an id, or a map with ``NetworkInterfaceId`` and
``DeviceIndex``), attached in device index order. Without them, ``SubnetId`` makes the
instance a port of its own in that subnet, with the instance's security groups; that
port's id is kept in the resource's data under ``port_id`` (Heat's key, so a stack
taken over from Heat still deletes it) and goes with the instance.

An update of the interfaces is a list of ``server_steps`` steps that are only started,
never waited for, as in Heat: with old and new ``NetworkInterfaces``, the ports only the
old ones name are detached and those only the new ones name attached; a new
``SubnetId`` beside unchanged ``NetworkInterfaces`` changes nothing; otherwise every
interface is detached and the new ports (or a new port in the subnet, or whatever port
Nova picks) attached.
"""

from __future__ import annotations

from typing import Any

from keel_app.resources.nova.server_steps import step

NETWORK_INTERFACE_ID, DEVICE_INDEX = "NetworkInterfaceId", "DeviceIndex"
PORT_DATA_KEY = "port_id"


class InstanceNetworks:
    """Mixed into the Instance."""

    def security_groups(self) -> list[str] | None:
        """SecurityGroups then SecurityGroupIds, together; None for none."""
        instance: Any = self
        groups: list[str] = []
        for key in ("SecurityGroups", "SecurityGroupIds"):
            groups.extend(instance.properties[key] or [])
        return groups or None

    def build_nics(
        self,
        network_interfaces: list[Any] | None,
        security_groups: list[str] | None = None,
        subnet_id: str | None = None,
    ) -> list[dict[str, str]] | None:
        """novaclient's nics (``[{"port-id": ...}]``); None when there is nothing to give."""
        if network_interfaces:
            entries = [
                entry
                if not isinstance(entry, str)
                else {NETWORK_INTERFACE_ID: entry, DEVICE_INDEX: number}
                for number, entry in enumerate(network_interfaces)
            ]
            entries.sort(key=lambda entry: int(entry[DEVICE_INDEX]))
            return [{"port-id": entry[NETWORK_INTERFACE_ID]} for entry in entries]
        if not subnet_id:
            return None
        instance: Any = self
        neutron = instance.client_plugin("neutron")
        network_id = neutron.network_id_from_subnet_id(subnet_id)
        if not network_id:
            return None
        # Nova would take the network's first subnet: a port pins the one asked for.
        fields: dict[str, Any] = {
            "admin_state_up": True,
            "network_id": network_id,
            "fixed_ips": [{"subnet_id": subnet_id}],
        }
        if security_groups:
            fields["security_groups"] = neutron.get_secgroup_uuids(security_groups)
        port = neutron.create("port", fields)
        instance.data_set(PORT_DATA_KEY, port["id"])
        return [{"port-id": port["id"]}]

    def delete_own_port(self) -> None:
        """Delete the port made for SubnetId, if there is one."""
        instance: Any = self
        port_id = instance.data().get(PORT_DATA_KEY)
        if port_id:
            neutron = instance.client_plugin("neutron")
            with neutron.ignore_not_found():
                neutron.delete("port", port_id)
            instance.data_delete(PORT_DATA_KEY)

    def network_interface_steps(self, prop_diff: Any) -> list[dict[str, Any]]:
        instance: Any = self
        new = list(prop_diff.get("NetworkInterfaces") or [])
        old = list(instance.properties["NetworkInterfaces"] or [])
        if old and new:
            for entry in list(old):
                if entry in new:
                    new.remove(entry)
                    old.remove(entry)
            steps = [
                step("interface_detach", nic["port-id"], complete=True)
                for nic in self.build_nics(old) or []
            ]
            steps.extend(
                step("interface_attach", {"port_id": nic["port-id"]}, complete=True)
                for nic in self.build_nics(new) or []
            )
            return steps
        if old and "NetworkInterfaces" not in prop_diff:
            # Only SubnetId changed: the interfaces come from NetworkInterfaces, which
            # take precedence, so nothing changes.
            return []
        subnet_id = prop_diff.get("SubnetId") or instance.properties["SubnetId"]
        steps = [
            step("interface_detach", interface["port_id"], complete=True)
            for interface in instance.nova().interfaces(instance.resource_id)
        ]
        self.delete_own_port()
        nics = self.build_nics(new, self.security_groups(), subnet_id)
        if not nics:
            # Nothing named: Nova attaches a port of its choosing, as at boot.
            return [*steps, step("interface_attach", {}, complete=True)]
        steps.extend(
            step("interface_attach", {"port_id": nic["port-id"]}, complete=True) for nic in nics
        )
        return steps
