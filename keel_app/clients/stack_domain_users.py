"""Projects, users and EC2 keypairs in the stack-user domain, made by its domain admin.

Heat gives each stack that needs one a project in the stack-user domain
(``<caller's project id>-<stack id>``, cut to 64 characters) and each signalling
resource a user there, holding the ``heat_stack_user_role`` role on that project; the
user may get an EC2 keypair (a Keystone ``ec2`` credential) to sign URLs with, and a
password to get tokens with. All of it is done with a token of the domain admin
(``stack_domain_admin``) scoped to the domain, over Keystone's v3 API. A user, keypair
or project already gone is not an error when deleted, as in Heat.
"""

from __future__ import annotations

import json
import logging
import uuid
from dataclasses import dataclass, field
from typing import Any, NamedTuple
from urllib.parse import quote

from keystoneauth1 import exceptions as keystone_errors
from keystoneauth1 import identity

from keel_app.clients.keystone import KeystoneSettings, identity_url, make_session
from keel_app.clients.stack_domain import missing_options, uses_keystone
from keel_app.common.exception import AuthorizationFailure, Error

LOG = logging.getLogger(__name__)

PROJECT_DESCRIPTION = "Heat stack user project"
MAX_PROJECT_NAME = 64
MAX_USER_NAME = 255
# Stack users are machines: Keystone's rules for people's passwords do not apply.
USER_OPTIONS = {
    "ignore_change_password_upon_first_use": True,
    "ignore_password_expiry": True,
    "ignore_lockout_failure_attempts": True,
}


class AccessKey(NamedTuple):
    id: str
    access: str
    secret: str


@dataclass(frozen=True)
class StackDomainSettings:
    """[DEFAULT]'s stack-user domain options."""

    domain_id: str | None
    domain_name: str | None
    admin_user: str
    admin_password: str = field(repr=False)
    stack_user_role: str = "heat_stack_user"


def from_conf(conf: Any) -> StackDomainSettings | None:
    """The domain of a heat.conf that uses Keystone and configures it; else None."""
    if not uses_keystone(conf) or missing_options(conf):
        return None
    return StackDomainSettings(
        domain_id=conf.stack_user_domain_id or None,
        domain_name=conf.stack_user_domain_name or None,
        admin_user=conf.stack_domain_admin,
        admin_password=conf.stack_domain_admin_password,
        stack_user_role=conf.heat_stack_user_role,
    )


def username_for(name: str) -> str:
    """Keystone takes 255 characters of a user name; Heat keeps the last ones."""
    if len(name) > MAX_USER_NAME:
        LOG.warning("Truncating the username %s to the last 255 characters.", name)
    return name[-MAX_USER_NAME:]


