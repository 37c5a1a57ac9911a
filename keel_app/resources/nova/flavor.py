"""OS::Nova::Flavor: a virtual hardware template (Nova lets only admins make them).

Its extra specs and the projects given access to a private flavor change in place;
everything else replaces it. A private flavor without projects is opened to the stack's
own project.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.nova.base import NovaResource


class NovaFlavor(NovaResource):
    api_path = "flavors"
    api_key = "flavor"
    entity = "flavors"
    support_status = SupportStatus(version="2014.2")
    type_description = """\
A resource for creating OpenStack virtual hardware templates.

Due to default nova security policy usage of this resource is limited to
being used by administrators only. The rights may also be delegated to
other users by redefining the access controls on the nova-api server.

Note that the current implementation of the Nova Flavor resource does not
allow specifying the name and flavorid properties for the resource.
This is done to avoid potential naming collision upon flavor creation as
all flavor have a global scope.
"""

    PROPERTIES = (
        TENANTS,
        ID,
        NAME,
        RAM,
        VCPUS,
        DISK,
        SWAP,
        EPHEMERAL,
        RXTX_FACTOR,
        EXTRA_SPECS,
        IS_PUBLIC,
    ) = (
        "tenants",
        "flavorid",
        "name",
        "ram",
        "vcpus",
        "disk",
        "swap",
        "ephemeral",
        "rxtx_factor",
        "extra_specs",
        "is_public",
    )
    ATTRIBUTES = (IS_PUBLIC_ATTR, EXTRA_SPECS_ATTR) = ("is_public", "extra_specs")

    properties_schema = {
        TENANTS: Schema(
            Schema.LIST,
            "List of tenants.",
            update_allowed=True,
            default=[],
            schema=Schema(
                Schema.STRING, constraints=[constraints.CustomConstraint("keystone.project")]
            ),
            support_status=SupportStatus(version="8.0.0"),
        ),
        ID: Schema(
            Schema.STRING,
            "Unique ID of the flavor. If not specified, an UUID will be auto generated and used.",
            support_status=SupportStatus(version="7.0.0"),
        ),
        NAME: Schema(
            Schema.STRING, "Name of the flavor.", support_status=SupportStatus(version="7.0.0")
        ),
        RAM: Schema(Schema.INTEGER, "Memory in MB for the flavor.", required=True),
        VCPUS: Schema(Schema.INTEGER, "Number of VCPUs for the flavor.", required=True),
        DISK: Schema(
            Schema.INTEGER,
            'Size of local disk in GB. The "0" size is a special case that uses the native '
            "base image size as the size of the ephemeral root volume.",
            default=0,
        ),
        SWAP: Schema(Schema.INTEGER, "Swap space in MB.", default=0),
        EPHEMERAL: Schema(
            Schema.INTEGER, "Size of a secondary ephemeral data disk in GB.", default=0
        ),
        RXTX_FACTOR: Schema(Schema.NUMBER, "RX/TX factor.", default=1.0),
        EXTRA_SPECS: Schema(
            Schema.MAP,
            "Key/Value pairs to extend the capabilities of the flavor.",
            update_allowed=True,
        ),
        IS_PUBLIC: Schema(
            Schema.BOOLEAN,
            "Scope of flavor accessibility. Public or private. Default value is True, means "
            "public, shared across all projects.",
            default=True,
            support_status=SupportStatus(version="6.0.0"),
        ),
    }

    attributes_schema = {
        IS_PUBLIC_ATTR: AttributeSchema(
            "Whether the flavor is shared across all projects.",
            support_status=SupportStatus(version="6.0.0"),
            type=AttributeSchema.BOOLEAN,
        ),
        EXTRA_SPECS_ATTR: AttributeSchema(
            "Extra specs of the flavor in key-value pairs.",
            support_status=SupportStatus(version="7.0.0"),
            type=AttributeSchema.MAP,
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        clients = getattr(self.context, "clients", None)
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.TENANTS],
                client_plugin=None if clients is None else clients.client_plugin("keystone"),
                finder="get_project_id",
            )
        ]

    def handle_create(self) -> None:
        body = {
            "name": self.properties[self.NAME] or self.physical_resource_name(),
            "ram": self.properties[self.RAM],
            "vcpus": self.properties[self.VCPUS],
            "disk": self.properties[self.DISK],
            "id": self.properties[self.ID] or None,
            "swap": self.properties[self.SWAP],
            "OS-FLV-EXT-DATA:ephemeral": self.properties[self.EPHEMERAL],
            "rxtx_factor": float(self.properties[self.RXTX_FACTOR]),
            "os-flavor-access:is_public": self.properties[self.IS_PUBLIC],
        }
        flavor = self.nova().request("POST", self.api_path, {"flavor": body})["flavor"]
        self.resource_id_set(flavor["id"])
        if self.properties[self.EXTRA_SPECS]:
            self._set_extra_specs(self.properties[self.EXTRA_SPECS])
        if not self.properties[self.IS_PUBLIC]:
            # A private flavor nobody may use is of no use: its own project may.
            for project in self.properties[self.TENANTS] or [self.context.project_id]:
                self._flavor_access("addTenantAccess", project)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if self.EXTRA_SPECS in prop_diff:
            for key in self._extra_specs():
                self.nova().request(
                    "DELETE", f"{self.api_path}/{self.resource_id}/os-extra_specs/{key}"
                )
            if prop_diff[self.EXTRA_SPECS] is not None:
                self._set_extra_specs(prop_diff[self.EXTRA_SPECS])
        if self.TENANTS in prop_diff and not self.properties[self.IS_PUBLIC]:
            listed = self.nova().request(
                "GET", f"{self.api_path}/{self.resource_id}/os-flavor-access"
            )["flavor_access"]
            before = {access["tenant_id"] for access in listed}
            after = set(prop_diff[self.TENANTS] or [])
            for project in before - after:
                self._flavor_access("removeTenantAccess", project)
            for project in after - before:
                self._flavor_access("addTenantAccess", project)

    def _set_extra_specs(self, specs: dict[str, Any]) -> None:
        self.nova().request(
            "POST",
            f"{self.api_path}/{self.resource_id}/os-extra_specs",
            {"extra_specs": {key: str(value) for key, value in specs.items()}},
        )

    def _extra_specs(self) -> dict[str, Any]:
        answer = self.nova().request("GET", f"{self.api_path}/{self.resource_id}/os-extra_specs")
        return dict(answer["extra_specs"])

    def _flavor_access(self, action: str, project: str) -> None:
        self.nova().request(
            "POST", f"{self.api_path}/{self.resource_id}/action", {action: {"tenant": project}}
        )

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == self.IS_PUBLIC_ATTR:
            return self._show_resource()["os-flavor-access:is_public"]
        if name == self.EXTRA_SPECS_ATTR:
            return self._extra_specs()
        return None


RESOURCE_CLASSES = {"OS::Nova::Flavor": NovaFlavor}
