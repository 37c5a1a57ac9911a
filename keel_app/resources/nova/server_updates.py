"""How a Server changes in place: the changes made at once, then steps polled in order.

Name, metadata, tags and the admin password change with one call each. A new flavor is
two steps (resize, then confirm the resize once Nova asks to verify it), a new image one
(rebuild), a new user data under ``user_data_update_policy: REBUILD`` one (rebuild with
the same image and the new user data), changed networks one step per interface detached
or attached. The steps travel as the update's token, a JSON list; each is started
(``called``) then checked (``complete``) on later polls, one at a time, as Heat's
``ServerUpdateProgress`` list is.
"""

from __future__ import annotations

import base64
from typing import Any

from keel_app.common import exception
from keel_app.resources.nova.server_networks import INTERNAL_PORTS

# Keys of a networks entry that the attached interfaces tell about.
INTERFACE_KEYS = ("port", "network", "fixed_ip", "subnet")


def step(handler: str, *arguments: Any, checker_arguments: Any = None) -> dict[str, Any]:
    return {
        "handler": handler,
        "arguments": list(arguments),
        "checker_arguments": list(arguments if checker_arguments is None else checker_arguments),
        "called": False,
        "complete": False,
    }


class ServerUpdates:
    """Mixed into the Server."""

    def needs_replace_with_prop_diff(
        self, changed_properties_set: Any, after_props: Any, before_props: Any
    ) -> bool:
        for changed, policy in (
            ("flavor", "flavor_update_policy"),
            ("image", "image_update_policy"),
        ):
            if changed in changed_properties_set:
                if (after_props.get(policy) or before_props.get(policy)) == "REPLACE":
                    return True
        if "user_data" in changed_properties_set:
            policy = after_props.get("user_data_update_policy") or before_props.get(
                "user_data_update_policy"
            )
            return bool(policy == "REPLACE")
        return False

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> list[Any]:
        server: Any = self
        nova = server.nova()
        if tmpl_diff.metadata_changed():
            server.metadata_set(json_snippet.metadata())
        after = json_snippet.properties(server.properties_schema, server.context)
        server.translate_properties(after)
        steps: list[dict[str, Any]] = []
        if "metadata" in prop_diff:
            self.replace_metadata(after["metadata"])
        if "tags" in prop_diff:
            server.set_tags(after["tags"] or [])
        if "name" in prop_diff and after["name"] is not None:
            nova.request(
                "PUT", f"servers/{server.resource_id}", {"server": {"name": after["name"]}}
            )
        if "networks" in prop_diff:
            steps.extend(self.network_steps(after))
        if "flavor" in prop_diff:
            steps.append(step("resize", after["flavor"]))
            steps.append(step("verify_resize"))
        if "user_data" in prop_diff and after["user_data_update_policy"] == "REBUILD":
            steps.append(step("rebuild_user_data", server.user_data(after)))
        if "image" in prop_diff:
            metadata = after["metadata"]
            steps.append(
                step(
                    "rebuild",
                    after["image"],
                    after["admin_pass"],
                    after["image_update_policy"] == "REBUILD_PRESERVE_EPHEMERAL",
                    None if metadata is None else nova.meta_serialize(metadata),
                    checker_arguments=[],
                )
            )
        elif "admin_pass" in prop_diff:
            nova.server_action(
                server.resource_id, "changePassword", {"adminPass": after["admin_pass"]}
            )
        return steps

    def check_update_complete(self, steps: list[dict[str, Any]] | None) -> bool:
        """Push the steps to completion in order: start one, or check the one started."""
        for current in steps or []:
            if not current["called"]:
                current["called"] = bool(
                    getattr(self, f"start_{current['handler']}")(*current["arguments"])
                )
                return False
            if not current["complete"]:
                current["complete"] = bool(
                    getattr(self, f"check_{current['handler']}")(*current["checker_arguments"])
                )
                break
        self.delete_detached_internal_ports(steps or [])
        done = all(current["complete"] for current in steps or [])
        if done:
            server: Any = self
            server.store_external_ports(server.nova().interfaces(server.resource_id))
        return done

    # Metadata

    def replace_metadata(self, metadata: Any) -> None:
        server: Any = self
        nova = server.nova()
        wanted = nova.meta_serialize(metadata)
        current = nova.get_server(server.resource_id).get("metadata") or {}
        for key in sorted(set(current) - set(wanted)):
            nova.request("DELETE", f"servers/{server.resource_id}/metadata/{key}")
        nova.request("POST", f"servers/{server.resource_id}/metadata", {"metadata": wanted})

    # Resize

    def fetch(self) -> dict[str, Any] | None:
        server: Any = self
        return server.nova().fetch_server(server.resource_id)  # type: ignore[no-any-return]

    def start_resize(self, flavor: str) -> bool:
        server: Any = self
        if self.fetch() is None:
            return False
        server.nova().server_action(server.resource_id, "resize", {"flavorRef": flavor})
        return True

    def check_resize(self, flavor: str) -> bool:
        found = self.fetch()
        # Nova may not have started: ACTIVE is "not yet" as RESIZE is.
        if found is None or found["status"] in ("RESIZE", "ACTIVE"):
            return False
        if found["status"] == "VERIFY_RESIZE":
            return True
        raise exception.Error(f"Resizing to '{flavor}' failed, status '{found['status']}'")

    def start_verify_resize(self) -> bool:
        server: Any = self
        nova = server.nova()
        found = self.fetch()
        if found is None:
            return False
        status = nova.get_status(found)
        if status != "VERIFY_RESIZE":
            raise exception.ResourceUnknownStatus(
                result=f"Could not confirm resize of server {server.resource_id}",
                resource_status=status,
            )
        nova.server_action(server.resource_id, "confirmResize")
        return True

    def check_verify_resize(self) -> bool:
        server: Any = self
        found = self.fetch()
        if found is None:
            return False
        status = server.nova().get_status(found)
        if status == "ACTIVE":
            return True
        if status == "VERIFY_RESIZE" or "resize" in (found.get("OS-EXT-STS:task_state") or ""):
            return False
        raise exception.ResourceUnknownStatus(
            result=f"Confirm resize for server {server.resource_id} failed",
            resource_status=status,
        )

    # Rebuild

    def start_rebuild(
        self,
        image: str,
        password: str | None = None,
        preserve_ephemeral: bool = False,
        metadata: dict[str, str] | None = None,
    ) -> bool:
        server: Any = self
        if self.fetch() is None:
            return False
        body: dict[str, Any] = {"imageRef": image}
        if password is not None:
            body["adminPass"] = password
        if preserve_ephemeral:
            body["preserve_ephemeral"] = True
        if metadata:
            body["metadata"] = metadata
        server.nova().server_action(server.resource_id, "rebuild", body)
        return True

    def check_rebuild(self, *_arguments: Any) -> bool:
        found = self.fetch()
        if found is None or found["status"] == "REBUILD":
            return False
        if found["status"] == "ERROR":
            raise exception.Error(f"Rebuilding server failed, status '{found['status']}'")
        return True

    def start_rebuild_user_data(self, user_data: str | None) -> bool:
        # Heat hands the user data to novaclient's rebuild as the image (a bug that can
        # only fail); rebuilding the same image with the new user data is what is meant.
        server: Any = self
        found = self.fetch()
        if found is None:
            return False
        image = found.get("image") or {}
        body: dict[str, Any] = {
            "imageRef": image.get("id") if isinstance(image, dict) else "",
            "user_data": base64.b64encode((user_data or "").encode()).decode()
            if user_data
            else None,
        }
        server.nova().server_action(server.resource_id, "rebuild", body)
        return True

    def check_rebuild_user_data(self, *_arguments: Any) -> bool:
        return self.check_rebuild()

    # Networks

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

    def start_interface_detach(self, port_id: str) -> bool:
        server: Any = self
        with server.nova().ignore_not_found():
            if self.fetch() is not None:
                server.nova().request(
                    "DELETE", f"servers/{server.resource_id}/os-interface/{port_id}"
                )
        return True

    def check_interface_detach(self, port_id: str) -> bool:
        server: Any = self
        neutron = server.neutron()
        with neutron.ignore_not_found():
            port = neutron.show("port", port_id)
            if port.get("device_id") == server.resource_id:
                return False
            found = self.fetch() or {}
            for addresses in (found.get("addresses") or {}).values():
                for address in addresses:
                    if (
                        address.get("OS-EXT-IPS:type") == "fixed"
                        and address.get("OS-EXT-IPS-MAC:mac_addr") == port["mac_address"]
                    ):
                        return False
        return True

    def start_interface_attach(self, arguments: dict[str, Any]) -> bool:
        server: Any = self
        if self.fetch() is None:
            return False
        body: dict[str, Any] = {}
        if arguments.get("port_id"):
            body["port_id"] = arguments["port_id"]
        if arguments.get("net_id"):
            body["net_id"] = arguments["net_id"]
        if arguments.get("fip"):
            body["fixed_ips"] = [{"ip_address": arguments["fip"]}]
        attached = server.nova().request(
            "POST", f"servers/{server.resource_id}/os-interface", {"interfaceAttachment": body}
        )["interfaceAttachment"]
        if not arguments.get("port_id") and arguments.get("security_groups"):
            server.neutron().update(
                "port", attached["port_id"], {"security_groups": arguments["security_groups"]}
            )
        return True

    def check_interface_attach(self, port_id: str | None) -> bool:
        server: Any = self
        if not port_id:
            return True
        found = self.fetch()
        if found is None:
            return False
        port = server.neutron().show("port", port_id)
        fixed = [
            entry["ip_address"] for entry in port.get("fixed_ips", []) if entry.get("ip_address")
        ]
        if not fixed:
            return port_id in [
                interface["port_id"] for interface in server.nova().interfaces(server.resource_id)
            ]
        shown = {
            address["addr"]
            for addresses in (found.get("addresses") or {}).values()
            for address in addresses
            if address.get("OS-EXT-IPS:type") == "fixed"
        }
        return all(ip in shown for ip in fixed)

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
