"""What HOT and CFN templates share: resource fields, conditions, outputs."""

from __future__ import annotations

import collections.abc
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from keel_app.common.exception import StackValidationFailed
from keel_app.engine.template import function
from keel_app.engine.template.base import Template
from keel_app.engine.template.conditions import Conditions
from keel_app.engine.template.output import OutputDefinition
from keel_app.engine.template.resource_definition import ResourceDefinition

ParseFunction = Callable[[Any, str], Any]


class CommonTemplate(Template):
    RES_TYPE = RES_PROPERTIES = RES_METADATA = RES_DEPENDS_ON = ""
    RES_DELETION_POLICY = RES_UPDATE_POLICY = RES_DESCRIPTION = ""
    OUTPUT_VALUE = OUTPUT_DESCRIPTION = CONDITIONS = ""
    deletion_policies: dict[str, str] = {}

    def __init__(self, template: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(template, *args, **kwargs)
        self._conditions_cache: tuple[Any, Conditions | None] = (None, None)

    @classmethod
    def _parse_resource_field(
        cls,
        key: str,
        valid_types: type | tuple[type, ...],
        typename: str,
        resource_name: str,
        resource_data: collections.abc.Mapping[str, Any],
        parse_func: ParseFunction,
    ) -> Any:
        if key not in resource_data:
            return None
        data = parse_func(resource_data[key], ".".join([cls.RESOURCES, resource_name, key]))
        if not isinstance(data, valid_types):
            raise TypeError(f"Resource {resource_name} {key} type must be {typename}")
        return data

    # The key that names a resource's condition in error paths of this format.
    CONDITION_KEY_FOR_ERRORS = "condition"

    def _invalid_keys_message(self, snippet: Any) -> str | None:
        """Why a resource snippet has keys the format does not allow, or None."""
        return None

    def resource_definitions(self, stack: Any) -> dict[str, ResourceDefinition]:
        resources = self.t.get(self.RESOURCES) or {}
        conditions = self.conditions(stack)
        definitions = {}
        for name, snippet in resources.items():
            definition = self._enabled_definition(stack, name, snippet, conditions)
            if definition is not None:
                definitions[name] = definition
        return definitions

    def resource_definition(self, stack: Any, name: str) -> ResourceDefinition:
        """One resource's definition, the others left unparsed; KeyError if not enabled."""
        resources = self.t.get(self.RESOURCES) or {}
        definition = self._enabled_definition(stack, name, resources[name], self.conditions(stack))
        if definition is None:
            raise KeyError(name)
        return definition

    def _enabled_definition(
        self, stack: Any, name: str, snippet: Any, conditions: Conditions
    ) -> ResourceDefinition | None:
        try:
            invalid = self._invalid_keys_message(snippet)
            if invalid:
                raise ValueError(invalid)
            arguments = dict(self._rsrc_defn_args(stack, name, snippet))
        except (TypeError, ValueError, KeyError) as error:
            raise StackValidationFailed(message=str(error)) from None
        definition = ResourceDefinition(name, **arguments)
        condition = definition.condition()
        if condition is not None:
            try:
                enabled = conditions.is_enabled(condition)
            except ValueError as error:
                key = getattr(self, "RES_CONDITION", self.CONDITION_KEY_FOR_ERRORS)
                path = [self.RESOURCES, name, key]
                raise StackValidationFailed(path=path, message=str(error)) from None
            if not enabled:
                return None
        return definition

    def _rsrc_defn_args(
        self, stack: Any, name: str, data: collections.abc.Mapping[str, Any]
    ) -> Iterator[tuple[str, Any]]:
        if self.RES_TYPE not in data:
            raise KeyError(f'Resource {name} is missing "{self.RES_TYPE}"')

        def parse(snippet: Any, path: str) -> Any:
            return self.parse(stack, snippet, path)

        def no_parse(snippet: Any, path: str) -> Any:
            return snippet

        mapping_or_function = (collections.abc.Mapping, function.Function)
        field = self._parse_resource_field
        yield "resource_type", field(self.RES_TYPE, str, "string", name, data, parse)
        yield (
            "properties",
            field(self.RES_PROPERTIES, mapping_or_function, "object", name, data, parse),
        )
        yield (
            "metadata",
            field(self.RES_METADATA, mapping_or_function, "object", name, data, parse),
        )

        depends = field(
            self.RES_DEPENDS_ON, collections.abc.Sequence, "list or string", name, data, no_parse
        )
        if isinstance(depends, str):
            depends = [depends]
        elif depends:
            for dependency in depends:
                if not isinstance(dependency, str):
                    raise StackValidationFailed(
                        message=f"Resource {name} {self.RES_DEPENDS_ON} must be a list of strings"
                    )
        yield "depends", depends

        policy = field(
            self.RES_DELETION_POLICY, (str, function.Function), "string", name, data, parse
        )
        deletion_policy = function.resolve(policy)
        if deletion_policy is not None:
            if deletion_policy not in self.deletion_policies:
                raise StackValidationFailed(message=f'Invalid deletion policy "{deletion_policy}"')
            deletion_policy = self.deletion_policies[deletion_policy]
        yield "deletion_policy", deletion_policy

        yield (
            "update_policy",
            field(self.RES_UPDATE_POLICY, mapping_or_function, "object", name, data, parse),
        )
        yield "description", field(self.RES_DESCRIPTION, str, "string", name, data, no_parse)

    def _get_condition_definitions(self) -> Any:
        return {}

    def conditions(self, stack: Any) -> Conditions:
        """The conditions section parsed for ``stack`` (cached per stack)."""
        cached_stack, cached = self._conditions_cache
        if cached is not None and cached_stack is not None and cached_stack() is stack:
            return cached

        definitions = self._get_condition_definitions()
        if not isinstance(definitions, collections.abc.Mapping):
            raise StackValidationFailed(
                error="Conditions validation error",
                message=(
                    "Condition definitions must be a map. Found a "
                    f"{type(definitions).__name__} instead"
                ),
            )
        parsed = {
            name: self.parse_condition(stack, definition, ".".join([self.CONDITIONS, name]))
            for name, definition in definitions.items()
        }
        conditions = Conditions(parsed)
        self._conditions_cache = (weakref.ref(stack) if stack is not None else None, conditions)
        return conditions

    def outputs(self, stack: Any) -> dict[str, OutputDefinition]:
        conditions = self.conditions(stack)
        outputs = self.t.get(self.OUTPUTS) or {}
        definitions: dict[str, OutputDefinition] = {}
        for key, value in outputs.items():
            if not isinstance(value, collections.abc.Mapping):
                raise StackValidationFailed(
                    error="Output validation error",
                    path=[self.OUTPUTS, key],
                    message=(
                        f"Output definitions must be a map. Found a {type(value).__name__} instead"
                    ),
                )
            if self.OUTPUT_VALUE not in value:
                raise StackValidationFailed(
                    error="Output validation error",
                    path=[self.OUTPUTS, key],
                    message=f"Each output definition must contain a {self.OUTPUT_VALUE} key.",
                )
            description = value.get(self.OUTPUT_DESCRIPTION)
            condition_key = getattr(self, "OUTPUT_CONDITION", None)
            if condition_key is not None:
                path = [self.OUTPUTS, key, condition_key]
                condition = self.parse_condition(stack, value.get(condition_key), ".".join(path))
                try:
                    enabled = conditions.is_enabled(function.resolve(condition))
                except ValueError as error:
                    raise StackValidationFailed(path=path, message=str(error)) from None
                if not enabled:
                    definitions[key] = OutputDefinition(key, None, description)
                    continue
            value_path = ".".join([self.OUTPUTS, key, self.OUTPUT_VALUE])
            value_definition = self.parse(stack, value[self.OUTPUT_VALUE], path=value_path)
            definitions[key] = OutputDefinition(key, value_definition, description)
        return definitions
