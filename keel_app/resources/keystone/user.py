"""OS::Keystone::User: a Keystone user, its groups and its roles.

The domain, default project and groups are resolved to ids. The user is made, then
added to its groups, then given its roles; an update changes what changed in place
(only the fields that changed are sent, so an unchanged password is never sent again)
and adds and removes groups and roles by difference. Deleting takes the user out of its
groups, then deletes it.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.keystone.base import keystone_v3_status
from keel_app.resources.keystone.role_assignments import ROLES, ROLES_SCHEMA, RoleAssignments


class User(RoleAssignments):
    entity = "users"
    actor_kind = "user"
    support_status = keystone_v3_status("2015.1")
    type_description = """\
Heat Template Resource for Keystone User.

Users represent an individual API consumer. A user itself must be owned by
a specific domain, and hence all user names are not globally unique, but
only unique to their domain.
"""

    PROPERTIES = (
        NAME,
        DOMAIN,
        DESCRIPTION,
        ENABLED,
        EMAIL,
        PASSWORD,
        DEFAULT_PROJECT,
        GROUPS,
    ) = (
        "name",
        "domain",
        "description",
        "enabled",
        "email",
        "password",
        "default_project",
        "groups",
    )
    ATTRIBUTES = (
        NAME_ATTR,
        DEFAULT_PROJECT_ATTR,
        DOMAIN_ATTR,
        ENABLED_ATTR,
        PASSWORD_EXPIRES_AT_ATTR,
    ) = ("name", "default_project_id", "domain_id", "enabled", "password_expires_at")

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of keystone user.", update_allowed=True),
        DOMAIN: Schema(
            Schema.STRING,
            "Name or ID of keystone domain.",
            default="default",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("keystone.domain")],
        ),
        DESCRIPTION: Schema(
            Schema.STRING, "Description of keystone user.", default="", update_allowed=True
        ),
        ENABLED: Schema(
            Schema.BOOLEAN,
            "Keystone user is enabled or disabled.",
            default=True,
            update_allowed=True,
        ),
        EMAIL: Schema(Schema.STRING, "Email address of keystone user.", update_allowed=True),
        PASSWORD: Schema(Schema.STRING, "Password of keystone user.", update_allowed=True),
        DEFAULT_PROJECT: Schema(
            Schema.STRING,
            "Name or ID of default project of keystone user.",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("keystone.project")],
        ),
        GROUPS: Schema(
            Schema.LIST,
            "Keystone user groups.",
            update_allowed=True,
            schema=Schema(
                Schema.STRING,
                "Keystone user group.",
                constraints=[constraints.CustomConstraint("keystone.group")],
            ),
        ),
        ROLES: ROLES_SCHEMA,
    }

    attributes_schema = {
        NAME_ATTR: AttributeSchema(
            "User name.", support_status=SupportStatus(version="9.0.0"), type=AttributeSchema.STRING
        ),
        DEFAULT_PROJECT_ATTR: AttributeSchema(
            "Default project id for user.",
            support_status=SupportStatus(version="9.0.0"),
            type=AttributeSchema.STRING,
        ),
        DOMAIN_ATTR: AttributeSchema(
            "Domain id for user.",
            support_status=SupportStatus(version="9.0.0"),
            type=AttributeSchema.STRING,
        ),
        ENABLED_ATTR: AttributeSchema(
            "Flag of enable user.",
            support_status=SupportStatus(version="9.0.0"),
            type=AttributeSchema.BOOLEAN,
        ),
        PASSWORD_EXPIRES_AT_ATTR: AttributeSchema(
            "Show user password expiration time.",
            support_status=SupportStatus(version="9.0.0"),
            type=AttributeSchema.STRING,
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        return [
            TranslationRule(
                properties, TranslationRule.RESOLVE, [path], client_plugin=plugin, finder=finder
            )
            for path, finder in (
                (self.DOMAIN, "get_domain_id"),
                (self.DEFAULT_PROJECT, "get_project_id"),
                (self.GROUPS, "get_group_id"),
            )
        ]

    def handle_create(self) -> None:
        user = self.keystone().create(
            self.entity,
            {
                "name": self.name_or_default(self.properties[self.NAME]),
                "domain_id": self.properties[self.DOMAIN],
                "default_project_id": self.properties[self.DEFAULT_PROJECT],
                "password": self.properties[self.PASSWORD],
                "email": self.properties[self.EMAIL],
                "description": self.properties[self.DESCRIPTION],
                "enabled": self.properties[self.ENABLED],
            },
        )
        self.resource_id_set(user["id"])
        for group_id in self.properties[self.GROUPS] or []:
            self.keystone().add_user_to_group(user["id"], group_id)
        self.create_assignments(user["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        changed = {
            "name": (
                self.name_or_default(prop_diff[self.NAME]) if self.NAME in prop_diff else None
            ),
            "description": prop_diff.get(self.DESCRIPTION),
            "email": prop_diff.get(self.EMAIL),
            "password": prop_diff.get(self.PASSWORD),
            "default_project_id": prop_diff.get(self.DEFAULT_PROJECT),
            "enabled": prop_diff.get(self.ENABLED),
        }
        # Keystone refuses an update that changes nothing: only a real change is sent.
        if any(value is not None for value in changed.values()):
            domain = prop_diff.get(self.DOMAIN) or self.properties[self.DOMAIN]
            self.keystone().update(self.entity, self.resource_id, {**changed, "domain_id": domain})
        if self.GROUPS in prop_diff:
            before = set(self.properties[self.GROUPS] or [])
            after = set(prop_diff[self.GROUPS] or [])
            for group_id in after - before:
                self.keystone().add_user_to_group(self.resource_id, group_id)
            for group_id in before - after:
                self.keystone().remove_user_from_group(self.resource_id, group_id)
        self.update_assignments(prop_diff, self.resource_id)

    def handle_delete(self) -> Any:
        if self.resource_id is None:
            return None
        keystone = self.keystone()
        for group_id in self.properties[self.GROUPS] or []:
            # A group gone already holds the user no longer.
            with keystone.ignore_not_found():
                keystone.remove_user_from_group(self.resource_id, group_id)
        return super().handle_delete()


RESOURCE_CLASSES = {"OS::Keystone::User": User}
