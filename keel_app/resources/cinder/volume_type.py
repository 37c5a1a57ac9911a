"""OS::Cinder::VolumeType: a volume type with its extra specs and, when private, the
projects that may use it. Everything changes in place."""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.cinder.base import CinderResource


class CinderVolumeType(CinderResource):
    support_status = SupportStatus(version="2015.1")
    required_service_extension = "os-types-manage"
    entity = "volume_types"
    type_description = """\
A resource for creating cinder volume types.

Volume type resource allows to define, whether volume, which will be use
this type, will public and which projects are allowed to work with it.
Also, there can be some user-defined metadata.

Note that default cinder security policy usage of this resource
is limited to being used by administrators only.
"""

    PROPERTIES = (NAME, METADATA, IS_PUBLIC, DESCRIPTION, PROJECTS) = (
        "name",
        "metadata",
        "is_public",
        "description",
        "projects",
    )

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of the volume type.", required=True, update_allowed=True),
        METADATA: Schema(
            Schema.MAP,
            "The extra specs key and value pairs of the volume type.",
            update_allowed=True,
        ),
        IS_PUBLIC: Schema(
            Schema.BOOLEAN,
            "Whether the volume type is accessible to the public.",
            default=True,
            support_status=SupportStatus(version="5.0.0"),
            update_allowed=True,
        ),
        DESCRIPTION: Schema(
            Schema.STRING,
            "Description of the volume type.",
            update_allowed=True,
            support_status=SupportStatus(version="5.0.0"),
        ),
        PROJECTS: Schema(
            Schema.LIST,
            "Projects to add volume type access to. NOTE: This property is only "
            "supported since Cinder API V2.",
            support_status=SupportStatus(version="5.0.0"),
            update_allowed=True,
            schema=Schema(
                Schema.STRING, constraints=[constraints.CustomConstraint("keystone.project")]
            ),
            default=[],
        ),
    }

    def validate(self) -> Any:
        result = super().validate()
        if self.properties[self.PROJECTS] and self.properties[self.IS_PUBLIC]:
            raise exception.StackValidationFailed(
                message='Can not specify property "projects" if the volume type is public.'
            )
        return result

    def _path(self, *rest: str) -> str:
        return "/".join(("types", self.resource_id, *rest))

    def _add_project_access(self, projects: Any) -> None:
        for project in projects:
            project_id = self.client_plugin("keystone").get_project_id(project)
            self.cinder().request(
                "POST", self._path("action"), {"addProjectAccess": {"project": project_id}}
            )

    def _set_extra_specs(self, specs: dict[str, Any]) -> None:
        self.cinder().request("POST", self._path("extra_specs"), {"extra_specs": specs})

    def handle_create(self) -> None:
        body = {
            "name": self.properties[self.NAME],
            "description": self.properties[self.DESCRIPTION],
            "os-volume-type-access:is_public": self.properties[self.IS_PUBLIC],
        }
        made = self.cinder().request("POST", "types", {"volume_type": body})["volume_type"]
        self.resource_id_set(made["id"])
        if self.properties[self.METADATA]:
            self._set_extra_specs(self.properties[self.METADATA])
        self._add_project_access(self.properties[self.PROJECTS])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        cinder = self.cinder()
        changes: dict[str, Any] = {}
        is_public = self.properties[self.IS_PUBLIC]
        if self.DESCRIPTION in prop_diff:
            changes["description"] = prop_diff[self.DESCRIPTION]
        if self.NAME in prop_diff:
            changes["name"] = prop_diff[self.NAME]
        if self.IS_PUBLIC in prop_diff:
            is_public = prop_diff[self.IS_PUBLIC]
            changes["is_public"] = is_public
        if changes:
            cinder.request("PUT", self._path(), {"volume_type": changes})
        if self.METADATA in prop_diff:
            old = cinder.request("GET", self._path("extra_specs"))["extra_specs"]
            for key in old:
                cinder.request("DELETE", self._path("extra_specs", key))
            if prop_diff[self.METADATA] is not None:
                self._set_extra_specs(prop_diff[self.METADATA])
        if self.PROJECTS in prop_diff and not is_public:
            access = cinder.request("GET", self._path("os-volume-type-access"))
            old_projects = {found["project_id"] for found in access["volume_type_access"]}
            new_projects = set(prop_diff[self.PROJECTS])
            for project_id in old_projects - new_projects:
                cinder.request(
                    "POST", self._path("action"), {"removeProjectAccess": {"project": project_id}}
                )
            self._add_project_access(new_projects - old_projects)

    def _show_resource(self) -> Any:
        return self.cinder().request("GET", self._path())["volume_type"]

    def handle_delete(self) -> None:
        if self.resource_id is not None:
            with self.cinder().ignore_not_found():
                self.cinder().request("DELETE", self._path())


RESOURCE_CLASSES = {"OS::Cinder::VolumeType": CinderVolumeType}
