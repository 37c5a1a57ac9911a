"""OS::Neutron::QoSPolicy: a Neutron QoS policy, which networks and ports name to have its
rules applied. Its name, description and sharing change in place; its rules are resources
of their own (``qos_rules``) and its ``rules`` attribute lists them as Neutron holds them.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.neutron.base import NeutronResource


class QoSPolicy(NeutronResource):
    # Neutron's body and answer call it "policy", under qos/policies.
    entity = "policy"
    required_service_extension = "qos"
    support_status = SupportStatus(version="6.0.0")
    type_description = """\
A resource for Neutron QoS Policy.

This QoS policy can be associated with neutron resources,
such as port and network, to provide QoS capabilities.

The default policy usage of this resource is limited to
administrators only.
"""

    PROPERTIES = (NAME, DESCRIPTION, SHARED, TENANT_ID) = (
        "name",
        "description",
        "shared",
        "tenant_id",
    )

    ATTRIBUTES = (RULES_ATTR,) = ("rules",)

    properties_schema = {
        NAME: Schema(Schema.STRING, "The name for the QoS policy.", update_allowed=True),
        DESCRIPTION: Schema(
            Schema.STRING, "The description for the QoS policy.", update_allowed=True
        ),
        SHARED: Schema(
            Schema.BOOLEAN,
            "Whether this QoS policy should be shared to other tenants.",
            default=False,
            update_allowed=True,
        ),
        TENANT_ID: Schema(Schema.STRING, "The owner tenant ID of this QoS policy."),
    }

    attributes_schema = {
        RULES_ATTR: AttributeSchema(
            "A list of all rules for the QoS policy.", type=AttributeSchema.LIST
        ),
    }

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        policy = self.neutron().create(self.entity, body)
        self.resource_id_set(policy["id"])

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        if prop_diff:
            self.prepare_update_properties(prop_diff)
            self.neutron().update(self.entity, self.resource_id, prop_diff)

    def handle_delete(self) -> None:
        # Neutron deletes a policy at once (or refuses while something uses it).
        if self.resource_id is None:
            return
        with self.neutron().ignore_not_found():
            self.neutron().delete(self.entity, self.resource_id)


RESOURCE_CLASSES = {"OS::Neutron::QoSPolicy": QoSPolicy}
