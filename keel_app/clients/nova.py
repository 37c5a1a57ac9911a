"""Nova's client plugin: the compute API in Heat's shapes, with novaclient's errors.

Heat speaks to Nova through python-novaclient at the highest microversion both Nova and
novaclient know (novaclient 18 stops at 2.96), and its resources and constraints see
novaclient's exceptions. This plugin calls the API directly on the openstacksdk
``compute`` proxy's session at that microversion, answers with the API's dicts and
raises ``nova_errors``' copies of novaclient's exceptions, so failures read as in Heat.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

from keel_app.clients import client_exception, nova_errors
from keel_app.clients.client_plugin import ClientPlugin
from keel_app.clients.neutron_errors import NotFound as NeutronNotFound
from keel_app.common import exception

# The last microversion python-novaclient 18 (Heat 27's) can speak.
NOVACLIENT_MAX_MICROVERSION = "2.96"


def version_tuple(version: str) -> tuple[int, int]:
    major, minor = version.split(".")
    return int(major), int(minor)


class NovaClientPlugin(ClientPlugin):
    name = "nova"
    service_types = ("compute",)
    proxy = "compute"

    # Server statuses on the way to somewhere else: a wait goes on through them.
    deferred_server_statuses = frozenset(
        {
            "BUILD",
            "HARD_REBOOT",
            "PASSWORD",
            "REBOOT",
            "RESCUE",
            "RESIZE",
            "REVERT_RESIZE",
            "SHUTOFF",
            "SUSPENDED",
            "VERIFY_RESIZE",
        }
    )

    # The compute API

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        params: dict[str, Any] | None = None,
        microversion: str | None = None,
    ) -> Any:
        """One call of the compute API; the answer's body, or novaclient's error."""
        response = self.client().request(
            "/" + path.lstrip("/"),
            method,
            json=body,
            params=params,
            raise_exc=False,
            microversion=microversion or self.max_microversion(),
            headers={"Accept": "application/json"},
        )
        try:
            answer = response.json() if response.content else None
        except ValueError:
            answer = response.text
        if response.status_code >= 400:
            raise nova_errors.from_response(
                response.status_code, answer, response.headers.get("x-compute-request-id")
            )
        return answer

    def max_microversion(self) -> str:
        """The microversion every call uses: heat.conf's max_nova_api_microversion, else
        Nova's highest, capped at novaclient's."""
        if getattr(self, "_max_microversion", None) is None:
            self._max_microversion = self.settings.max_nova_api_microversion
        if self._max_microversion is None:
            response = self.client().get("/", raise_exc=False)
            current = "2.1"
            if response.status_code < 400:
                current = response.json().get("version", {}).get("version") or "2.1"
            self._max_microversion = min(current, NOVACLIENT_MAX_MICROVERSION, key=version_tuple)
        return str(self._max_microversion)

    def is_version_supported(self, version: str) -> bool:
        return version_tuple(self.max_microversion()) >= version_tuple(version)

    # What an error means, for novaclient's classes

    def is_not_found(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, (nova_errors.NotFound, NeutronNotFound))

    def is_conflict(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, nova_errors.Conflict)

    def is_over_limit(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, nova_errors.OverLimit)

    def is_bad_request(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, nova_errors.BadRequest)

    def is_unprocessable_entity(self, error: BaseException) -> bool:
        return isinstance(error, nova_errors.ClientException) and error.code == 422

    def is_client_exception(self, error: BaseException) -> bool:
        return isinstance(
            error, (nova_errors.ClientException, nova_errors.NoUniqueMatch)
        ) or super().is_client_exception(error)

    # Flavors, hosts and key pairs, as the nova.* constraints look them up

    def find_flavor_by_name_or_id(self, flavor: str) -> str:
        """The id of the flavor whose id or else name is ``flavor``."""
        return str(self.get_flavor(flavor)["id"])

    def get_flavor(self, flavor: str) -> dict[str, Any]:
        try:
            return dict(self.request("GET", f"flavors/{flavor}")["flavor"])
        except nova_errors.NotFound:
            pass
        named = [found for found in self.request("GET", "flavors")["flavors"]]
        named = [found for found in named if found.get("name") == flavor]
        if not named:
            raise nova_errors.NotFound(404, f"No Flavor matching {{'name': {flavor!r}}}.")
        if len(named) > 1:
            raise nova_errors.NoUniqueMatch()
        return dict(self.request("GET", f"flavors/{named[0]['id']}")["flavor"])

    def get_host(self, hypervisor_hostname: str) -> list[dict[str, Any]]:
        """The hypervisors whose host names match; novaclient's NotFound for none."""
        answer = self.request(
            "GET", "os-hypervisors", params={"hypervisor_hostname_pattern": hypervisor_hostname}
        )
        hypervisors = list(answer["hypervisors"])
        if not hypervisors:
            raise nova_errors.NotFound(404)
        return hypervisors

    def get_keypair(self, key_name: str) -> dict[str, Any]:
        try:
            return dict(self.request("GET", f"os-keypairs/{key_name}")["keypair"])
        except nova_errors.NotFound:
            raise exception.EntityNotFound(entity="Key", name=key_name) from None

    # Servers

    def get_server(self, server: str) -> dict[str, Any]:
        try:
            return dict(self.request("GET", f"servers/{server}")["server"])
        except nova_errors.NotFound:
            raise exception.EntityNotFound(entity="Server", name=server) from None

    def fetch_server(self, server_id: str) -> dict[str, Any] | None:
        """The server, or None when Nova could not say just now (over limit, 500, 503):
        a poll tries again rather than failing."""
        try:
            return dict(self.request("GET", f"servers/{server_id}")["server"])
        except nova_errors.OverLimit:
            return None
        except nova_errors.ClientException as error:
            if error.code in (500, 503):
                return None
            raise

    @staticmethod
    def get_status(server: dict[str, Any]) -> str:
        # Some clouds append "(detail)" to the status.
        return str(server["status"]).split("(")[0]

    def check_active(self, server: str | dict[str, Any], resource_name: str = "Server") -> bool:
        """Whether the server is ACTIVE; False while on its way, else an error."""
        found = self.fetch_server(server) if isinstance(server, str) else server
        if found is None:
            return False
        status = self.get_status(found)
        if status in self.deferred_server_statuses:
            return False
        if status == "ACTIVE":
            return True
        if status == "ERROR":
            fault = found.get("fault") or {}
            raise exception.ResourceInError(
                resource_status=status,
                status_reason="Message: {}, Code: {}".format(
                    fault.get("message", "Unknown"), fault.get("code", "Unknown")
                ),
            )
        raise exception.ResourceUnknownStatus(
            resource_status=found["status"], result=f"{resource_name} is not active"
        )

    def server_action(self, server_id: str, action: str, arguments: Any = None) -> Any:
        return self.request("POST", f"servers/{server_id}/action", {action: arguments})

    def interfaces(self, server_id: str) -> list[dict[str, Any]]:
        return list(
            self.request("GET", f"servers/{server_id}/os-interface")["interfaceAttachments"]
        )

    def absolute_limits(self) -> dict[str, Any]:
        return dict(self.request("GET", "limits")["limits"]["absolute"])

    @staticmethod
    def meta_serialize(metadata: Any) -> dict[str, str]:
        """Metadata as Nova takes it: values that are not strings as JSON."""
        if not isinstance(metadata, dict):
            raise exception.StackValidationFailed(message="nova server metadata needs to be a Map.")
        return {
            key: value if isinstance(value, str) else json.dumps(value)
            for key, value in metadata.items()
        }

    def meta_update(self, server: dict[str, Any], metadata: Any) -> None:
        """Make the server's metadata ``metadata``: the keys it lacks deleted, the rest set."""
        wanted = self.meta_serialize(metadata)
        current = server.get("metadata") or {}
        for key in sorted(set(current) - set(wanted)):
            self.request("DELETE", f"servers/{server['id']}/metadata/{key}")
        self.request("POST", f"servers/{server['id']}/metadata", {"metadata": wanted})

    def check_delete_server_complete(self, server_id: str) -> bool:
        """Whether the server is gone; a soft-deleted one is deleted for good."""
        try:
            server = self.fetch_server(server_id)
        except Exception as error:
            if self.is_not_found(error):
                return True
            raise
        if server is None:
            return False
        if server.get("OS-EXT-STS:task_state") == "deleting":
            return False
        status = self.get_status(server)
        if status == "DELETED":
            return True
        if status == "SOFT_DELETED":
            self.server_action(server_id, "forceDelete")
        elif status == "ERROR":
            fault = server.get("fault") or {}
            raise exception.ResourceInError(
                resource_status=status,
                status_reason="Server {} delete failed: ({}) {}".format(
                    server.get("name"), fault.get("code"), fault.get("message", "Unknown")
                ),
            )
        return False

    def server_to_ipaddress(self, server_id: str) -> str | None:
        """The first address of the last network (by name) that has one; None for a
        server Nova does not know."""
        try:
            server = self.get_server(server_id)
        except exception.EntityNotFound:
            return None
        networks = server.get("addresses") or {}
        for label in sorted(networks, reverse=True):
            if networks[label]:
                return str(networks[label][0]["addr"])
        return None

    # Floating IPs: Neutron's, associated with a server's first interface

    def associate_floatingip(self, server_id: str, floatingip_id: str) -> None:
        server = self.fetch_server(server_id)
        interfaces = self.interfaces(server_id) if server is not None else []
        if not interfaces:
            raise client_exception.InterfaceNotFound(id=server_id)
        # A server with more interfaces gets the address on its first one.
        first = interfaces[0]
        fixed_address = next(
            entry["ip_address"] for entry in first["fixed_ips"] if _is_ipv4(entry["ip_address"])
        )
        self.neutron().update(
            "floatingip",
            floatingip_id,
            {"port_id": first["port_id"], "fixed_ip_address": fixed_address},
        )

    def dissociate_floatingip(self, floatingip_id: str) -> None:
        self.neutron().update(
            "floatingip", floatingip_id, {"port_id": None, "fixed_ip_address": None}
        )

    def associate_floatingip_address(self, server_id: str, address: str) -> None:
        self.associate_floatingip(server_id, self.floatingip_by_address(address))

    def dissociate_floatingip_address(self, address: str) -> None:
        self.dissociate_floatingip(self.floatingip_by_address(address))

    def floatingip_by_address(self, address: str) -> str:
        found = self.neutron().list("floatingip", floating_ip_address=address)
        if not found:
            raise client_exception.EntityMatchNotFound(
                entity="floatingip", args={"ip_address": address}
            )
        return str(found[0]["id"])

    def neutron(self) -> Any:
        return self.clients.client_plugin("neutron")

    # Console URLs: each asked for when read, a failure read as its message.

    CONSOLE_PROTOCOLS = {
        "novnc": "vnc",
        "xvpvnc": "vnc",
        "spice-html5": "spice",
        "rdp-html5": "rdp",
        "serial": "serial",
        "webmks": "mks",
    }

    def console_url(self, server_id: str, console_type: str) -> str:
        if console_type not in self.CONSOLE_PROTOCOLS:
            return f'Unsupported console_type "{console_type}"'
        body = {
            "remote_console": {
                "protocol": self.CONSOLE_PROTOCOLS[console_type],
                "type": console_type,
            }
        }
        try:
            answer = self.request("POST", f"servers/{server_id}/remote-consoles", body)
            return str(answer["remote_console"]["url"])
        except Exception as error:
            return f"Cannot get console url: {error}"

    def console_urls(self, server_id: str) -> dict[str, str]:
        return {kind: self.console_url(server_id, kind) for kind in self.CONSOLE_PROTOCOLS}


def _is_ipv4(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).version == 4
    except ValueError:
        return False
