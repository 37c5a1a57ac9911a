"""The steps of an in-place change of a Nova server, polled one at a time in order.

A step is a plain dict (it travels as the update's token, a JSON list): the name of its
handler, the arguments of its ``start_<handler>`` and of its ``check_<handler>``, and
whether it has been started (``called``) and finished (``complete``), as Heat's
``ServerUpdateProgress`` list is. A step made ``complete`` from the start is only
started, never checked (Heat's interface changes of AWS::EC2::Instance).

The handlers here are those both OS::Nova::Server and AWS::EC2::Instance use: a resize
and its confirmation, and an interface detached or attached. They need the resource's
``nova()``, ``neutron()`` (the client plugins) and ``resource_id``.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception


def step(
    handler: str, *arguments: Any, checker_arguments: Any = None, complete: bool = False
) -> dict[str, Any]:
    return {
        "handler": handler,
        "arguments": list(arguments),
        "checker_arguments": list(arguments if checker_arguments is None else checker_arguments),
        "called": False,
        "complete": complete,
    }


class ServerSteps:
    """Mixed into a resource that is a Nova server."""

    def advance_steps(self, steps: list[dict[str, Any]]) -> bool:
        """Start the first step not started, or check the first one not finished; True
        once every step is finished."""
        for current in steps:
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
        return all(current["complete"] for current in steps)

    def fetch(self) -> dict[str, Any] | None:
        server: Any = self
        return server.nova().fetch_server(server.resource_id)  # type: ignore[no-any-return]

    # Resize, then its confirmation

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

    # Interfaces

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
        """Attach a port (``port_id``), or a new port on a network (``net_id``, with a
        fixed IP ``fip`` and ``security_groups``), or whatever Nova picks (neither)."""
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
