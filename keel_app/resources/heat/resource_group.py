"""OS::Heat::ResourceGroup: ``count`` identically configured resources in a nested stack.

Members are named ``0``, ``1``, ...; ``index_var`` in the member definition is replaced
by each member's index; ``removal_policies`` name members to remove (their names are
never used again: they are kept in the ``name_blacklist`` resource data). Creating
makes the nested stack of every member; an update resizes it to the new count, or,
when the member definition changes under a ``rolling_update`` policy, replaces the
members in batches (with ``pause_time`` between them); ``batch_create`` creates them in
batches. A create or update is a list of steps that ``check_*_complete`` runs in turn,
waiting on the nested stack after each. The group's attributes are outputs of the
nested stack, made for every attribute the parent template reads.
"""

from __future__ import annotations

import collections.abc
import copy
import functools
import itertools
from collections.abc import Iterator
from typing import Any

from keel_app.common import exception
from keel_app.common.exception import StackValidationFailed, UserParameterMissing
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.engine.resource.stack_resource import StackResource
from keel_app.engine.stack import template_store
from keel_app.engine.template import Template, function
from keel_app.engine.template.functions.references import select_from_attribute
from keel_app.engine.template.output import OutputDefinition
from keel_app.engine.template.resource_definition import ResourceDefinition
from keel_app.resources import group_members
from keel_app.resources.heat import group_steps, scaling
from keel_app.resources.heat.group_steps import RESIZE

