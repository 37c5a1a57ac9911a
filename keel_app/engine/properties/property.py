"""One property of a resource: its schema, its path, and the coercion of a raw value.

The coercion rules are Heat's, quirks included, because users see their messages:
integers go through ``int()`` (so ``3.7`` becomes ``3`` but ``"3.7"`` is refused),
strings accept booleans and integers but no floats, booleans accept only the words
``true``/``false`` (in any case) or real booleans, and a missing value falls back to the
default or to the type's empty value.
"""

from __future__ import annotations

import collections.abc
import json
from typing import Any

from keel_app.engine.properties.schema import Schema


def split_delimited(text: str) -> list[str]:
    """A comma-separated string as a list of stripped items ("" gives [])."""
    if not text:
        return []
    return [item.strip() for item in text.split(",")]


class Property:
    def __init__(
        self, schema: Any, name: Any = None, context: Any = None, path: str | None = None
    ) -> None:
        self.schema = Schema.from_legacy(schema)
        self.name = name
        self.context = context
        self.path = self.make_path(name, path)

    def required(self) -> bool:
        return bool(self.schema.required)

    def implemented(self) -> bool:
        return bool(self.schema.implemented)

    def update_allowed(self) -> bool:
        return bool(self.schema.update_allowed)

    def immutable(self) -> bool:
        return bool(self.schema.immutable)

    def has_default(self) -> bool:
        return self.schema.default is not None

    def default(self) -> Any:
        return self.schema.default

    def type(self) -> str:
        return str(self.schema.type)

    def support_status(self) -> Any:
        return self.schema.support_status

    @staticmethod
    def make_path(name: Any, path: str | None = None) -> str:
        """The dotted path of a property under its parent (list items by index)."""
        path = path or ""
        name = "" if name is None else name
        if isinstance(name, int) or name.isdigit():
            name = str(name)
        separator = "" if not path or path.endswith(".") else "."
        return separator.join([path, name])

    def _or_default(self, value: Any, empty: Any) -> Any:
        if value is None:
            # A falsy default (0, "", False, []) gives the empty value, as in Heat.
            return (self.has_default() and self.default()) or empty
        return value

    def _get_integer(self, value: Any) -> int:
        value = self._or_default(value, 0)
        try:
            return int(value)
        except ValueError:
            raise TypeError(f"Value '{value}' is not an integer") from None

    def _get_number(self, value: Any) -> Any:
        return Schema.str_to_num(self._or_default(value, 0))

    def _get_string(self, value: Any) -> str:
        value = self._or_default(value, "")
        if isinstance(value, str):
            return value
        if isinstance(value, (bool, int)):
            return str(value)
        raise ValueError(f"Value must be a string; got {value!r}")

    def _get_children(
        self, child_values: Any, keys: Any = None, validate: bool = False, translation: Any = None
    ) -> Any:
        if self.schema.schema is None:
            return child_values
        # Imported here: the collection and its items refer to each other.
        from keel_app.engine.properties.properties import Properties

        if keys is None:
            keys = list(self.schema.schema)
        child_schemata = {key: self.schema.schema[key] for key in keys}
        children = Properties(
            child_schemata,
            dict(child_values),
            context=self.context,
            parent_name=self.path,
            translation=translation,
        )
        if validate:
            children.validate()
        return ((key, children[key]) for key in keys)

    def _get_map(self, value: Any, validate: bool = False, translation: Any = None) -> Any:
        if value is None:
            value = self.default() if self.has_default() else {}
        if not isinstance(value, collections.abc.Mapping):
            # A provider template's Json parameter may carry a list or text.
            if self.schema.allow_conversion:
                if isinstance(value, str):
                    return value
                if isinstance(value, collections.abc.Sequence):
                    return json.dumps(value)
            raise TypeError(f'"{value}" is not a map')
        return dict(self._get_children(value.items(), validate=validate, translation=translation))

    def _get_list(self, value: Any, validate: bool = False, translation: Any = None) -> list[Any]:
        value = self._or_default(value, [])
        if self.schema.allow_conversion and isinstance(value, str):
            value = split_delimited(value)
        if not isinstance(value, collections.abc.Sequence) or isinstance(value, str):
            raise TypeError(f'"{value!r}" is not a list')
        children = self._get_children(
            enumerate(value), range(len(value)), validate=validate, translation=translation
        )
        return [item for _index, item in children]

    def _get_bool(self, value: Any) -> bool:
        value = self._or_default(value, False)
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            normalised = value.lower()
            if normalised not in ("true", "false"):
                raise ValueError(f'"{normalised}" is not a valid boolean')
            return normalised == "true"
        raise TypeError(f'"{value}" is not a valid boolean')

    def get_value(self, value: Any, validate: bool = False, translation: Any = None) -> Any:
        """The raw value coerced to the property's type (and checked, if asked)."""
        data_type = self.type()
        result: Any
        if data_type == Schema.STRING:
            result = self._get_string(value)
        elif data_type == Schema.INTEGER:
            result = self._get_integer(value)
        elif data_type == Schema.NUMBER:
            result = self._get_number(value)
        elif data_type == Schema.MAP:
            result = self._get_map(value, validate, translation)
        elif data_type == Schema.LIST:
            result = self._get_list(value, validate, translation)
        elif data_type == Schema.BOOLEAN:
            result = self._get_bool(value)
        else:
            result = value
        if validate:
            self.schema.validate_constraints(result, self.context)
        return result
