"""Neutron's client plugin: its v2.0 API in Heat's dict shapes, with neutronclient's errors.

Heat's Neutron resources send their properties as the API's bodies
(``{"network": {...}}``) and read the answers as dicts, so this plugin talks to the API
the same way, through the openstacksdk ``network`` proxy's session and endpoint, and
raises python-neutronclient's exceptions (``neutron_errors``) so that failures read as
they do in Heat.
"""

from __future__ import annotations

import re
from typing import Any

from keel_app.clients import neutron_errors
from keel_app.clients.client_plugin import ClientPlugin
from keel_app.common import exception

UUID_PATTERN = re.compile("-".join(("[0-9A-Fa-f]{8}", *("[0-9A-Fa-f]{4}",) * 3, "[0-9A-Fa-f]{12}")))

# A resource's API collection where it is not just the plural with an "s".
COLLECTIONS = {
    "policy": "qos/policies",
    "qos_policy": "qos/policies",
    "address_scope": "address-scopes",
    "security_group": "security-groups",
    "security_group_rule": "security-group-rules",
    "rbac_policy": "rbac-policies",
    "floatingip": "floatingips",
    "metering_label": "metering/metering-labels",
    "metering_label_rule": "metering/metering-label-rules",
}
# The key of a collection's list in an answer, where it differs from the path.
LIST_KEYS = {
    "qos/policies": "policies",
    "metering/metering-labels": "metering_labels",
    "metering/metering-label-rules": "metering_label_rules",
}


def collection(resource: str) -> str:
    return COLLECTIONS.get(resource, f"{resource}s")


class NeutronClientPlugin(ClientPlugin):
    name = "neutron"
    service_types = ("network",)
    proxy = "network"

    def request(
        self, method: str, path: str, body: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        """One call of Neutron's v2.0 API; the answer's body, or neutronclient's error."""
        response = self.client().request(
            "/" + path.lstrip("/"),
            method,
            json=body,
            params=params,
            raise_exc=False,
            headers={"Accept": "application/json"},
        )
        try:
            answer = response.json() if response.content else None
        except ValueError:
            answer = response.text
        if response.status_code >= 400:
            request_id = response.headers.get("x-openstack-request-id")
            raise neutron_errors.from_response(
                response.status_code, answer, [request_id] if request_id else None
            )
        return answer

    # The CRUD of one resource kind, as neutronclient's create_<x>/show_<x>/...

    def create(self, resource: str, fields: dict[str, Any]) -> dict[str, Any]:
        return dict(self.request("POST", collection(resource), {resource: fields})[resource])

    def show(self, resource: str, resource_id: str) -> dict[str, Any]:
        return dict(self.request("GET", f"{collection(resource)}/{resource_id}")[resource])

    def update(self, resource: str, resource_id: str, fields: dict[str, Any]) -> Any:
        return self.request("PUT", f"{collection(resource)}/{resource_id}", {resource: fields})

    def delete(self, resource: str, resource_id: str) -> None:
        self.request("DELETE", f"{collection(resource)}/{resource_id}")

    def list(self, resource: str, **filters: Any) -> list[dict[str, Any]]:
        path = collection(resource)
        answer = self.request("GET", path, params=filters or None)
        return list(answer[LIST_KEYS.get(path, path.replace("-", "_"))])

    # What an error means, for neutronclient's classes

    def is_not_found(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, neutron_errors.NotFound) or (
            isinstance(error, neutron_errors.NeutronClientException) and error.status_code == 404
        )

    def is_conflict(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, neutron_errors.Conflict) and not isinstance(
            error, neutron_errors.OverQuotaClient
        )

    def is_over_limit(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, neutron_errors.NeutronClientException) and (
            error.status_code == 413
        )

    def is_client_exception(self, error: BaseException) -> bool:
        return isinstance(
            error,
            (neutron_errors.NeutronClientException, neutron_errors.NeutronClientNoUniqueMatch),
        ) or super().is_client_exception(error)

    # Finding things by name or id

    def find_resourceid_by_name_or_id(self, resource: str, name_or_id: str) -> str:
        """The id of the one ``resource`` whose id or else name is ``name_or_id``."""
        return str(
            self.find_cached(
                resource, name_or_id, lambda: self.find_resource(resource, name_or_id)["id"]
            )
        )

    def find_resource(self, resource: str, name_or_id: str) -> dict[str, Any]:
        if UUID_PATTERN.match(name_or_id):
            found = self.list(resource, id=name_or_id)
            if found:
                return found[0]
        found = self.list(resource, name=name_or_id)
        if len(found) > 1:
            raise neutron_errors.NeutronClientNoUniqueMatch(resource=resource, name=name_or_id)
        if not found:
            raise neutron_errors.NotFound(
                f"Unable to find {resource} with name or id '{name_or_id}'"
            )
        return found[0]

    def get_qos_policy_id(self, policy: str) -> str:
        return self.find_resourceid_by_name_or_id("policy", policy)

    def find_network_segment(self, segment: str) -> str:
        """The id of the network segment named ``segment`` (by id or name)."""
        return self.find_resourceid_by_name_or_id("segment", segment)

    def add_interface_router(self, router_id: str, interface: dict[str, str]) -> Any:
        """Plug a router into a subnet or port (``{"subnet_id": ...}``/``{"port_id": ...}``)."""
        return self.request("PUT", f"routers/{router_id}/add_router_interface", interface)

    def remove_interface_router(self, router_id: str, interface: dict[str, str]) -> Any:
        return self.request("PUT", f"routers/{router_id}/remove_router_interface", interface)

    def network_id_from_subnet_id(self, subnet_id: str) -> str:
        return str(self.show("subnet", subnet_id)["network_id"])

    def get_secgroup_uuids(self, security_groups: list[str]) -> list[str]:
        """Ids of security groups named by id or by name (within the caller's project)."""
        ids: list[str] = []
        groups: list[dict[str, Any]] | None = None
        for group in security_groups:
            if UUID_PATTERN.match(group):
                ids.append(group)
                continue
            if groups is None:
                groups = self.list("security_group", project_id=self.context.project_id)
            named = [found["id"] for found in groups if found["name"] == group]
            if not named:
                raise exception.EntityNotFound(entity="Resource", name=group)
            if len(named) > 1:
                raise exception.PhysicalResourceNameAmbiguity(name=group)
            ids.append(named[0])
        return ids

    def has_extension(self, alias: str) -> bool:
        if not hasattr(self, "_extensions"):

            def listed() -> list[str]:
                answer = self.request("GET", "extensions")
                return sorted(extension.get("alias") for extension in answer["extensions"])

            self._extensions = set(self.extensions_cached(listed))
        return alias in self._extensions
