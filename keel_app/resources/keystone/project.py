"""OS::Keystone::Project: a Keystone project, in a domain and under a parent project.

The domain and the parent are resolved to ids; everything but the parent changes in
place (Keystone itself refuses to move a project to another domain). Deleting the
project first deletes the ``default`` security group Neutron made for it, which would
otherwise outlive it.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.keystone.base import KeystoneResource, keystone_v3_status


class Project(KeystoneResource):
    entity = "projects"
    support_status = keystone_v3_status("2015.1")
    type_description = """\
Heat Template Resource for Keystone Project.

Projects represent the base unit of ownership in OpenStack, in that all
resources in OpenStack should be owned by a specific project. A project
itself must be owned by a specific domain, and hence all project names are
not globally unique, but unique to their domain. If the domain for a
project is not specified, then it is added to the default domain.
"""

    PROPERTIES = (NAME, DOMAIN, DESCRIPTION, ENABLED, PARENT, TAGS) = (
        "name",
        "domain",
        "description",
        "enabled",
        "parent",
        "tags",
    )
    ATTRIBUTES = (NAME_ATTR, PARENT_ATTR, DOMAIN_ATTR, ENABLED_ATTR, IS_DOMAIN_ATTR) = (
        "name",
        "parent_id",
        "domain_id",
        "enabled",
        "is_domain",
    )

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of keystone project.", update_allowed=True),
        DOMAIN: Schema(
            Schema.STRING,
            "Name or id of keystone domain.",
            default="default",
            update_allowed=True,
            constraints=[constraints.CustomConstraint("keystone.domain")],
        ),
        DESCRIPTION: Schema(
            Schema.STRING, "Description of keystone project.", default="", update_allowed=True
        ),
        ENABLED: Schema(
            Schema.BOOLEAN,
            "This project is enabled or disabled.",
            default=True,
            update_allowed=True,
        ),
        PARENT: Schema(
            Schema.STRING,
            "The name or ID of parent of this keystone project in hierarchy.",
            support_status=SupportStatus(version="6.0.0"),
            constraints=[constraints.CustomConstraint("keystone.project")],
        ),
        TAGS: Schema(
            Schema.LIST,
            "A list of tags for labeling and sorting projects.",
            support_status=SupportStatus(version="10.0.0"),
            default=[],
            update_allowed=True,
        ),
    }

    attributes_schema = {
        NAME_ATTR: AttributeSchema(
            "Project name.",
            support_status=SupportStatus(version="10.0.0"),
            type=AttributeSchema.STRING,
        ),
        PARENT_ATTR: AttributeSchema(
            "Parent project id.",
            support_status=SupportStatus(version="10.0.0"),
            type=AttributeSchema.STRING,
        ),
        DOMAIN_ATTR: AttributeSchema(
            "Domain id for project.",
            support_status=SupportStatus(version="10.0.0"),
            type=AttributeSchema.STRING,
        ),
        ENABLED_ATTR: AttributeSchema(
            "Flag of enable project.",
            support_status=SupportStatus(version="10.0.0"),
            type=AttributeSchema.BOOLEAN,
        ),
        IS_DOMAIN_ATTR: AttributeSchema(
            "Indicates whether the project also acts as a domain.",
            support_status=SupportStatus(version="10.0.0"),
            type=AttributeSchema.BOOLEAN,
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        plugin = self.resolving_plugin()
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.DOMAIN],
                client_plugin=plugin,
                finder="get_domain_id",
            ),
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.PARENT],
                client_plugin=plugin,
                finder="get_project_id",
            ),
        ]

    def handle_create(self) -> None:
        project = self.keystone().create(
            self.entity,
            {
                "domain_id": self.properties[self.DOMAIN],
                "name": self.name_or_default(self.properties[self.NAME]),
                "description": self.properties[self.DESCRIPTION],
                "enabled": self.properties[self.ENABLED],
                "parent_id": self.properties[self.PARENT] or None,
                "tags": self.properties[self.TAGS],
            },
        )
        self.resource_id_set(project["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if not prop_diff:
            return
        tags = prop_diff[self.TAGS] if self.TAGS in prop_diff else self.properties[self.TAGS]
        self.keystone().update(
            self.entity,
            self.resource_id,
            {
                "domain_id": prop_diff.get(self.DOMAIN, self.properties[self.DOMAIN]),
                # A name set back to none is the physical resource name again.
                "name": (
                    self.name_or_default(prop_diff[self.NAME]) if self.NAME in prop_diff else None
                ),
                "description": prop_diff.get(self.DESCRIPTION),
                "enabled": prop_diff.get(self.ENABLED),
                "tags": tags or [],
            },
        )

    def handle_delete(self) -> Any:
        if self.resource_id is not None:
            self._delete_default_security_group()
        return super().handle_delete()

    def _delete_default_security_group(self) -> None:
        neutron = self.client_plugin("neutron")
        groups = neutron.list("security_group", project_id=self.resource_id, name="default")
        # Neutron keeps one "default" group a project; any such group is an orphan to be.
        for group in groups:
            with neutron.ignore_not_found():
                neutron.delete("security_group", group["id"])


RESOURCE_CLASSES = {"OS::Keystone::Project": Project}