class StackDomainClient:
    """The domain admin's calls, for the stacks of one caller (``project_id``)."""

    def __init__(
        self,
        keystone: KeystoneSettings,
        domain: StackDomainSettings,
        auth_url: str | None = None,
        project_id: str | None = None,
    ) -> None:
        self.keystone = keystone
        self.domain = domain
        self.v3_endpoint = identity_url(keystone, auth_url)
        self.project_id = project_id
        self.session = make_session(keystone, None)
        self._admin_auth: Any = None
        self._domain_id = domain.domain_id

    # The domain admin's token

    @property
    def admin_auth(self) -> Any:
        if self._admin_auth is None:
            # Only a token scoped to the domain may create projects in it.
            auth = identity.v3.Password(
                auth_url=self.v3_endpoint,
                username=self.domain.admin_user,
                password=self.domain.admin_password,
                user_domain_id=self.domain.domain_id,
                user_domain_name=None if self.domain.domain_id else self.domain.domain_name,
                domain_id=self.domain.domain_id,
                domain_name=None if self.domain.domain_id else self.domain.domain_name,
            )
            try:
                auth.get_token(self.session)
            except keystone_errors.Unauthorized:
                LOG.error("Domain admin client authentication failed")
                raise AuthorizationFailure() from None
            self._admin_auth = auth
        return self._admin_auth

    @property
    def stack_domain_id(self) -> str:
        if not self._domain_id:
            try:
                access = self.admin_auth.get_access(self.session)
            except keystone_errors.Unauthorized:
                LOG.error("Keystone client authentication failed")
                raise AuthorizationFailure() from None
            self._domain_id = access.domain_id
        return str(self._domain_id)

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        response = self.session.request(
            self.v3_endpoint + path, method, auth=self.admin_auth, json=body
        )
        return response.json() if response.content else None

    # Projects

    def create_stack_domain_project(self, stack_id: str) -> str:
        """A new project in the domain for the stack; its id."""
        # The caller's project id, not its name, keeps names unique across domains.
        name = f"{self.project_id}-{stack_id}"[:MAX_PROJECT_NAME]
        body = {
            "project": {
                "name": name,
                "domain_id": self.stack_domain_id,
                "description": PROJECT_DESCRIPTION,
                "enabled": True,
            }
        }
        return str(self._call("POST", "/projects", body)["project"]["id"])

    def delete_stack_domain_project(self, project_id: str) -> None:
        """Delete a stack's project, but never one outside the stack-user domain."""
        try:
            project = self._call("GET", f"/projects/{project_id}")["project"]
        except keystone_errors.NotFound:
            return
        except keystone_errors.Forbidden:
            LOG.warning("Unable to get details for project %s, not deleting", project_id)
            return
        if project["domain_id"] != self.stack_domain_id:
            LOG.warning("Not deleting non heat-domain project")
            return
        try:
            self._call("DELETE", f"/projects/{project_id}")
        except keystone_errors.NotFound:
            pass

    # Users

    def _stack_user_role_id(self) -> str:
        role_name = self.domain.stack_user_role
        roles = self._call("GET", f"/roles?name={quote(role_name)}")["roles"]
        if len(roles) != 1:
            LOG.error(
                "Failed to add user to role %s, check role exists!",
                role_name,
            )
            raise Error(f"Can't find role {role_name}")
        return str(roles[0]["id"])

    def create_stack_domain_user(
        self, username: str, project_id: str, password: str | None = None
    ) -> str:
        """A new user of the domain with the stack-user role on ``project_id``; its id."""
        role_id = self._stack_user_role_id()
        user: dict[str, Any] = {
            "name": username_for(username),
            "default_project_id": project_id,
            "domain_id": self.stack_domain_id,
            "enabled": True,
            "options": USER_OPTIONS,
        }
        if password is not None:
            user["password"] = password
        user_id = str(self._call("POST", "/users", {"user": user})["user"]["id"])
        LOG.debug("Adding user %s to role %s", user_id, role_id)
        self._call("PUT", f"/projects/{project_id}/users/{user_id}/roles/{role_id}")
        return user_id

    def _check_stack_domain_user(self, user_id: str, project_id: str | None, action: str) -> None:
        """The user must be the domain's, in the stack's project, before it is touched."""
        user = self._call("GET", f"/users/{user_id}")["user"]
        if user.get("domain_id") != self.stack_domain_id:
            raise ValueError(f"User {action} in invalid domain")
        if user.get("default_project_id") != project_id:
            raise ValueError(f"User {action} in invalid project")

    def delete_stack_domain_user(self, user_id: str, project_id: str | None) -> None:
        try:
            self._check_stack_domain_user(user_id, project_id, "delete")
            self._call("DELETE", f"/users/{user_id}")
        except keystone_errors.NotFound:
            pass

    def disable_stack_domain_user(self, user_id: str, project_id: str | None) -> None:
        self._set_enabled(user_id, project_id, False, "disable")

    def enable_stack_domain_user(self, user_id: str, project_id: str | None) -> None:
        self._set_enabled(user_id, project_id, True, "enable")

    def _set_enabled(
        self, user_id: str, project_id: str | None, enabled: bool, action: str
    ) -> None:
        self._check_stack_domain_user(user_id, project_id, action)
        self._call("PATCH", f"/users/{user_id}", {"user": {"enabled": enabled}})

    def stack_domain_user_token(self, user_id: str, project_id: str, password: str) -> str:
        """A token of the stack user scoped to its project (for TOKEN_SIGNAL handles)."""
        auth = identity.v3.Password(
            auth_url=self.v3_endpoint, user_id=user_id, password=password, project_id=project_id
        )
        return str(auth.get_token(self.session))

    # EC2 keypairs

    def create_stack_domain_user_keypair(
        self, user_id: str, project_id: str | None, secret: str
    ) -> AccessKey:
        """A new EC2 credential of the user in its project, with ``secret``."""
        blob = {"access": uuid.uuid4().hex, "secret": secret}
        credential = {
            "user_id": user_id,
            "type": "ec2",
            "blob": json.dumps(blob),
            "project_id": project_id,
        }
        made = self._call("POST", "/credentials", {"credential": credential})["credential"]
        return AccessKey(id=str(made["id"]), access=blob["access"], secret=blob["secret"])

    def delete_stack_domain_user_keypair(
        self, user_id: str, project_id: str | None, credential_id: str
    ) -> None:
        try:
            self._check_stack_domain_user(user_id, project_id, "delete_keypair")
            self._call("DELETE", f"/credentials/{credential_id}")
        except keystone_errors.NotFound:
            pass
