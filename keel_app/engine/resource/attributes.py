"""Attribute schemata: what ``get_attr`` may ask a resource type for.

A plugin declares ``attributes_schema = {"name": Schema("...", type=Schema.STRING)}``;
every resource also has the ``show`` attribute (``BASE_ATTRIBUTES``). ``dict(schema)``
is the form of the ``resource_schema`` RPC answer. Resolving attribute values belongs to
the resource life cycle and arrives with the engine; this module only declares.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from keel_app.engine import constraints
from keel_app.engine.environment.support import HIDDEN, SupportStatus

SHOW_ATTR = "show"
BASE_ATTRIBUTES = (SHOW_ATTR,)

# What dep_attrs() reports when a function reads every attribute of a resource.
ALL_ATTRIBUTES = "*"

DEFAULT_SUPPORT_STATUS = SupportStatus()


class Schema(constraints.Schema):
    """An attribute's description, type (possibly unknown) and support status."""

    KEYS = (DESCRIPTION, TYPE) = ("description", "type")

    CACHE_MODES = (CACHE_LOCAL, CACHE_NONE) = ("cache_local", "cache_none")

    UNKNOWN = None
    STRING = "String"
    MAP = "Map"
    LIST = "List"
    INTEGER = "Integer"
    BOOLEAN = "Boolean"
    TYPES = (UNKNOWN, STRING, MAP, LIST, INTEGER, BOOLEAN)  # type: ignore[assignment]

    def __init__(
        self,
        description: str | None = None,
        support_status: SupportStatus = DEFAULT_SUPPORT_STATUS,
        cache_mode: str = CACHE_LOCAL,
        type: str | None = UNKNOWN,  # noqa: A002 - Heat's keyword, used by every plugin
    ) -> None:
        super().__init__(type, description)
        self.support_status = support_status
        self.cache_mode = cache_mode
        self.validate()

    def __getitem__(self, key: str) -> Any:
        if key == self.DESCRIPTION and self.description is not None:
            return self.description
        if key == self.TYPE and self.type is not None:
            return self.type.lower()
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        for key in self.KEYS:
            try:
                self[key]
            except KeyError:
                continue
            yield key

    @classmethod
    def from_attribute(cls, schema: Any) -> Schema:
        assert isinstance(schema, cls), "Old attribute schema is not supported"
        return schema


def schemata(schema: Mapping[str, Any]) -> dict[str, Schema]:
    return {name: Schema.from_attribute(item) for name, item in schema.items()}


BASE_ATTRIBUTES_SCHEMA = {
    SHOW_ATTR: Schema(
        "Detailed information about resource.",
        cache_mode=Schema.CACHE_NONE,
        type=Schema.MAP,
    )
}


class Attribute:
    """One attribute of a resource type."""

    def __init__(self, name: str, schema: Schema) -> None:
        self.name = name
        self.schema = Schema.from_attribute(schema)

    def support_status(self) -> SupportStatus:
        return self.schema.support_status

    def as_output(self, resource_name: str, template_type: str = "cfn") -> dict[str, Any]:
        """The provider-template output that exposes this attribute of ``resource_name``."""
        if template_type == "hot":
            return {
                "value": {"get_attr": [resource_name, self.name]},
                "description": self.schema.description,
            }
        return {
            "Value": {"Fn::GetAtt": [resource_name, self.name]},
            "Description": self.schema.description,
        }


def _stack_id_output(resource_name: str, template_type: str = "cfn") -> dict[str, Any]:
    if template_type == "hot":
        return {"value": {"get_resource": resource_name}}
    return {"Value": {"Ref": resource_name}}


class Attributes(Mapping[str, Attribute]):
    """A resource's attributes by name (values are resolved by the engine's resource)."""

    def __init__(self, resource_name: str, schema: Mapping[str, Any]) -> None:
        assert ALL_ATTRIBUTES not in schema, f"Invalid attribute name '{ALL_ATTRIBUTES}'"
        self._resource_name = resource_name
        self._attributes = self._make_attributes(schema)

    @staticmethod
    def _make_attributes(schema: Mapping[str, Any]) -> dict[str, Attribute]:
        return {name: Attribute(name, item) for name, item in schema.items()}

    def get_cache_mode(self, attribute_name: str) -> str:
        try:
            return self._attributes[attribute_name].schema.cache_mode
        except KeyError:
            return Schema.CACHE_LOCAL

    @staticmethod
    def as_outputs(
        resource_name: str, resource_class: Any, template_type: str = "cfn"
    ) -> dict[str, Any]:
        """A provider template's outputs exposing every visible attribute of a type."""
        visible = {
            name: Schema.from_attribute(item)
            for name, item in resource_class.attributes_schema.items()
            if Schema.from_attribute(item).support_status.status != HIDDEN
        }
        visible.update(resource_class.base_attributes_schema)
        outputs = {
            name: attribute.as_output(resource_name, template_type)
            for name, attribute in Attributes._make_attributes(visible).items()
        }
        outputs["OS::stack_id"] = _stack_id_output(resource_name, template_type)
        return outputs

    def __getitem__(self, key: str) -> Attribute:
        return self._attributes[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._attributes)

    def __len__(self) -> int:
        return len(self._attributes)
