"""OS::Neutron::MeteringLabel and OS::Neutron::MeteringRule: a label that Neutron's L3
metering counts traffic under, and the address ranges it counts. Neither changes in
place: any change makes a new one."""

from __future__ import annotations

from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.neutron.base import NeutronResource


class MeteredResource(NeutronResource):
    """A metering object made from its properties and waited for until gone."""

    def handle_create(self) -> None:
        body = self.prepare_properties(self.properties, self.physical_resource_name())
        made = self.neutron().create(self.entity, body)
        self.resource_id_set(made["id"])


class MeteringLabel(MeteredResource):
    entity = "metering_label"
    support_status = SupportStatus(version="2014.1")
    type_description = """\
A resource for creating neutron metering label.

The idea is to meter this at the L3 routers levels. The point is to allow
operators to configure IP ranges and to assign a label to them. For example
we will be able to set two labels; one for the internal traffic, and the
other one for the external traffic. Each label will measure the traffic for
a specific set of IP range. Then, bandwidth measurement will be sent for
each label to the Oslo notification system and could be collected by
Ceilometer.
"""

    PROPERTIES = (NAME, DESCRIPTION, SHARED) = ("name", "description", "shared")
    ATTRIBUTES = (NAME_ATTR, DESCRIPTION_ATTR, SHARED_ATTR) = ("name", "description", "shared")

    properties_schema = {
        NAME: Schema(Schema.STRING, "Name of the metering label."),
        DESCRIPTION: Schema(Schema.STRING, "Description of the metering label."),
        SHARED: Schema(
            Schema.BOOLEAN,
            "Whether the metering label should be shared across all tenants.",
            default=False,
            support_status=SupportStatus(version="2015.1"),
        ),
    }

    attributes_schema = {
        NAME_ATTR: AttributeSchema("Name of the metering label.", type=AttributeSchema.STRING),
        DESCRIPTION_ATTR: AttributeSchema(
            "Description of the metering label.", type=AttributeSchema.STRING
        ),
        SHARED_ATTR: AttributeSchema(
            "Shared status of the metering label.", type=AttributeSchema.STRING
        ),
    }


class MeteringRule(MeteredResource):
    entity = "metering_label_rule"
    support_status = SupportStatus(version="2014.1")
    type_description = """\
A resource to create rule for some label.

Resource for allowing specified label to measure the traffic for a specific
set of ip range.
"""

    PROPERTIES = (METERING_LABEL_ID, REMOTE_IP_PREFIX, DIRECTION, EXCLUDED) = (
        "metering_label_id",
        "remote_ip_prefix",
        "direction",
        "excluded",
    )
    ATTRIBUTES = (
        DIRECTION_ATTR, EXCLUDED_ATTR, METERING_LABEL_ID_ATTR, REMOTE_IP_PREFIX_ATTR,
    ) = ("direction", "excluded", "metering_label_id", "remote_ip_prefix")  # fmt: skip

    properties_schema = {
        METERING_LABEL_ID: Schema(
            Schema.STRING,
            "The metering label ID to associate with this metering rule.",
            required=True,
        ),
        REMOTE_IP_PREFIX: Schema(
            Schema.STRING,
            "Indicates remote IP prefix to be associated with this metering rule.",
            required=True,
        ),
        DIRECTION: Schema(
            Schema.STRING,
            "The direction in which metering rule is applied, either ingress or egress.",
            default="ingress",
            constraints=[constraints.AllowedValues(("ingress", "egress"))],
        ),
        EXCLUDED: Schema(
            Schema.BOOLEAN,
            "Specify whether the remote_ip_prefix will be excluded or not from traffic "
            "counters of the metering label. For example to not count the traffic of a "
            "specific IP address of a range.",
            default="False",
        ),
    }

    attributes_schema = {
        DIRECTION_ATTR: AttributeSchema(
            "The direction in which metering rule is applied.", type=AttributeSchema.STRING
        ),
        EXCLUDED_ATTR: AttributeSchema("Exclude state for cidr.", type=AttributeSchema.STRING),
        METERING_LABEL_ID_ATTR: AttributeSchema(
            "The metering label ID to associate with this metering rule.",
            type=AttributeSchema.STRING,
        ),
        REMOTE_IP_PREFIX_ATTR: AttributeSchema(
            "CIDR to be associated with this metering rule.", type=AttributeSchema.STRING
        ),
    }


RESOURCE_CLASSES: dict[str, type[NeutronResource]] = {
    "OS::Neutron::MeteringLabel": MeteringLabel,
    "OS::Neutron::MeteringRule": MeteringRule,
}
