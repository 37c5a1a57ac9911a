"""An output of a stack, independent of the template format it was written in."""

from __future__ import annotations

import collections
import copy
from collections.abc import Iterator, Mapping
from typing import Any

from keel_app.common.exception import InvalidTemplateAttribute, InvalidTemplateReference
from keel_app.engine.template import function

FIELDS = (VALUE, DESCRIPTION) = ("Value", "Description")


class OutputDefinition:
    def __init__(self, name: str, value: Any, description: Any = None) -> None:
        self.name = name
        self._value = value
        self._resolved_value: Any = None
        self._description = description
        self._deps: set[str] | None = None
        self._all_dep_attrs: dict[str, set[Any]] | None = None

    def validate(self) -> None:
        """Validate the functions in the value without resolving them."""
        function.validate(self._value, VALUE)

    def required_resource_names(self) -> set[str]:
        if self._deps is None:
            try:
                required = function.dependencies(self._value)
                self._deps = {resource.name for resource in required}
            except (InvalidTemplateAttribute, InvalidTemplateReference):
                # Such an output cannot be resolved anyway; it waits for nothing.
                self._deps = set()
        return self._deps

    def dep_attrs(self, resource_name: str, load_all: bool = False) -> Iterator[Any]:
        if self._all_dep_attrs is None and load_all:
            attribute_map: dict[str, set[Any]] = collections.defaultdict(set)
            for name, attribute in function.all_dep_attrs(self._value):
                attribute_map[name].add(attribute)
            self._all_dep_attrs = attribute_map
        if self._all_dep_attrs is not None:
            return iter(self._all_dep_attrs.get(resource_name, []))
        return function.dep_attrs(self._value, resource_name)

    def all_dep_attrs_map(self) -> Mapping[str, set[Any]]:
        """Every resource name to the attributes of it this output reads (cached)."""
        self.dep_attrs("", load_all=True)
        assert self._all_dep_attrs is not None
        return self._all_dep_attrs

    def get_value(self) -> Any:
        if self._resolved_value is None:
            self._resolved_value = function.resolve(self._value)
        return self._resolved_value

    def description(self) -> str:
        if self._description is None:
            return "No description given"
        return str(self._description)

    def render_hot(self) -> dict[str, Any]:
        rendered: dict[str, Any] = {}
        if self._description is not None:
            rendered["description"] = self._description
        rendered["value"] = copy.deepcopy(self._value)
        return rendered
