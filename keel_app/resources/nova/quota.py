"""OS::Nova::Quota: a project's Nova quotas, set and changed in place; deleting it gives
the project Nova's defaults back. Nova's policy lets only admins do either.

Every limit set is sent as it is, at the compute API's base microversion as Heat's
novaclient sends it (where the network limits are still taken); Nova itself refuses a
limit below what the project already uses.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources import project_quota
from keel_app.resources.nova.base import BASE_MICROVERSION, NovaResource
from keel_app.resources.project_quota import ProjectQuota

FILE_INJECTION_DEPRECATED = SupportStatus(
    status="DEPRECATED",
    version="14.0.0",
    message=(
        "File injection is deprecated from compute REST API OS::Nova::Quota resource "
        "will not support it in the future."
    ),
)


def limit_schema(what: str, support_status: SupportStatus | None = None) -> Schema:
    return project_quota.limit_schema(
        f"Quota for the {what}. Setting the value to -1 removes the limit.", support_status
    )


class NovaQuota(ProjectQuota, NovaResource):
    api_path = "os-quota-sets"
    entity = "quotas"
    support_status = SupportStatus(version="8.0.0")
    type_description = """\
A resource for creating nova quotas.

Nova Quota is used to manage operational limits for projects. Currently,
this resource can manage Nova's quotas for:

    - cores
    - fixed_ips
    - floating_ips
    - instances
    - injected_files
    - injected_file_content_bytes
    - injected_file_path_bytes
    - key_pairs
    - metadata_items
    - ram
    - security_groups
    - security_group_rules
    - server_groups
    - server_group_members

Note that default nova security policy usage of this resource
is limited to being used by administrators only. Administrators should be
careful to create only one Nova Quota resource per project, otherwise
it will be hard for them to manage the quota properly.
"""

    PROPERTIES = (
        PROJECT, CORES, FIXED_IPS, FLOATING_IPS, INSTANCES,
        INJECTED_FILES, INJECTED_FILE_CONTENT_BYTES, INJECTED_FILE_PATH_BYTES,
        KEYPAIRS, METADATA_ITEMS, RAM, SECURITY_GROUPS, SECURITY_GROUP_RULES,
        SERVER_GROUPS, SERVER_GROUP_MEMBERS,
    ) = (
        "project", "cores", "fixed_ips", "floating_ips", "instances",
        "injected_files", "injected_file_content_bytes", "injected_file_path_bytes",
        "key_pairs", "metadata_items", "ram", "security_groups", "security_group_rules",
        "server_groups", "server_group_members",
    )  # fmt: skip

    properties_schema = {
        PROJECT: Schema(
            Schema.STRING,
            "Name or id of the project to set the quota for.",
            required=True,
            constraints=[constraints.CustomConstraint("keystone.project")],
        ),
        CORES: limit_schema("number of cores"),
        FIXED_IPS: limit_schema("number of fixed IPs"),
        FLOATING_IPS: limit_schema("number of floating IPs"),
        INSTANCES: limit_schema("number of instances"),
        INJECTED_FILES: limit_schema("number of injected files", FILE_INJECTION_DEPRECATED),
        INJECTED_FILE_CONTENT_BYTES: limit_schema(
            "number of injected file content bytes", FILE_INJECTION_DEPRECATED
        ),
        INJECTED_FILE_PATH_BYTES: limit_schema(
            "number of injected file path bytes", FILE_INJECTION_DEPRECATED
        ),
        KEYPAIRS: limit_schema("number of key pairs"),
        METADATA_ITEMS: limit_schema("number of metadata items"),
        RAM: limit_schema("amount of ram (in megabytes)"),
        SECURITY_GROUPS: limit_schema("number of security groups"),
        SECURITY_GROUP_RULES: limit_schema("number of security group rules"),
        SERVER_GROUPS: limit_schema("number of server groups"),
        SERVER_GROUP_MEMBERS: limit_schema("number of server group members"),
    }

    def handle_delete(self) -> None:
        self.nova().request(
            "DELETE",
            f"{self.api_path}/{self.properties[self.PROJECT]}",
            microversion=BASE_MICROVERSION,
        )

    def _set_quota(self, properties: Any) -> None:
        limits = {
            key: value
            for key, value in properties.items()
            if key != self.PROJECT and value is not None
        }
        self.nova().request(
            "PUT",
            f"{self.api_path}/{properties[self.PROJECT]}",
            {"quota_set": limits},
            microversion=BASE_MICROVERSION,
        )


RESOURCE_CLASSES = {"OS::Nova::Quota": NovaQuota}
