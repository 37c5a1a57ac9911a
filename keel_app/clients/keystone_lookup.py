"""Keystone's client plugin: finding identity entities by id or name, as Heat's does, and
the identity v3 calls the OS::Keystone::* types make, as keystoneclient makes them.

Each ``get_<entity>_id`` first reads the value as an id and, when Keystone has no such
id, lists the entities of that name (within the domain a ``name{domain}`` value names);
finding none is Heat's ``EntityNotFound`` (``KeystoneProject``, ``KeystoneUser``...).
Calls go to the catalog's identity v3 endpoint with the caller's own credentials, so
Keystone's policy decides what the caller may look up or change. A refusal raises
keystoneauth's HTTP error (``Conflict``, ``BadRequest``, ``Forbidden``...), the class and
message Heat's keystoneclient raises.
"""

from __future__ import annotations

import re
from typing import Any

from keystoneauth1 import adapter
from keystoneauth1 import exceptions as keystone_errors

from keel_app.clients.client_plugin import ClientPlugin
from keel_app.common import exception

WITH_DOMAIN = re.compile(r"\{(.*?)\}$")

# The key of one entity of each collection in the API's bodies.
ENTITY_KEYS = {
    "projects": "project",
    "users": "user",
    "roles": "role",
    "groups": "group",
    "domains": "domain",
    "regions": "region",
    "services": "service",
    "endpoints": "endpoint",
}


def without_none(fields: dict[str, Any]) -> dict[str, Any]:
    """What keystoneclient sends of ``fields``: a field set to None is left out."""
    return {key: value for key, value in fields.items() if value is not None}


class KeystoneClientPlugin(ClientPlugin):
    name = "keystone"
    service_types = ("identity",)
    proxy = "identity"

    def identity(self) -> adapter.Adapter:
        return adapter.Adapter(
            self.session,
            service_type="identity",
            interface=self.interface,
            region_name=self.region_name,
            version=(3, 0),
        )

    def is_not_found(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, (keystone_errors.NotFound, exception.EntityNotFound))

    def is_conflict(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, keystone_errors.Conflict)

    def is_over_limit(self, error: BaseException) -> bool:  # type: ignore[override]
        return isinstance(error, keystone_errors.RequestEntityTooLarge)

    def _get(self, path: str, **params: Any) -> Any:
        return self.identity().get(path, params=params or None).json()

    # Entities (the collections of ENTITY_KEYS)

    def create(self, collection: str, fields: dict[str, Any]) -> dict[str, Any]:
        key = ENTITY_KEYS[collection]
        body = {key: without_none(fields)}
        return dict(self.identity().post(f"/{collection}", json=body).json()[key])

    def show(self, collection: str, entity_id: str) -> dict[str, Any]:
        return dict(self._get(f"/{collection}/{entity_id}")[ENTITY_KEYS[collection]])

    def update(self, collection: str, entity_id: str, fields: dict[str, Any]) -> dict[str, Any]:
        key = ENTITY_KEYS[collection]
        body = {key: without_none(fields)}
        return dict(self.identity().patch(f"/{collection}/{entity_id}", json=body).json()[key])

    def delete(self, collection: str, entity_id: str) -> None:
        self.identity().delete(f"/{collection}/{entity_id}")

    # Group membership and role assignments

    def add_user_to_group(self, user_id: str, group_id: str) -> None:
        self.identity().put(f"/groups/{group_id}/users/{user_id}")

    def remove_user_from_group(self, user_id: str, group_id: str) -> None:
        self.identity().delete(f"/groups/{group_id}/users/{user_id}")

    @staticmethod
    def _grant_path(
        role_id: str,
        user_id: str | None,
        group_id: str | None,
        project_id: str | None,
        domain_id: str | None,
    ) -> str:
        target = f"/projects/{project_id}" if project_id else f"/domains/{domain_id}"
        actor = f"/users/{user_id}" if user_id else f"/groups/{group_id}"
        return f"{target}{actor}/roles/{role_id}"

    def grant(
        self,
        role_id: str,
        *,
        user_id: str | None = None,
        group_id: str | None = None,
        project_id: str | None = None,
        domain_id: str | None = None,
    ) -> None:
        """Give the user (or group) the role on the project (or domain)."""
        self.identity().put(self._grant_path(role_id, user_id, group_id, project_id, domain_id))

    def revoke(
        self,
        role_id: str,
        *,
        user_id: str | None = None,
        group_id: str | None = None,
        project_id: str | None = None,
        domain_id: str | None = None,
    ) -> None:
        self.identity().delete(self._grant_path(role_id, user_id, group_id, project_id, domain_id))

    def role_assignments(
        self, user_id: str | None = None, group_id: str | None = None
    ) -> list[dict[str, Any]]:
        """The direct role assignments of a user or a group."""
        filters = {"user.id": user_id} if user_id else {"group.id": group_id}
        return list(self._get("/role_assignments", **filters)["role_assignments"])

    # Finding entities by id or name

    def parse_entity_with_domain(self, value: str, entity: str) -> tuple[str, str | None]:
        """``name{domain}`` -> (name, the domain's id); a plain value has no domain."""
        try:
            match = WITH_DOMAIN.search(value)
            if not match:
                return value, None
            return value[: match.start()], self.get_domain_id(match.group(1))
        except Exception:
            raise exception.EntityNotFound(entity=entity, name=value) from None

    def _find(
        self,
        collection: str,
        key: str,
        entity: str,
        value: str | None,
        domain: str | None = None,
        with_domain: bool = True,
    ) -> str | None:
        if value is None:
            return None
        if with_domain and not domain:
            value, domain = self.parse_entity_with_domain(value, entity)
        try:
            return str(self._get(f"/{collection}/{value}")[key]["id"])
        except keystone_errors.NotFound:
            filters = {"name": value, **({"domain_id": domain} if domain else {})}
            for found in self._get(f"/{collection}", **filters)[collection]:
                if found["name"] == value:
                    return str(found["id"])
        raise exception.EntityNotFound(entity=entity, name=value)

    def get_role_id(self, role: str | None, domain: str | None = None) -> str | None:
        return self._find("roles", "role", "KeystoneRole", role, domain)

    def get_project_id(self, project: str | None, domain: str | None = None) -> str | None:
        return self._find("projects", "project", "KeystoneProject", project, domain)

    def get_domain_id(self, domain: str | None) -> str | None:
        return self._find("domains", "domain", "KeystoneDomain", domain, with_domain=False)

    def get_group_id(self, group: str | None, domain: str | None = None) -> str | None:
        return self._find("groups", "group", "KeystoneGroup", group, domain)

    def get_user_id(self, user: str | None, domain: str | None = None) -> str | None:
        return self._find("users", "user", "KeystoneUser", user, domain)

    def get_service_id(self, service: str | None) -> str | None:
        if service is None:
            return None
        try:
            return str(self._get(f"/services/{service}")["service"]["id"])
        except keystone_errors.NotFound:
            named = self._get("/services", name=service)["services"]
        if len(named) > 1:
            raise exception.KeystoneServiceNameConflict(service=service)
        if not named:
            raise exception.EntityNotFound(entity="KeystoneService", name=service)
        return str(named[0]["id"])

    def get_region_id(self, region: str) -> str:
        try:
            return str(self._get(f"/regions/{region}")["region"]["id"])
        except keystone_errors.NotFound:
            raise exception.EntityNotFound(entity="KeystoneRegion", name=region) from None
