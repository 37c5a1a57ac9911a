"""OS::Nova::ServerGroup: a group whose policy places its servers on the same hosts or on
different ones. Made with one policy (and its rules) at Nova's microversion 2.64 or
later, else with the policies list of older Nova; nothing changes in place."""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.nova.base import NovaResource

# The microversions that brought the soft policies and then policy rules.
SOFT_POLICIES_MICROVERSION, RULES_MICROVERSION = "2.15", "2.64"


class ServerGroup(NovaResource):
    api_path = "os-server-groups"
    api_key = "server_group"
    entity = "server_groups"
    support_status = SupportStatus(version="2014.2")
    type_description = """\
A resource for managing a Nova server group.

Server groups allow you to make sure instances (VM/VPS) are on the same
hypervisor host or on a different one.
"""

    PROPERTIES = (NAME, POLICIES, RULES) = ("name", "policies", "rules")
    MAX_SERVER_PER_HOST = "max_server_per_host"

    properties_schema = {
        NAME: Schema(Schema.STRING, "Server Group name."),
        POLICIES: Schema(
            Schema.LIST,
            "A list of exactly one policy to apply. Defaults to anti-affinity.",
            default=["anti-affinity"],
            constraints=[
                constraints.AllowedValues(
                    ["anti-affinity", "affinity", "soft-anti-affinity", "soft-affinity"]
                )
            ],
            schema=Schema(Schema.STRING),
        ),
        RULES: Schema(
            Schema.MAP,
            "Rules for a policy.",
            schema={
                MAX_SERVER_PER_HOST: Schema(
                    Schema.NUMBER,
                    "Maximum servers in a group on a given host. Rule for anti-affinity policy.",
                )
            },
            support_status=SupportStatus(version="17.0.0"),
        ),
    }

    def validate(self) -> Any:
        result = super().validate()
        if result:
            return result
        nova = self.nova()
        policies = self.properties[self.POLICIES]
        soft = {"soft-affinity", "soft-anti-affinity"} & set(policies)
        if soft and not nova.is_version_supported(SOFT_POLICIES_MICROVERSION):
            raise exception.StackValidationFailed(
                message="Required microversion for soft policies not supported."
            )
        if self.properties[self.RULES] and not nova.is_version_supported(RULES_MICROVERSION):
            raise exception.StackValidationFailed(
                message="Required microversion for rules not supported."
            )
        return None

    def physical_resource_name(self) -> str | None:
        return self.properties[self.NAME] or super().physical_resource_name()

    def handle_create(self) -> None:
        policies = self.properties[self.POLICIES]
        body: dict[str, Any] = {"name": self.physical_resource_name()}
        if self.nova().is_version_supported(RULES_MICROVERSION):
            body["policy"] = policies[0]
            if self.properties[self.RULES]:
                body["rules"] = self._rules(self.properties[self.RULES])
        else:
            body["policies"] = policies
        group = self.nova().request("POST", self.api_path, {"server_group": body})
        self.resource_id_set(group["server_group"]["id"])

    @staticmethod
    def _rules(rules: dict[str, Any]) -> dict[str, Any]:
        # Nova's schema wants an integer where the property is a number.
        return {
            key: int(value) if isinstance(value, float) and value.is_integer() else value
            for key, value in rules.items()
            if value is not None
        }

    def needs_replace_failed(self) -> bool:
        if not self.resource_id:
            return True
        with self.nova().ignore_not_found():
            self._show_resource()
            return False
        return True


RESOURCE_CLASSES = {"OS::Nova::ServerGroup": ServerGroup}
