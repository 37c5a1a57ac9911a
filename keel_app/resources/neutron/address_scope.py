"""OS::Neutron::AddressScope: a Neutron address scope, which subnet pools join so that the
addresses of their subnets never overlap. Its name and sharing change in place."""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.neutron.base import NeutronResource


class AddressScope(NeutronResource):
    entity = "address_scope"
    required_service_extension = "address-scope"
    support_status = SupportStatus(version="6.0.0")
    type_description = """\
A resource for Neutron address scope.

This resource can be associated with multiple subnet pools
in a one-to-many relationship. The subnet pools under an
address scope must not overlap.
"""

    PROPERTIES = (NAME, SHARED, TENANT_ID, IP_VERSION) = (
        "name",
        "shared",
        "tenant_id",
        "ip_version",
    )

    properties_schema = {
        NAME: Schema(Schema.STRING, "The name for the address scope.", update_allowed=True),
        SHARED: Schema(
            Schema.BOOLEAN,
            "Whether the address scope should be shared to other tenants. Note that the "
            "default policy setting restricts usage of this attribute to administrative "
            "users only, and restricts changing of shared address scope to unshared with "
            "update.",
            default=False,
            update_allowed=True,
        ),
        TENANT_ID: Schema(
            Schema.STRING,
            "The owner tenant ID of the address scope. Only administrative users can "
            "specify a tenant ID other than their own.",
            constraints=[constraints.CustomConstraint("keystone.project")],
        ),
        IP_VERSION: Schema(
            Schema.INTEGER,
            "Address family of the address scope, which is 4 or 6.",
            default=4,
            constraints=[constraints.AllowedValues([4, 6])],
        ),
    }

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        scope = self.neutron().create(self.entity, body)
        self.resource_id_set(scope["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            self.neutron().update(self.entity, self.resource_id, prop_diff)

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        with self.neutron().ignore_not_found():
            self.neutron().delete(self.entity, self.resource_id)


RESOURCE_CLASSES = {"OS::Neutron::AddressScope": AddressScope}
