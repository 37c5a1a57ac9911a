"""A Server's interfaces when its ``networks`` change, by Heat's rules.

The old entries are first matched with the interfaces the server has (so each knows its
port); a new entry that asks for what an old one has keeps that interface (an internal
port whose port extra properties may change in place is updated, not replaced); every
other old interface is detached and every other new entry attached: by its port, by a
port the resource makes (subnet or port extra properties given), or by its network.
``allocate_network`` swaps all interfaces for Nova's choice ("auto") or none. Internal
ports are deleted only once Nova has let them go.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.resources.nova.server_networks import INTERNAL_PORTS
from keel_app.resources.nova.server_steps import step

# Keys of a networks entry that the attached interfaces tell about.
INTERFACE_KEYS = ("port", "network", "fixed_ip", "subnet")


class ServerNetworkUpdates:
    """Mixed into the Server."""

    def network_steps(self, after: Any) -> list[dict[str, Any]]:
        server: Any = self
        interfaces = server.nova().interfaces(server.resource_id)
        old = [dict(entry) for entry in server.properties["networks"] or []]
        new = [dict(entry) for entry in after["networks"] or []]
        remove, add = self.calculate_networks(old, new, interfaces, after["security_groups"])
        steps = [step("interface_detach", port) for port in remove]
        steps.extend(
            step("interface_attach", arguments, checker_arguments=[arguments.get("port_id")])
            for arguments in add
        )
        return steps

    def calculate_networks(
        self,
        old: list[dict[str, Any]],
        new: list[dict[str, Any]],
        interfaces: list[dict[str, Any]],
        security_groups: list[str] | None,
    ) -> tuple[list[str], list[dict[str, Any]]]:
        """The ports to detach and the interfaces to attach (Heat's rules)."""
        server: Any = self
        allocate = server.allocate_network(new)
        if allocate:
            remove = [interface["port_id"] for interface in interfaces]
            if allocate != "auto":
                return remove, []
            return remove, [self.auto_network(security_groups)]
        if not new and not old:
            return [], []
        remove: list[str] = []
        kept: list[dict[str, Any]] = []
        if not old or server.allocate_network(old):
            remove = [interface["port_id"] for interface in interfaces]
        else:
            kept = self.exclude_unchanged(old, new, interfaces)
            for entry in old:
                if entry.get("port"):
                    remove.append(entry["port"])
                if entry.get("floating_ip"):
                    with server.neutron().ignore_not_found():
                        server.neutron().update(
                            "floatingip", entry["floating_ip"], {"port_id": None}
                        )
        return remove, self.attachments(new, kept, security_groups)

    def auto_network(self, security_groups: list[str] | None) -> dict[str, Any]:
        server: Any = self
        neutron = server.neutron()
        own = neutron.list(
            "network", tenant_id=server.context.project_id, shared=False, admin_state_up=True
        )
        networks = [found["id"] for found in own + neutron.list("network", shared=True)]
        if not networks:
            topology = neutron.request(
                "GET", f"auto-allocated-topology/{server.context.project_id}"
            )
            networks = [topology["auto_allocated_topology"]["id"]]
        if len(networks) > 1:
            raise exception.UnableToAutoAllocateNetwork(message="Multiple possible networks found.")
        attachment: dict[str, Any] = {"port_id": None, "net_id": networks[0], "fip": None}
        if security_groups:
            attachment["security_groups"] = neutron.get_secgroup_uuids(security_groups)
        return attachment

    def attachments(
        self,
        new: list[dict[str, Any]],
        kept: list[dict[str, Any]],
        security_groups: list[str] | None,
    ) -> list[dict[str, Any]]:
        server: Any = self
        neutron = server.neutron()
        groups = neutron.get_secgroup_uuids(security_groups) if security_groups else None
        if not new and not kept:
            attachment: dict[str, Any] = {"port_id": None, "net_id": None, "fip": None}
            if groups:
                attachment["security_groups"] = groups
            return [attachment]
        attachments = []
        for number, entry in enumerate(new):
            attachment = {"port_id": None, "net_id": None, "fip": None}
            if entry.get("port"):
                attachment["port_id"] = entry["port"]
            elif entry.get("subnet") or entry.get("port_extra_properties"):
                attachment["port_id"] = server.create_internal_port(entry, number, security_groups)
            if not attachment["port_id"]:
                attachment["net_id"] = server.network_id(entry)
                if groups:
                    attachment["security_groups"] = groups
            if attachment["net_id"]:
                attachment["fip"] = entry.get("fixed_ip")
            if entry.get("floating_ip"):
                association = {"port_id": attachment["port_id"]}
                if entry.get("fixed_ip"):
                    association["fixed_ip_address"] = entry["fixed_ip"]
                neutron.update("floatingip", entry["floating_ip"], association)
            attachments.append(attachment)
        return attachments

    def exclude_unchanged(
        self, old: list[dict[str, Any]], new: list[dict[str, Any]], interfaces: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The old entries that a new entry asks for unchanged; both lists lose them."""
        server: Any = self
        self.match_interfaces(old, interfaces)
        for entry in [*new, *old]:
            for key in server.NETWORK_KEYS:
                entry[key] = entry.get(key) or None
        internal = {port["id"] for port in server.ports(INTERNAL_PORTS)}
        kept = []
        for entry in list(new):
            reduced = {
                key: value
                for key, value in entry.items()
                if key not in INTERFACE_KEYS or value is not None
            }
            match = best_match(old, reduced)
            if match is not None:
                kept.append(match)
                new.remove(entry)
                old.remove(match)
                continue
            without_extras = {
                key: value for key, value in reduced.items() if key != "port_extra_properties"
            }
            match = best_match(old, without_extras)
            if match is None or match.get("port") not in internal:
                continue
            if self.extras_update_in_place(
                match.get("port_extra_properties"), entry.get("port_extra_properties")
            ):
                fields = server.port_extra_fields(entry.get("port_extra_properties") or {})
                if fields:
                    server.neutron().update("port", match["port"], fields)
                kept.append(match)
                new.remove(entry)
                old.remove(match)
        return kept

    @staticmethod
    def extras_update_in_place(before: Any, after: Any) -> bool:
        # What OS::Neutron::Port changes in place among its extra properties.
        in_place = {
            "value_specs",
            "admin_state_up",
            "allowed_address_pairs",
            "binding:vnic_type",
            "port_security_enabled",
            "qos_policy",
            "propagate_uplink_status",
            "no_fixed_ips",
        }
        if after is None:
            return False
        before = before or {}
        changed = {key for key in set(before) | set(after) if before.get(key) != after.get(key)}
        return changed <= in_place

    def match_interfaces(self, old: list[dict[str, Any]], interfaces: list[dict[str, Any]]) -> None:
        """Fill the old entries in with what the interface each stands for has."""
        server: Any = self
        found = []
        for interface in interfaces:
            fixed_ips = interface.get("fixed_ips") or []
            found.append(
                {
                    "port": interface["port_id"],
                    "network": interface["net_id"],
                    "fixed_ip": fixed_ips[0]["ip_address"] if fixed_ips else None,
                    "subnet": fixed_ips[0]["subnet_id"] if fixed_ips else None,
                }
            )
        for entry in old:
            if entry.get("port") is None:
                entry["network"] = server.network_id(entry)
            reduced = {
                key: value
                for key, value in entry.items()
                if key in INTERFACE_KEYS and value is not None
            }
            match = best_match(found, reduced)
            if match is not None:
                entry.update(match)
                found.remove(match)

    def delete_detached_internal_ports(self, steps: list[dict[str, Any]]) -> None:
        """Internal ports go once Nova has let them go (deleting them earlier races
        Nova's own bookkeeping of the interface)."""
        server: Any = self
        internal = {port["id"] for port in server.ports(INTERNAL_PORTS)}
        for current in steps:
            if current["complete"] and current["handler"] == "interface_detach":
                port_id = current["arguments"][0]
                if port_id in internal:
                    with server.neutron().ignore_not_found():
                        server.neutron().delete("port", port_id)
                    server.ports_remove(INTERNAL_PORTS, port_id)


def best_match(candidates: list[dict[str, Any]], wanted: dict[str, Any]) -> dict[str, Any] | None:
    """The candidate that has everything ``wanted`` has (the same port or fixed IP when
    those are wanted), else the one sharing the most items."""

    def has_all(candidate: dict[str, Any]) -> bool:
        return all(key in candidate and candidate[key] == value for key, value in wanted.items())

    for key in ("port", "fixed_ip"):
        if wanted.get(key) is not None:
            for candidate in candidates:
                if candidate.get(key) == wanted[key] and has_all(candidate):
                    return candidate
            return None
    best, best_count, count = None, 0, 0
    for candidate in candidates:
        if has_all(candidate):
            count = sum(1 for key, value in wanted.items() if candidate.get(key) == value)
        if count > best_count:
            best, best_count = candidate, count
    return best
