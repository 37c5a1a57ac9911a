"""OS::Neutron::Quota: a project's Neutron quotas, set and changed in place (Neutron's
policy lets only admins do it, and refuses a limit below what the project uses).

Deleting it gives the project Neutron's defaults back. Heat meant that too, but deletes
the quota of the resource's physical name, which is no project: there the limits stay
(docs/divergences.md).
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources import project_quota
from keel_app.resources.neutron.base import NeutronResource
from keel_app.resources.project_quota import ProjectQuota


def limit_schema(what: str, version: str | None = None) -> Schema:
    return project_quota.limit_schema(
        f"Quota for the number of {what}. Setting -1 means unlimited.",
        SupportStatus(version=version) if version else None,
    )


class NeutronQuota(ProjectQuota, NeutronResource):
    required_service_extension = "quotas"
    support_status = SupportStatus(version="8.0.0")
    type_description = """\
A resource for managing neutron quotas.

Neutron Quota is used to manage operational limits for projects. Currently,
this resource can manage Neutron's quotas for:

    - subnet
    - network
    - floatingip
    - security_group_rule
    - security_group
    - router
    - port
    - subnetpool
    - rbac_policy

Note that default neutron security policy usage of this resource
is limited to being used by administrators only. Administrators should be
careful to create only one Neutron Quota resource per project, otherwise
it will be hard for them to manage the quota properly.
"""

    PROPERTIES = (
        PROJECT, SUBNET, NETWORK, FLOATINGIP, SECURITY_GROUP_RULE,
        SECURITY_GROUP, ROUTER, PORT, SUBNETPOOL, RBAC_POLICY,
    ) = (
        "project", "subnet", "network", "floatingip", "security_group_rule",
        "security_group", "router", "port", "subnetpool", "rbac_policy",
    )  # fmt: skip

    properties_schema = {
        PROJECT: Schema(
            Schema.STRING,
            "Name or id of the project to set the quota for.",
            required=True,
            constraints=[constraints.CustomConstraint("keystone.project")],
        ),
        SUBNET: limit_schema("subnets"),
        NETWORK: limit_schema("networks"),
        FLOATINGIP: limit_schema("floating IPs"),
        SECURITY_GROUP_RULE: limit_schema("security group rules"),
        SECURITY_GROUP: limit_schema("security groups"),
        ROUTER: limit_schema("routers"),
        PORT: limit_schema("ports"),
        SUBNETPOOL: limit_schema("subnet pools", "12.0.0"),
        RBAC_POLICY: limit_schema("rbac policies", "12.0.0"),
    }

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        # The project's quota, not the physical name's (Heat's defect, not reproduced).
        with self.neutron().ignore_not_found():
            self.neutron().request("DELETE", f"quotas/{self.properties[self.PROJECT]}")

    def _set_quota(self, properties: Any) -> None:
        limits = {
            key: value
            for key, value in properties.items()
            if key != self.PROJECT and value is not None
        }
        self.neutron().request("PUT", f"quotas/{properties[self.PROJECT]}", {"quota": limits})

    # A quota is no Neutron object of its own to show.

    def _resolve_attribute(self, name: str) -> Any:
        return None

    def needs_replace_failed(self) -> bool:
        return not self.resource_id


RESOURCE_CLASSES = {"OS::Neutron::Quota": NeutronQuota}