SKIPLIST_KEY = "name_blacklist"


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
                error=error,
                path=[self.stack.t.RESOURCES, f"{self.name}<{self.template_url}>"],
            ) from None

    # Member names: the removed ones are never used again

    def _current_skiplist(self) -> list[str]:
        names = self.data().get(SKIPLIST_KEY)
        return names.split(",") if names else []

    def _new_skiplist_entries(self, properties: Any, current: list[str]) -> Iterator[str]:
        """The names the removal policies name, member references resolved to names."""
        inspector = group_members.GroupInspector(self)
        for policy in properties.get(self.REMOVAL_POLICIES, []) or []:
            if self.REMOVAL_RSRC_LIST not in policy:
                continue
            for listed in policy[self.REMOVAL_RSRC_LIST]:
                name = str(listed)
                if (
                    name in current
                    or self.resource_id is None
                    or name in inspector.member_names(include_failed=True)
                ):
                    yield name
                elif isinstance(listed, str):
                    yield from self._names_of_reference(listed)
        # Outputs read before this update would be out of date after it.
        self._outputs = None

    def _names_of_reference(self, reference: str) -> Iterator[str]:
        try:
            references = self.get_output(self.REFS_MAP)
        except (exception.NotFound, exception.TemplateOutputError):
            for member in group_members.members(self, include_failed=True):
                if member.FnGetRefId() == reference:
                    yield member.name
                    return
            return
        for name, member_reference in (references or {}).items():
            if member_reference == reference:
                yield name
                return

    def _update_name_skiplist(self, properties: Any) -> None:
        """Store the names the removal policies now remove ("update" mode starts afresh)."""
        current = set(self._current_skiplist())
        mode = properties.get(self.REMOVAL_POLICIES_MODE, self.REMOVAL_POLICY_APPEND)
        kept = set() if mode == self.REMOVAL_POLICY_UPDATE else current
        updated = kept | set(self._new_skiplist_entries(properties, sorted(current)))
        if updated != current:
            self.data_set(SKIPLIST_KEY, ",".join(sorted(updated)))

    def _name_skiplist(self) -> set[str]:
        names = set(self._current_skiplist())
        if self.resource_id is None:
            names |= set(self._new_skiplist_entries(self.properties, sorted(names)))
        return names

    def _resource_names(self, size: int | None = None) -> Iterator[str]:
        skipped = self._name_skiplist()
        if size is None:
            size = self.get_size()
        candidates = (str(index) for index in itertools.count())
        return itertools.islice((name for name in candidates if name not in skipped), size)

    def _count_skipped(self, existing_members: Iterator[str]) -> int:
        return len(self._name_skiplist() & set(existing_members))

    # Creating and updating: a list of steps

    def handle_create(self) -> Any:
        self._update_name_skiplist(self.properties)
        policy = self.update_policy.get(self.BATCH_CREATE)
        if policy and self.get_size():
            token = self._steps_token(
                self._batch_steps(0, policy[self.MAX_BATCH_SIZE], policy[self.PAUSE_TIME])
            )
            self._run_steps(token)
            return token
        self.create_with_template(
            self._assemble_nested(list(self._resource_names())), self.child_params()
        )
        return None

    def handle_adopt(self, resource_data: Any = None) -> None:
        # Adopted as one nested stack, whatever batching the update policy asks for.
        self.create_with_template(
            self._assemble_nested(list(self._resource_names())), {}, adopt_data=resource_data
        )

    def check_create_complete(self, token: Any = None) -> bool:
        if token is None:
            return super().check_create_complete()
        return self._run_steps(token)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        if tmpl_diff and tmpl_diff.update_policy_changed():
            self.update_policy = json_snippet.update_policy(self.update_policy_schema, self.context)
        self.properties = json_snippet.properties(self.properties_schema, self.context)
        self._update_name_skiplist(self.properties)
        steps: list[list[Any]] = []
        if prop_diff and self.res_def_changed(prop_diff):
            steps = self._rolling_update_steps()
        if not steps:
            steps = [[RESIZE, self.stack.timeout_mins]]
        token = self._steps_token(steps)
        self._run_steps(token)
        return token

    def check_update_complete(self, token: Any) -> bool:
        return self._run_steps(token)

    def res_def_changed(self, prop_diff: Any) -> bool:
        """Whether the members' definition changed (what a rolling update replaces)."""
        return self.RESOURCE_DEF in prop_diff

    @staticmethod
    def _steps_token(steps: list[list[Any]]) -> dict[str, Any]:
        return group_steps.steps_token(steps)

    def _run_steps(self, token: dict[str, Any]) -> bool:
        return group_steps.run_steps(self, token, self._start_step)

    def _start_step(self, step: list[Any]) -> dict[str, Any]:
        if step[0] == RESIZE:
            template = self._assemble_nested(list(self._resource_names()))
            return self.update_with_template(template, {}, step[1])
        _kind, capacity, max_updates, timeout_mins = step
        template = self._assemble_for_rolling_update(capacity, max_updates)
        return self.update_with_template(template, {}, timeout_mins)

    def _rolling_update_steps(self) -> list[list[Any]]:
        policy = self.update_policy[self.ROLLING_UPDATE]
        if not policy:
            return []
        return self._batch_steps(
            policy[self.MIN_IN_SERVICE], policy[self.MAX_BATCH_SIZE], policy[self.PAUSE_TIME]
        )

    def _batch_steps(
        self, min_in_service: int, batch_size: int, pause_seconds: float
    ) -> list[list[Any]]:
        """Heat's ``_replace``: one step a batch, with pauses between them."""
        inspector = group_members.GroupInspector(self)
        skipped = self._count_skipped(inspector.member_names(include_failed=False))
        current_capacity = inspector.size(include_failed=True) - skipped
        batches = scaling.batches(self.get_size(), current_capacity, batch_size, min_in_service)
        return group_steps.batch_steps(self.stack, batches, pause_seconds)

    def _assemble_for_rolling_update(
        self,
        total_capacity: int,
        max_updates: int,
        include_all: bool = False,
        template_version: tuple[str, str] = scaling.HOT_2015_04_30,
    ) -> Template:
        """The nested template after the next batch: removed members go first, then the
        members at the highest indices are given the new definition."""
        names = list(self._resource_names(total_capacity))
        skipped = self._name_skiplist()
        valid = [
            (name, definition)
            for name, definition in group_members.member_definitions(self)
            if name not in skipped
        ]
        target_capacity = self.get_size()

        def replace_priority(member: tuple[str, Any]) -> int:
            try:
                index = names.index(member[0])
            except ValueError:
                return 0
            if index < target_capacity:
                return target_capacity - index
            return total_capacity

        old_members = sorted(valid, key=replace_priority)
        existing = {name for name, _definition in valid}
        new_names = (name for name in names if name not in existing)
        definitions = list(
            scaling.member_definitions(
                old_members,
                self.get_resource_def(include_all),
                total_capacity,
                max_updates,
                lambda: next(new_names),
                self.build_resource_definition,
            )
        )
        template = scaling.make_template(definitions, version=template_version)
        self._add_output_defns_to_template(template, names)
        return template

    def child_template_files(self, child_env: Any) -> Any:
        """During a rolling update members may still be of the old template's files."""
        rolling = self.action == self.UPDATE and self.update_policy[self.ROLLING_UPDATE]
        previous_id = getattr(self.stack, "prev_raw_template_id", None)
        if not (rolling and previous_id and hasattr(self.stack, "database")):
            return self.stack.t.files
        previous = template_store.load_template(self.stack.database, previous_id, self.stack.limits)
        files = dict(previous.files)
        files.update(dict(self.stack.t.files))
        return files

    # Attributes

    def get_attribute(self, key: str, *path: Any) -> Any:
        if key == self.REMOVED_RSRC_LIST:
            return self._current_skiplist()
        if key == self.ATTR_ATTRIBUTES and not path:
            raise exception.InvalidTemplateAttribute(resource=self.name, key=key)
        is_reference = key.startswith("resource.") and not path and len(key.split(".", 2)) == 2
        output_name = self.REFS_MAP if is_reference else self._attribute_output_name(key, *path)
        if self.resource_id is not None:
            try:
                output = self.get_output(output_name)
            except (exception.NotFound, exception.TemplateOutputError):
                pass
            else:
                if is_reference:
                    member = key.split(".", 2)[1]
                    try:
                        return output[member]
                    except KeyError:
                        raise exception.NotFound(
                            f"Member '{member}' not found in group resource '{self.name}'."
                        ) from None
                if key == self.REFS:
                    return select_from_attribute(output, list(path))
                return output
        if key.startswith("resource."):
            return group_members.nested_attribute(self, key, False, *path)
        names = list(self._resource_names())
        if key == self.REFS:
            references = [group_members.member_reference(self, False, name) for name in names]
            return select_from_attribute(references, list(path))
        if key == self.REFS_MAP:
            return {name: group_members.member_reference(self, False, name) for name in names}
        if key == self.ATTR_ATTRIBUTES:
            return {
                name: group_members.member_attribute(self, False, name, *path) for name in names
            }
        return [group_members.member_attribute(self, False, name, key, *path) for name in names]

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.REMOVED_RSRC_LIST:
            return self._current_skiplist()
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

    def _attribute_output_name(self, *attribute_path: Any) -> str:
        if attribute_path[0] == self.REFS:
            return self.REFS
        return ", ".join(str(item) for item in attribute_path)

    def _nested_output_definitions(
        self, member_names: list[str], get_attr: Any, get_resource: Any
    ) -> Iterator[OutputDefinition]:
        """Outputs of the nested stack for every attribute of the group that is read,
        and the map of member references (which removal policies read)."""
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
        references = {member: get_resource(member) for member in member_names}
        yield OutputDefinition(self.REFS_MAP, references)

    def _add_output_defns_to_template(self, template: Template, member_names: list[str]) -> None:
        get_attr = functools.partial(template.functions["get_attr"], None, "get_attr")
        get_resource = functools.partial(template.functions["get_resource"], None, "get_resource")
        for definition in self._nested_output_definitions(member_names, get_attr, get_resource):
            template.add_output(definition)

    def _assemble_nested(
        self,
        names: list[str],
        include_all: bool = False,
        template_version: tuple[str, str] = scaling.HOT_2015_04_30,
    ) -> Template:
        definition = self.get_resource_def(include_all)
        members = [(name, self.build_resource_definition(name, definition)) for name in names]
        template = scaling.make_template(members, version=template_version)
        self._add_output_defns_to_template(template, [name for name, _member in members])
        return template
