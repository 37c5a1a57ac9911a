"""A stack that is only validated: Heat's ``parser.Stack`` for a stack never stored.

validate_template builds one (named ``dummy``) to run Heat's ``Stack.validate`` on
the template, and template resources build their nested stacks with the class of
their parent's stack, so ``show_nested`` walks down the same way. The stack has no
id: nothing is read from or written to a database, and resources are seen in their
INIT state (references are their names, attribute values ``None``).

Heat iterates resources and outputs in the order of a Python set; here they come in
template order, so when several things are wrong the first one in the template is
the one reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from keel_app.common.exception import HeatException, StackValidationFailed
from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.graph import Dependencies
from keel_app.engine.template import stack_definition
from keel_app.engine.template.parameters import ParameterGroups, format_validate_parameter

STACK_NAME_PATTERN = re.compile("[a-zA-Z][a-zA-Z0-9_.-]{0,254}$")
# Heat's default stack_action_timeout, for a stack created without a timeout.
DEFAULT_TIMEOUT_SECONDS = 3600

ParameterFilter = Callable[[Any], bool]


def _check_stack_name(name: Any) -> None:
    try:
        valid = STACK_NAME_PATTERN.match(name) is not None
    except TypeError:
        raise StackValidationFailed(
            message=f"Invalid stack name {name}, must be a string"
        ) from None
    if not valid:
        raise StackValidationFailed(
            message=(
                f'Invalid stack name {name} must contain only alphanumeric or "_-." '
                "characters, must start with alpha and must be 255 characters or less."
            )
        )


def _resource_class() -> Any:
    # The resource plugin framework sits beside the template language; imported
    # when the first stack needs it.
    from keel_app.engine.resource import Resource

    return Resource


class ValidationStack:
    """The resources, parameters and outputs of a template, for validation only."""

    ACTIONS = (
        CREATE,
        DELETE,
        UPDATE,
        ROLLBACK,
        SUSPEND,
        RESUME,
        ADOPT,
        SNAPSHOT,
        CHECK,
        RESTORE,
    ) = (
        "CREATE",
        "DELETE",
        "UPDATE",
        "ROLLBACK",
        "SUSPEND",
        "RESUME",
        "ADOPT",
        "SNAPSHOT",
        "CHECK",
        "RESTORE",
    )
    STATUSES = (IN_PROGRESS, FAILED, COMPLETE) = ("IN_PROGRESS", "FAILED", "COMPLETE")

    def __init__(
        self,
        context: Any,
        stack_name: str,
        tmpl: Any,
        stack_id: Any = None,
        action: str | None = None,
        status: str | None = None,
        status_reason: str = "",
        timeout_mins: int | None = None,
        disable_rollback: bool = True,
        parent_resource: str | None = None,
        owner_id: Any = None,
        adopt_stack_data: Any = None,
        stack_user_project_id: Any = None,
        user_creds_id: Any = None,
        tenant_id: Any = None,
        username: Any = None,
        nested_depth: int = 0,
        strict_validate: bool = True,
    ) -> None:
        if owner_id is None:
            _check_stack_name(stack_name)
        self.id = stack_id
        self.owner_id = owner_id
        self.context = context
        self.name = stack_name
        if adopt_stack_data:
            self.action = self.ADOPT
        else:
            self.action = self.CREATE if action is None else action
        self.status = self.IN_PROGRESS if status is None else status
        self.status_reason = status_reason
        self.timeout_mins = timeout_mins
        self.disable_rollback = disable_rollback
        self.adopt_stack_data = adopt_stack_data
        self.stack_user_project_id = stack_user_project_id
        self.user_creds_id = user_creds_id
        self.nested_depth = nested_depth
        self.strict_validate = strict_validate
        self.created_time = None
        self.updated_time = None
        self.deleted_time = None
        self.convergence = False
        self.in_convergence_check = False
        self.tenant_id = tenant_id or getattr(context, "project_id", None) or ""
        self.username = username or getattr(context, "username", None)
        self.parent_resource_name = parent_resource
        self.parent_stack: ValidationStack | None = None
        # Limits travel with the template, so nested stacks check the same ones.
        self.limits = tmpl.limits
        self._resources: dict[str, Any] | None = None
        self._dependencies: Dependencies | None = None
        self.defn = stack_definition.StackDefinition(context, tmpl, self.identifier(), {})

    # What resources and functions read

    @property
    def t(self) -> Any:
        return self.defn.t

    @property
    def parameters(self) -> Any:
        return self.defn.parameters

    @property
    def env(self) -> Any:
        return self.defn.env

    @property
    def parent_resource(self) -> Any:
        return self.defn.parent_resource

    def set_parent_stack(self, parent_stack: ValidationStack) -> None:
        self.parent_stack = parent_stack

    def identifier(self) -> HeatIdentifier:
        return HeatIdentifier(self.tenant_id, self.name, self.id)

    def timeout_secs(self) -> int:
        if self.timeout_mins is None:
            return DEFAULT_TIMEOUT_SECONDS
        return self.timeout_mins * 60

    def root_stack_id(self) -> Any:
        return self.id

    def total_resources(self, stack_id: Any = None) -> int:
        # Nothing of an unstored stack is counted anywhere yet.
        return 0

    def db_resource_get(self, name: str) -> None:
        return None

    def has_cache_data(self) -> bool:
        return False

    @property
    def outputs(self) -> dict[str, Any]:
        enabled = self.defn.enabled_output_names()
        return {
            name: self.defn.output_definition(name)
            for name in self._template_order(self.t.OUTPUTS, enabled)
        }

    @property
    def resources(self) -> dict[str, Any]:
        if self._resources is None:
            resource_class = _resource_class()
            enabled = self.defn.enabled_rsrc_names()
            self._resources = {
                name: resource_class(name, self.defn.resource_definition(name), self)
                for name in self._template_order(self.t.RESOURCES, enabled)
            }
        return self._resources

    def release_resources(self) -> None:
        """Let the resources and definitions parsed so far go; they are parsed again if
        asked for (the resource data known stays).

        A large stack's weigh megabytes: a request that has validated and stored the
        stack hands it to convergence, which parses its own, and the two sets need not
        be in memory at once (the allocator keeps the high-water mark).
        """
        self._resources = None
        self._dependencies = None
        self.defn = self.defn.clone_with_new_template(self.t, self.identifier())

    def _template_order(self, section: str, names: set[str]) -> list[str]:
        written = self.t.t.get(section) or {}
        ordered = [name for name in written if name in names]
        return ordered + sorted(names.difference(ordered))

    def __iter__(self) -> Iterator[str]:
        return iter(self.resources)

    def __len__(self) -> int:
        return len(self.resources)

    def __getitem__(self, name: str) -> Any:
        return self.resources[name]

    def __contains__(self, name: object) -> bool:
        if self._resources is not None:
            return name in self._resources
        return name in self.t[self.t.RESOURCES]

    def __str__(self) -> str:
        return f'Stack "{self.name}" [{self.id}]'

    # Dependencies

    def _explicit_dependencies(self) -> Dependencies:
        if self._dependencies is None:
            graph = Dependencies()
            for resource in self.resources.values():
                resource.add_explicit_dependencies(graph)
            self._dependencies = graph
        return self._dependencies

    @property
    def dependencies(self) -> Dependencies:
        graph = self._explicit_dependencies()
        for resource in self.resources.values():
            try:
                resource.add_dependencies(graph)
            except (ValueError, TypeError):
                # Likely from property values not validated yet; Heat ignores these.
                continue
        return graph

    def _update_all_resource_data(self, for_resources: bool, for_outputs: bool) -> None:
        for resource in self._explicit_dependencies():
            data = resource.node_data(for_resources=for_resources, for_outputs=for_outputs)
            stack_definition.update_resource_data(self.defn, resource.name, data)

    # Validation

    def validate(
        self, ignorable_errors: list[str] | None = None, validate_res_tmpl_only: bool = False
    ) -> None:
        """Heat's Stack.validate: sections, parameters, groups, conditions, resources, outputs."""
        self.t.validate()
        self.parameters.validate(context=self.context, validate_value=self.strict_validate)
        ParameterGroups(self.t).validate()
        self.t.conditions(self).validate()

        resources = self.resources
        duplicates = set(self.parameters) & set(resources)
        if duplicates:
            raise StackValidationFailed(message=f"Duplicate names {duplicates}")

        self._update_all_resource_data(for_resources=True, for_outputs=True)
        ordered = self.dependencies if self.strict_validate else self._explicit_dependencies()

        # Identical definitions are validated once, under the first name seen.
        first_names: dict[Any, str] = {}
        for resource in resources.values():
            first_names.setdefault(resource.t, resource.name)
        to_validate = set(first_names.values())

        for resource in ordered:
            if resource.name not in to_validate:
                continue
            self._validate_resource(resource, ignorable_errors, validate_res_tmpl_only)

        for name, output in self.outputs.items():
            try:
                output.validate()
            except StackValidationFailed as error:
                path = [self.t.OUTPUTS, name, self.t.get_section_name(error.path[0])]
                path.extend(error.path[1:])
                raise StackValidationFailed(
                    error=error.error, path=path, message=error.error_message
                ) from None

    def _validate_resource(
        self, resource: Any, ignorable_errors: list[str] | None, template_only: bool
    ) -> None:
        result = None
        try:
            if not template_only:
                if resource.external_id is not None:
                    resource.validate_external()
                    return
                result = resource.validate()
            elif resource.external_id is None:
                result = resource.validate_template()
        except HeatException as error:
            if not (ignorable_errors and error.error_code in ignorable_errors):
                raise
            result = None
        except AssertionError:
            raise
        except Exception as error:
            path = [self.t.get_section_name(self.t.RESOURCES), resource.name]
            raise StackValidationFailed(error=error, path=path) from None
        if result:
            raise StackValidationFailed(message=result)

    # Nested parameters (show_nested)

    def get_nested_parameters(self, filter_func: ParameterFilter) -> dict[str, Any]:
        """The parameters of every nested stack below this one, for validate_template."""
        nested_parameters = {}
        for name, resource in self.resources.items():
            nested = resource.get_nested_parameters_stack()
            if nested is None:
                continue
            shown: dict[str, Any] = {
                "Type": resource.type(),
                "Description": nested.t.get("Description", ""),
                "Parameters": nested.parameters.map(
                    format_validate_parameter, filter_func=filter_func
                ),
            }
            groups = ParameterGroups(nested.t)
            if groups.parameter_groups:
                shown["ParameterGroups"] = groups.parameter_groups
            shown.update(nested.get_nested_parameters(filter_func))
            nested_parameters[name] = shown
        return {"NestedParameters": nested_parameters} if nested_parameters else {}
