"""OS::Heat::ResourceGroup: ``count`` identically configured resources in a nested stack.

Members are named ``0``, ``1``, ...; ``index_var`` in the member definition is replaced
by each member's index; ``removal_policies`` name members to remove on update; the
``rolling_update`` and ``batch_create`` update policies batch replacements and
creations. ``validate`` checks (when the group is not empty) that the member type
resolves and validates a nested stack of one member; validation shows the parameters
of such a one-member stack. The life cycle (creating, resizing, rolling updates)
arrives with the engine.
"""

from __future__ import annotations

import collections.abc
import copy
import functools
import itertools
from collections.abc import Iterator
from typing import Any

from keel_app.common.exception import StackValidationFailed, UserParameterMissing
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.engine.resource.stack_resource import StackResource
from keel_app.engine.template import Template, function
from keel_app.engine.template.output import OutputDefinition
from keel_app.engine.template.resource_definition import ResourceDefinition


class ResourceGroup(StackResource):
    """A nested stack of ``count`` members built from one resource definition."""

    support_status = SupportStatus(version="2014.1")
    type_description = """\
Creates one or more identically configured nested resources.

In addition to the `refs` attribute, this resource implements synthetic
attributes that mirror those of the resources in the group. When
getting an attribute from this resource, however, a list of attribute
values for each resource in the group is returned. To get attribute values
for a single resource in the group, synthetic attributes of the form
`resource.{resource index}.{attribute name}` can be used. The resource ID
of a particular resource in the group can be obtained via the synthetic
attribute `resource.{resource index}`. Note, that if you get attribute
without `{resource index}`, e.g. `[resource, {attribute_name}]`, you'll get
a list of this attribute's value for all resources in group.

While each resource in the group will be identically configured, this
resource does allow for some index-based customization of the properties
of the resources in the group. For example::

  resources:
    my_indexed_group:
      type: OS::Heat::ResourceGroup
      properties:
        count: 3
        resource_def:
          type: OS::Nova::Server
          properties:
            # create a unique name for each server
            # using its index in the group
            name: my_server_%index%
            image: CentOS 6.5
            flavor: 4GB Performance

would result in a group of three servers having the same image and flavor,
but names of `my_server_0`, `my_server_1`, and `my_server_2`. The variable
used for substitution can be customized by using the `index_var` property.
"""

    PROPERTIES = (COUNT, INDEX_VAR, RESOURCE_DEF, REMOVAL_POLICIES, REMOVAL_POLICIES_MODE) = (
        "count",
        "index_var",
        "resource_def",
        "removal_policies",
        "removal_policies_mode",
    )
    RESOURCE_DEF_KEYS = (RESOURCE_DEF_TYPE, RESOURCE_DEF_PROPERTIES, RESOURCE_DEF_METADATA) = (
        "type",
        "properties",
        "metadata",
    )
    REMOVAL_POLICIES_KEYS = (REMOVAL_RSRC_LIST,) = ("resource_list",)
    REMOVAL_POLICY_MODES = (REMOVAL_POLICY_APPEND, REMOVAL_POLICY_UPDATE) = ("append", "update")
    ROLLING_UPDATE_KEYS = (MIN_IN_SERVICE, MAX_BATCH_SIZE, PAUSE_TIME) = (
        "min_in_service",
        "max_batch_size",
        "pause_time",
    )
    UPDATE_POLICY_KEYS = (ROLLING_UPDATE, BATCH_CREATE) = ("rolling_update", "batch_create")
    ATTRIBUTES = (REFS, REFS_MAP, ATTR_ATTRIBUTES, REMOVED_RSRC_LIST) = (
        "refs",
        "refs_map",
        "attributes",
        "removed_rsrc_list",
    )

    properties_schema = {
        COUNT: Schema(
            Schema.INTEGER,
            "The number of resources to create.",
            default=1,
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
        ),
        INDEX_VAR: Schema(
            Schema.STRING,
            "A variable that this resource will use to replace with the current index of a "
            "given resource in the group. Can be used, for example, to customize the name "
            "property of grouped servers in order to differentiate them when listed with nova "
            "client.",
            default="%index%",
            constraints=[constraints.Length(min=3)],
            support_status=SupportStatus(version="2014.2"),
        ),
        RESOURCE_DEF: Schema(
            Schema.MAP,
            "Resource definition for the resources in the group. The value of this property "
            "is the definition of a resource just as if it had been declared in the template "
            "itself.",
            schema={
                RESOURCE_DEF_TYPE: Schema(
                    Schema.STRING, "The type of the resources in the group.", required=True
                ),
                RESOURCE_DEF_PROPERTIES: Schema(
                    Schema.MAP, "Property values for the resources in the group."
                ),
                RESOURCE_DEF_METADATA: Schema(
                    Schema.MAP,
                    "Supplied metadata for the resources in the group.",
                    support_status=SupportStatus(version="5.0.0"),
                ),
            },
            required=True,
            update_allowed=True,
        ),
        REMOVAL_POLICIES: Schema(
            Schema.LIST,
            "Policies for removal of resources on update.",
            schema=Schema(
                Schema.MAP,
                "Policy to be processed when doing an update which requires removal of "
                "specific resources.",
                schema={
                    REMOVAL_RSRC_LIST: Schema(
                        Schema.LIST,
                        "List of resources to be removed when doing an update which requires "
                        "removal of specific resources. The resource may be specified several "
                        "ways: (1) The resource name, as in the nested stack, (2) The resource "
                        "reference returned from get_resource in a template, as available via "
                        "the 'refs' attribute. Note this is destructive on update when "
                        "specified; even if the count is not being reduced, and once a "
                        "resource name is removed, its name is never reused in subsequent "
                        "updates.",
                        default=[],
                    ),
                },
            ),
            update_allowed=True,
            default=[],
            support_status=SupportStatus(version="2015.1"),
        ),
        REMOVAL_POLICIES_MODE: Schema(
            Schema.STRING,
            'How to handle changes to removal_policies on update. The default "append" mode '
            'appends to the internal list, "update" replaces it on update.',
            default=REMOVAL_POLICY_APPEND,
            constraints=[constraints.AllowedValues(REMOVAL_POLICY_MODES)],
            update_allowed=True,
            support_status=SupportStatus(version="10.0.0"),
        ),
    }

    attributes_schema = {
        REFS: AttributeSchema(
            "A list of resource IDs for the resources in the group.",
            type=AttributeSchema.LIST,
        ),
        REFS_MAP: AttributeSchema(
            "A map of resource names to IDs for the resources in the group.",
            type=AttributeSchema.MAP,
            support_status=SupportStatus(version="7.0.0"),
        ),
        ATTR_ATTRIBUTES: AttributeSchema(
            "A map of resource names to the specified attribute of each individual resource. "
            "Requires heat_template_version: 2014-10-16.",
            support_status=SupportStatus(version="2014.2"),
            type=AttributeSchema.MAP,
        ),
        REMOVED_RSRC_LIST: AttributeSchema(
            "A list of removed resource names.",
            support_status=SupportStatus(version="7.0.0"),
            type=AttributeSchema.LIST,
        ),
    }

    rolling_update_schema = {
        MIN_IN_SERVICE: Schema(
            Schema.INTEGER,
            "The minimum number of resources in service while rolling updates are being executed.",
            constraints=[constraints.Range(min=0)],
            default=0,
        ),
        MAX_BATCH_SIZE: Schema(
            Schema.INTEGER,
            "The maximum number of resources to replace at once.",
            constraints=[constraints.Range(min=1)],
            default=1,
        ),
        PAUSE_TIME: Schema(
            Schema.NUMBER,
            "The number of seconds to wait between batches of updates.",
            constraints=[constraints.Range(min=0)],
            default=0,
        ),
    }

    batch_create_schema = {
        MAX_BATCH_SIZE: Schema(
            Schema.INTEGER,
            "The maximum number of resources to create at once.",
            constraints=[constraints.Range(min=1)],
            default=1,
        ),
        PAUSE_TIME: Schema(
            Schema.NUMBER,
            "The number of seconds to wait between batches.",
            constraints=[constraints.Range(min=0)],
            default=0,
        ),
    }

    update_policy_schema = {
        ROLLING_UPDATE: Schema(
            Schema.MAP,
            schema=rolling_update_schema,
            support_status=SupportStatus(version="5.0.0"),
        ),
        BATCH_CREATE: Schema(
            Schema.MAP,
            schema=batch_create_schema,
            support_status=SupportStatus(version="5.0.0"),
        ),
    }

    def get_size(self) -> Any:
        return self.properties.get(self.COUNT)

    def validate_nested_stack(self) -> None:
        # An empty group is how templates switch a feature off: nothing to check.
        if not self.get_size():
            return
        first_name = next(iter(self._resource_names()))
        test_template = self._assemble_nested([first_name], include_all=True)
        member = next(iter(test_template.resource_definitions(None).values()))
        self.stack.env.get_class_to_instantiate(member.resource_type)
        if not callable(getattr(type(self.stack), "validate", None)):
            # The stack given cannot build and validate stacks of its kind.
            return
        try:
            nested = self._parse_nested_stack(
                f"{self.stack.name}-{self.name}", test_template, self.child_params()
            )
            nested.strict_validate = False
            nested.validate()
        except Exception as error:
            raise StackValidationFailed(
                error=str(error),
                path=[self.stack.t.RESOURCES, f"{self.name}<{self.template_url}>"],
            ) from None

    def get_attribute(self, key: str, *path: Any) -> Any:
        # Members' attributes ("resource.0.name", any member attribute) are synthetic:
        # any name may be asked for. Their values come from the nested stack, with
        # the engine.
        return None

    # The nested stack

    def child_template(self) -> Template:
        return self._assemble_nested(list(self._resource_names()))

    def child_params(self) -> dict[str, Any]:
        return {}

    def get_nested_parameters_stack(self) -> Any:
        """A nested group of one member: what validation shows the parameters of."""
        child_template = self._assemble_nested(list(self._resource_names(1)))
        return self._parse_nested_stack(
            f"{self.stack.name}-{self.name}", child_template, self.child_params()
        )

    def _name_skiplist(self) -> set[str]:
        """Member names never to use: every name the removal policies list.

        Before the group exists every listed name counts; what a created group has
        removed already is resource data, which arrives with the engine.
        """
        names: set[str] = set()
        if self.resource_id is None:
            for policy in self.properties.get(self.REMOVAL_POLICIES, []) or []:
                if self.REMOVAL_RSRC_LIST in policy:
                    names.update(str(name) for name in policy[self.REMOVAL_RSRC_LIST])
        return names

    def _resource_names(self, size: int | None = None) -> Iterator[str]:
        skipped = self._name_skiplist()
        if size is None:
            size = self.get_size()
        candidates = (str(index) for index in itertools.count())
        return itertools.islice((name for name in candidates if name not in skipped), size)

    def get_resource_def(self, include_all: bool = False) -> dict[str, Any]:
        """The member definition, with parameters the user did not give read as nothing."""

        def ignore_missing_parameters(snippet: Any, nullable: bool = False) -> Any:
            if isinstance(snippet, function.Function):
                try:
                    result = snippet.result()
                except UserParameterMissing:
                    return None
                if not nullable and result is Ellipsis:
                    result = None
                return result
            if isinstance(snippet, collections.abc.Mapping):
                resolved = (
                    (key, ignore_missing_parameters(value, True)) for key, value in snippet.items()
                )
                return {key: value for key, value in resolved if value is not Ellipsis}
            if not isinstance(snippet, str) and isinstance(snippet, collections.abc.Iterable):
                items = (ignore_missing_parameters(value, True) for value in snippet)
                return [value for value in items if value is not Ellipsis]
            return snippet

        # As in Heat, the group's properties keep reading this way from now on.
        self.properties.resolve = ignore_missing_parameters
        definition = self.properties[self.RESOURCE_DEF]
        if include_all:
            return definition
        cleaned = copy.deepcopy(definition)
        member_properties = cleaned.get(self.RESOURCE_DEF_PROPERTIES)
        if member_properties:
            cleaned[self.RESOURCE_DEF_PROPERTIES] = {
                key: value for key, value in member_properties.items() if value is not None
            }
        return cleaned

    def _replace_index(self, member_name: str, value: Any) -> Any:
        index_var = self.properties[self.INDEX_VAR]
        if isinstance(value, str):
            return value.replace(index_var, member_name)
        if isinstance(value, collections.abc.Mapping):
            return {key: self._replace_index(member_name, item) for key, item in value.items()}
        if isinstance(value, collections.abc.Sequence):
            return [self._replace_index(member_name, item) for item in value]
        return value

    def build_resource_definition(
        self, member_name: str, definition: dict[str, Any]
    ) -> ResourceDefinition:
        definition = copy.deepcopy(definition)
        member_properties = definition.get(self.RESOURCE_DEF_PROPERTIES)
        if member_properties:
            member_properties = self._replace_index(member_name, member_properties)
        return ResourceDefinition(
            member_name,
            definition[self.RESOURCE_DEF_TYPE],
            member_properties,
            definition[self.RESOURCE_DEF_METADATA],
        )

    @staticmethod
    def _attribute_output_name(*attribute_path: Any) -> str:
        return ", ".join(str(item) for item in attribute_path)

    def _nested_output_definitions(
        self, member_names: list[str], get_attr: Any, get_resource: Any
    ) -> Iterator[OutputDefinition]:
        """Outputs of the nested stack for every attribute of the group that is read."""
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
                if member_path:
                    if member in member_names:
                        value = get_attr([member, *member_path])
                else:
                    output_name = key = self.REFS_MAP
            elif key == self.ATTR_ATTRIBUTES and path:
                value = {member: get_attr([member, *path]) for member in member_names}
            elif key not in self.ATTRIBUTES:
                value = [get_attr([member, key, *path]) for member in member_names]
            if key == self.REFS:
                value = [get_resource(member) for member in member_names]
            if value is not None:
                yield OutputDefinition(output_name, value)

    def _add_output_defns_to_template(self, template: Template, member_names: list[str]) -> None:
        get_attr = functools.partial(template.functions["get_attr"], None, "get_attr")
        get_resource = functools.partial(template.functions["get_resource"], None, "get_resource")
        for definition in self._nested_output_definitions(member_names, get_attr, get_resource):
            template.add_output(definition)

    def _assemble_nested(
        self,
        names: list[str],
        include_all: bool = False,
        template_version: tuple[str, str] = ("heat_template_version", "2015-04-30"),
    ) -> Template:
        definition = self.get_resource_def(include_all)
        members = [(name, self.build_resource_definition(name, definition)) for name in names]
        template = Template(dict([template_version]))
        for name, member in members:
            template.add_resource(member, name)
        self._add_output_defns_to_template(template, [name for name, _member in members])
        return template
