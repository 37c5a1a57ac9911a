"""OS::Heat::ResourceChain: one resource per listed type, in a nested stack.

Each member gets the same ``resource_properties``; unless ``concurrent``, each depends
on the one before it. ``validate`` checks that every listed type resolves; validating
the nested stack itself, and the whole life cycle, arrive with the engine.
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import EntityNotFound, InvalidTemplateAttribute
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.engine.resource.stack_resource import StackResource


class ResourceChain(StackResource):
    """A nested stack with one member of each listed type, chained by dependencies."""

    support_status = SupportStatus(version="6.0.0")
    type_description = """\
Creates one or more resources with the same configuration.

The types of resources to be created are passed into the chain
through the ``resources`` property. One resource will be created for each
type listed. Each is passed the configuration specified
under ``resource_properties``.

The ``concurrent`` property controls if the resources will be created
concurrently. If omitted or set to false, each resource will be treated
as having a dependency on the resource before it in the list.
"""

    PROPERTIES = (RESOURCES, CONCURRENT, RESOURCE_PROPERTIES) = (
        "resources",
        "concurrent",
        "resource_properties",
    )
    ATTRIBUTES = (REFS, ATTR_ATTRIBUTES) = ("refs", "attributes")

    properties_schema = {
        RESOURCES: Schema(
            Schema.LIST,
            description="The list of resource types to create. This list may contain type "
            "names or aliases defined in the resource registry. Specific template names are "
            "not supported.",
            required=True,
            update_allowed=True,
        ),
        CONCURRENT: Schema(
            Schema.BOOLEAN,
            description="If true, the resources in the chain will be created concurrently. If "
            "false or omitted, each resource will be treated as having a dependency on the "
            "previous resource in the list.",
            default=False,
        ),
        RESOURCE_PROPERTIES: Schema(
            Schema.MAP,
            description="Properties to pass to each resource being created in the chain.",
        ),
    }

    attributes_schema = {
        REFS: AttributeSchema(
            description="A list of resource IDs for the resources in the chain.",
            type=AttributeSchema.LIST,
        ),
        ATTR_ATTRIBUTES: AttributeSchema(
            description="A map of resource names to the specified attribute of each "
            "individual resource.",
            type=AttributeSchema.MAP,
        ),
    }

    def validate_nested_stack(self) -> None:
        for resource_type in self.properties[self.RESOURCES]:
            try:
                self.stack.env.get_class_to_instantiate(resource_type)
            except EntityNotFound:
                # Meant for template resources; the registry reports an unknown type
                # as a validation failure, which is not caught here, as in Heat.
                pass
        super().validate_nested_stack()

    def get_attribute(self, key: str, *path: Any) -> Any:
        if key == self.ATTR_ATTRIBUTES and not path:
            raise InvalidTemplateAttribute(resource=self.name, key=key)
        # Members' attributes are synthetic; their values come from the nested
        # stack, with the engine.
        return None
