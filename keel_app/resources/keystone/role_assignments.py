"""Role assignments: the ``roles`` property of OS::Keystone::User and Group, and the
OS::Keystone::UserRoleAssignment and GroupRoleAssignment types that grant only roles.

Each item of ``roles`` grants a role (name or id) on either a project or a domain. The
names are looked up when the roles are granted; an update grants what was added and
revokes what was taken away, and a delete revokes every role the property grants that
Keystone still shows.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.properties import Schema
from keel_app.resources.keystone.base import KeystoneResource, keystone_v3_status

ROLES = "roles"
ROLE, DOMAIN, PROJECT = "role", "domain", "project"

ROLES_SCHEMA = Schema(
    Schema.LIST,
    "List of role assignments.",
    schema=Schema(
        Schema.MAP,
        "Map between role with either project or domain.",
        schema={
            ROLE: Schema(
                Schema.STRING,
                "Keystone role.",
                required=True,
                constraints=[constraints.CustomConstraint("keystone.role")],
            ),
            PROJECT: Schema(
                Schema.STRING,
                "Keystone project.",
                constraints=[constraints.CustomConstraint("keystone.project")],
            ),
            DOMAIN: Schema(
                Schema.STRING,
                "Keystone domain.",
                constraints=[constraints.CustomConstraint("keystone.domain")],
            ),
        },
    ),
    update_allowed=True,
)

# One assignment: (role, "project" or "domain", the project's or the domain's id or name).
Assignment = tuple[str, str, str]


def assignments(roles: list[dict[str, Any]] | None) -> set[Assignment]:
    """The assignments the items of ``roles`` name (an item with a project names it on
    the project, else one with a domain on the domain)."""
    found: set[Assignment] = set()
    for item in roles or []:
        if item.get(PROJECT) is not None:
            found.add((item[ROLE], PROJECT, item[PROJECT]))
        elif item.get(DOMAIN) is not None:
            found.add((item[ROLE], DOMAIN, item[DOMAIN]))
    return found


class RoleAssignments(KeystoneResource):
    """A type whose ``roles`` are granted to one user or one group (the ``actor``)."""

    # "user" or "group": who the roles are granted to.
    actor_kind: str

    def validate(self) -> Any:
        result = super().validate()
        for item in self.properties[ROLES] or []:
            project, domain = item.get(PROJECT), item.get(DOMAIN)
            if project is not None and domain is not None:
                raise exception.ResourcePropertyConflict(PROJECT, DOMAIN)
            if project is None and domain is None:
                raise exception.StackValidationFailed(
                    message=f"Either project or domain must be specified for role {item.get(ROLE)}"
                )
        return result

    def _actor(self, actor_id: str) -> dict[str, str]:
        return {f"{self.actor_kind}_id": actor_id}

    def _to_ids(self, named: set[Assignment], gone_ok: bool = False) -> set[Assignment]:
        """The assignments with the role, project and domain looked up to their ids;
        with ``gone_ok``, those naming something Keystone no longer has are left out
        (nothing can be granted there any more)."""
        keystone = self.keystone()
        found = set()
        for role, scope, target in named:
            finder = keystone.get_project_id if scope == PROJECT else keystone.get_domain_id
            try:
                found.add((keystone.get_role_id(role), scope, finder(target)))
            except Exception as error:
                if not (gone_ok and keystone.is_not_found(error)):
                    raise
        return found

    def _current(self, actor_id: str) -> set[Assignment]:
        """The roles Keystone shows granted directly to the actor, by id."""
        found = set()
        for assignment in self.keystone().role_assignments(**self._actor(actor_id)):
            role_id = (assignment.get("role") or {}).get("id")
            scope = assignment.get("scope") or {}
            if not role_id or "OS-INHERIT:inherited_to" in scope:
                continue
            for kind in (PROJECT, DOMAIN):
                if (scope.get(kind) or {}).get("id"):
                    found.add((role_id, kind, scope[kind]["id"]))
        return found

    def grant_roles(self, actor_id: str, granted: set[Assignment]) -> None:
        """Grant the assignments (by id)."""
        for role_id, scope, target_id in granted:
            self.keystone().grant(role_id, **self._actor(actor_id), **{f"{scope}_id": target_id})

    def revoke_roles(self, actor_id: str, revoked: set[Assignment]) -> None:
        """Revoke those of the assignments (by id) that Keystone still shows."""
        for role_id, scope, target_id in revoked & self._current(actor_id):
            self.keystone().revoke(role_id, **self._actor(actor_id), **{f"{scope}_id": target_id})

    def create_assignments(self, actor_id: str) -> None:
        self.grant_roles(actor_id, self._to_ids(assignments(self.properties[ROLES])))

    def update_assignments(self, prop_diff: dict[str, Any], actor_id: str) -> None:
        if ROLES not in prop_diff:
            return
        # Compared by id: a role or project once named and now given by id is unchanged
        # (Heat compares the names as written, and revokes what it just kept).
        before = self._to_ids(assignments(self.properties[ROLES]), gone_ok=True)
        after = self._to_ids(assignments(prop_diff[ROLES]))
        if after - before:
            self.grant_roles(actor_id, after - before)
        if before - after:
            self.revoke_roles(actor_id, before - after)

    def delete_assignments(self, actor_id: str) -> None:
        if self.properties[ROLES] is not None:
            granted = self._to_ids(assignments(self.properties[ROLES]), gone_ok=True)
            self.revoke_roles(actor_id, granted)


class RoleAssignment(RoleAssignments):
    """Roles granted to a user or a group that exists outside the resource: it has no
    physical id of its own, and a missing user or group grants nothing."""

    # The property naming the actor, and the plugin's finder of its id.
    actor_property: str
    actor_finder: str

    def _actor_id(self, named: str | None) -> str | None:
        try:
            return getattr(self.keystone(), self.actor_finder)(named)  # type: ignore[no-any-return]
        except Exception as error:
            if self.keystone().is_not_found(error):
                return None
            raise

    def handle_create(self) -> None:
        actor_id = self._actor_id(self.properties[self.actor_property])
        if actor_id is not None:
            self.create_assignments(actor_id)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        before_id = self._actor_id(self.properties[self.actor_property])
        after_id = before_id
        if self.actor_property in prop_diff:
            after_id = self._actor_id(prop_diff[self.actor_property])
        if after_id == before_id:
            if before_id is not None:
                self.update_assignments(prop_diff, before_id)
            return
        # Another user or group: the roles move to it (Heat leaves them with the first).
        if before_id is not None:
            self.delete_assignments(before_id)
        if after_id is not None:
            roles = prop_diff[ROLES] if ROLES in prop_diff else self.properties[ROLES]
            self.grant_roles(after_id, self._to_ids(assignments(roles)))

    def handle_delete(self) -> None:
        with self.keystone().ignore_not_found():
            actor_id = self._actor_id(self.properties[self.actor_property])
            if actor_id is not None:
                self.delete_assignments(actor_id)


class UserRoleAssignment(RoleAssignment):
    type_description = """\
Resource for granting roles to a user.

Resource for specifying users and their's roles.
"""

    support_status = keystone_v3_status("5.0.0")
    actor_kind = "user"
    actor_property = USER = "user"
    actor_finder = "get_user_id"

    properties_schema = {
        USER: Schema(
            Schema.STRING,
            "Name or id of keystone user.",
            required=True,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("keystone.user")],
        ),
        ROLES: ROLES_SCHEMA,
    }


class GroupRoleAssignment(RoleAssignment):
    type_description = """\
Resource for granting roles to a group.

Resource for specifying groups and their's roles.
"""

    support_status = keystone_v3_status("5.0.0")
    actor_kind = "group"
    actor_property = GROUP = "group"
    actor_finder = "get_group_id"

    properties_schema = {
        GROUP: Schema(
            Schema.STRING,
            "Name or id of keystone group.",
            required=True,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("keystone.group")],
        ),
        ROLES: ROLES_SCHEMA,
    }


RESOURCE_CLASSES = {
    "OS::Keystone::UserRoleAssignment": UserRoleAssignment,
    "OS::Keystone::GroupRoleAssignment": GroupRoleAssignment,
}
