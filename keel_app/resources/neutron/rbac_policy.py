"""OS::Neutron::RBACPolicy: shares one Neutron object (a network, QoS policy, security
group, address scope or subnet pool) with a project, or makes a network external to it.

The object is resolved to an id by name or id among the objects of its type; only the
target project changes in place.
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema, TranslationRule
from keel_app.resources.neutron.base import NeutronResource

OBJECT_TYPES = (NETWORK, QOS_POLICY, SECURITY_GROUP, ADDRESS_SCOPE, SUBNETPOOL) = (
    "network",
    "qos_policy",
    "security_group",
    "address_scope",
    "subnetpool",
)
ACTIONS = (ACCESS_AS_SHARED, ACCESS_AS_EXTERNAL) = ("access_as_shared", "access_as_external")
# What Neutron allows for each type of object.
ALLOWED_ACTIONS = {
    NETWORK: [ACCESS_AS_SHARED, ACCESS_AS_EXTERNAL],
    QOS_POLICY: [ACCESS_AS_SHARED],
    SECURITY_GROUP: [ACCESS_AS_SHARED],
    ADDRESS_SCOPE: [ACCESS_AS_SHARED],
    SUBNETPOOL: [ACCESS_AS_SHARED],
}
# The client plugin's name of each type of object, where it is not the type itself.
FINDER_ENTITIES = {QOS_POLICY: "policy"}


class RBACPolicy(NeutronResource):
    entity = "rbac_policy"
    required_service_extension = "rbac-policies"
    support_status = SupportStatus(version="6.0.0")
    type_description = """\
A Resource for managing RBAC policy in Neutron.

This resource creates and manages Neutron RBAC policy,
which allows to share Neutron networks, qos-policies,
security-groups, address-scopes, subnetpools
to subsets of tenants.
"""

    PROPERTIES = (OBJECT_TYPE, TARGET_TENANT, ACTION, OBJECT_ID, TENANT_ID) = (
        "object_type",
        "target_tenant",
        "action",
        "object_id",
        "tenant_id",
    )

    properties_schema = {
        OBJECT_TYPE: Schema(
            Schema.STRING,
            "Type of the object that RBAC policy affects.",
            required=True,
            constraints=[constraints.AllowedValues(OBJECT_TYPES)],
        ),
        TARGET_TENANT: Schema(
            Schema.STRING,
            "ID of the tenant to which the RBAC policy will be enforced.",
            required=True,
            update_allowed=True,
        ),
        ACTION: Schema(
            Schema.STRING,
            "Action for the RBAC policy. The allowed actions differ for different object "
            f"types - only {NETWORK} objects can have an {ACCESS_AS_EXTERNAL} action.",
            required=True,
            constraints=[constraints.AllowedValues(ACTIONS)],
        ),
        OBJECT_ID: Schema(Schema.STRING, "ID or name of the RBAC object.", required=True),
        TENANT_ID: Schema(
            Schema.STRING,
            "The owner tenant ID. Only required if the caller has an administrative role "
            "and wants to create a RBAC for another tenant.",
        ),
    }

    def translation_rules(self, properties: Any) -> list[TranslationRule]:
        object_type = properties[self.OBJECT_TYPE]
        return [
            TranslationRule(
                properties,
                TranslationRule.RESOLVE,
                [self.OBJECT_ID],
                client_plugin=self.resolving_plugin(),
                finder="find_resourceid_by_name_or_id",
                entity=FINDER_ENTITIES.get(object_type, object_type),
            )
        ]

    def validate(self) -> Any:
        super().validate()
        action = self.properties[self.ACTION]
        object_type = self.properties[self.OBJECT_TYPE]
        allowed = ALLOWED_ACTIONS[object_type]
        if action not in allowed:
            path = [
                self.stack.t.RESOURCES,
                self.t.name,
                self.stack.t.get_section_name(self.properties.error_prefix[0]),
                self.ACTION,
            ]
            raise exception.StackValidationFailed(
                error="Property error",
                path=path,
                message=f'Invalid action "{action}" for object type {object_type}. Valid '
                f"actions: {', '.join(allowed)}",
            )
        return None

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        policy = self.neutron().create(self.entity, body)
        self.resource_id_set(policy["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff:
            self.neutron().update(self.entity, self.resource_id, prop_diff)

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        with self.neutron().ignore_not_found():
            self.neutron().delete(self.entity, self.resource_id)


RESOURCE_CLASSES = {"OS::Neutron::RBACPolicy": RBACPolicy}
