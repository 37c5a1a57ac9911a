"""Keystone's client plugin: finding identity entities by id or name, as Heat's does.

Each ``get_<entity>_id`` first reads the value as an id and, when Keystone has no such
id, lists the entities of that name (within the domain a ``name{domain}`` value names);
finding none is Heat's ``EntityNotFound`` (``KeystoneProject``, ``KeystoneUser``...).
Calls go to the catalog's identity v3 endpoint with the caller's own credentials, so
Keystone's policy decides what the caller may look up.
"""

from __future__ import annotations

import re
from typing import Any

from keystoneauth1 import adapter
from keystoneauth1 import exceptions as keystone_errors

from keel_app.clients.client_plugin import ClientPlugin
from keel_app.common import exception

WITH_DOMAIN = re.compile(r"\{(.*?)\}$")


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
