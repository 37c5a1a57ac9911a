"""OS::Heat::ResourceChain: one resource per listed type, in a nested stack.

Each member (named ``0``, ``1``, ...) gets the same ``resource_properties``; unless
``concurrent``, each depends on the one before it. A concurrent chain is as concurrent
as there are engines up: member ``n`` waits for member ``n - engines``, as in Heat. The
chain's attributes are outputs of the nested stack, made for every attribute the
parent template reads.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from keel_app.common import exception
from keel_app.common.exception import EntityNotFound, InvalidTemplateAttribute
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.engine.resource.stack_resource import StackResource
from keel_app.engine.template import Template
from keel_app.engine.template.functions.references import select_from_attribute
from keel_app.engine.template.output import OutputDefinition
from keel_app.engine.template.resource_definition import ResourceDefinition
from keel_app.models.maintenance.services import list_services
from keel_app.resources import group_members
from keel_app.resources.heat import scaling


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

    def handle_create(self) -> None:
        self.create_with_template(self.child_template())

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        self.properties = json_snippet.properties(self.properties_schema, self.context)
        return self.update_with_template(self.child_template())

    def _concurrency_limit(self) -> int:
        """How many members may be created at once: the engines up, at least one."""
        database = getattr(self.stack, "database", None)
        if database is None:
            return 1
        return sum(1 for service in list_services(database) if service.status == "up") or 1

    def child_template(self) -> Template:
        names = self._resource_names(self.properties[self.RESOURCES])
        limit = self._concurrency_limit()
        definitions = []
        for index, resource_type in enumerate(self.properties[self.RESOURCES]):
            name = names[index]
            depends_on = None
            if index > 0 and not self.properties[self.CONCURRENT]:
                depends_on = [names[index - 1]]
            elif index >= limit:
                depends_on = [names[index - limit]]
            definition = self._build_resource_definition(name, resource_type, depends_on)
            definitions.append((name, definition))
        template = scaling.make_template(definitions)
        get_attr = functools.partial(template.functions["get_attr"], None, "get_attr")
        get_resource = functools.partial(template.functions["get_resource"], None, "get_resource")
        member_names = [name for name, _definition in definitions]
        for output in self._nested_output_definitions(member_names, get_attr, get_resource):
            template.add_output(output)
        return template

    def child_params(self) -> dict[str, Any]:
        return {}

    @staticmethod
    def _resource_names(resource_types: list[Any]) -> list[str]:
        return [str(index) for index, _type in enumerate(resource_types)]

    def _build_resource_definition(
        self, name: str, resource_type: str, depends_on: list[str] | None = None
    ) -> ResourceDefinition:
        return ResourceDefinition(
            name, resource_type, self.properties[self.RESOURCE_PROPERTIES], depends=depends_on
        )

    @staticmethod
    def _attribute_output_name(*attribute_path: Any) -> str:
        return ", ".join(str(item) for item in attribute_path)

    def _nested_output_definitions(
        self, member_names: list[str], get_attr: Any, get_resource: Any
    ) -> Iterator[OutputDefinition]:
        """Outputs of the nested stack for every attribute of the chain that is read."""
        for attribute in self.referenced_attrs():
            if isinstance(attribute, str):
                key, path = attribute, []
            else:
                key, path = attribute[0], list(attribute[1:])
            output_name = self._attribute_output_name(key, *path)
            value: Any = None
            if key.startswith("resource."):
                parts = key.split(".", 2)
                member, member_path = parts[1], parts[2:] + path
                if member in member_names:
                    if member_path:
                        value = get_attr([member, *member_path])
                    else:
                        value = get_resource(member)
            elif key == self.REFS:
                value = [get_resource(member) for member in member_names]
            elif key == self.ATTR_ATTRIBUTES and path:
                value = {member: get_attr([member, *path]) for member in member_names}
            elif key not in self.ATTRIBUTES:
                value = [get_attr([member, key, *path]) for member in member_names]
            if value is not None:
                yield OutputDefinition(output_name, value)

    def get_attribute(self, key: str, *path: Any) -> Any:
        if key == self.ATTR_ATTRIBUTES and not path:
            raise InvalidTemplateAttribute(resource=self.name, key=key)
        names = self._resource_names(self.properties[self.RESOURCES])
        try:
            output = self.get_output(self._attribute_output_name(key, *path))
        except (exception.NotFound, exception.TemplateOutputError):
            if key.startswith("resource."):
                member = key.split(".", 2)[1]
                if member not in names:
                    raise exception.NotFound(
                        f"Member '{member}' not found in group resource '{self.name}'."
                    ) from None
        else:
            if key == self.REFS:
                return select_from_attribute(output, list(path))
            return output
        if key.startswith("resource."):
            return group_members.nested_attribute(self, key, False, *path)
        if key == self.REFS:
            references = [group_members.member_reference(self, False, name) for name in names]
            return select_from_attribute(references, list(path))
        if key == self.ATTR_ATTRIBUTES:
            return {
                name: group_members.member_attribute(self, False, name, *path) for name in names
            }
        return [group_members.member_attribute(self, False, name, key, *path) for name in names]
