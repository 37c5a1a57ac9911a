"""The test cloud's entries in a Keystone: service users and the catalog, made through
Keystone's v3 API with the bootstrap admin's token and removed again afterwards."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.cloud_config import REGION, SERVICE_PASSWORD, SERVICE_USERS
from tests.keystone import ADMIN, Keystone

INTERFACES = ("public", "internal", "admin")


@dataclass
class CatalogEntries:
    """What was made in Keystone, so that it can be taken away again."""

    keystone: Keystone
    user_ids: list[str] = field(default_factory=list)
    service_ids: list[str] = field(default_factory=list)
    role_ids: list[str] = field(default_factory=list)
    _admin_token: str = ""

    def _call(self, method: str, path: str, body: dict | None = None) -> dict:
        # One token for all the calls: issuing one takes Keystone a good fraction of a second.
        if not self._admin_token:
            self._admin_token = self.keystone.token(ADMIN)
        status, answer = self.keystone.request(method, path, self._admin_token, body)
        if status >= 300:
            raise RuntimeError(f"Keystone answered {status} to {method} {path}")
        return answer or {}

    def role_id(self, name: str) -> str:
        found = self._call("GET", f"/roles?name={name}")["roles"]
        if found:
            return found[0]["id"]
        made = self._call("POST", "/roles", {"role": {"name": name}})["role"]["id"]
        self.role_ids.append(made)
        return made

    def add_service_users(self) -> None:
        """Each service's user, admin and service in project ``service``: the service
        role lets their tokens pass as service tokens."""
        project_id = self.keystone.project_ids["service"]
        roles = [self.role_id("admin"), self.role_id("service")]
        for name in SERVICE_USERS:
            body = {
                "user": {
                    "name": name,
                    "password": SERVICE_PASSWORD,
                    "domain_id": "default",
                    "default_project_id": project_id,
                }
            }
            user_id = self._call("POST", "/users", body)["user"]["id"]
            self.user_ids.append(user_id)
            for role in roles:
                self._call("PUT", f"/projects/{project_id}/users/{user_id}/roles/{role}")

    def add_service(self, name: str, service_type: str, url: str) -> None:
        body = {"service": {"name": name, "type": service_type, "enabled": True}}
        service_id = self._call("POST", "/services", body)["service"]["id"]
        self.service_ids.append(service_id)
        for interface in INTERFACES:
            endpoint = {
                "service_id": service_id,
                "interface": interface,
                "url": url,
                "region_id": REGION,
            }
            self._call("POST", "/endpoints", {"endpoint": endpoint})

    def remove(self) -> None:
        # Deleting a service deletes its endpoints.
        for service_id in self.service_ids:
            self._call("DELETE", f"/services/{service_id}")
        for user_id in self.user_ids:
            self._call("DELETE", f"/users/{user_id}")
        for role_id in self.role_ids:
            self._call("DELETE", f"/roles/{role_id}")
        self.service_ids.clear()
        self.user_ids.clear()
        self.role_ids.clear()
