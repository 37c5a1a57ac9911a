"""The schema base shared by template parameters and resource properties.

A schema names a data type, an optional default and a list of constraints, and reads as
a HOT-like mapping (``dict(schema)``). Subclasses rename the type keywords their
templates use (``String`` for CFN parameters, ``string`` for HOT ones) by overriding the
INTEGER/STRING/... attributes and ``TYPES``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import Any

from keel_app.common.exception import InvalidSchemaError, StackValidationFailed
from keel_app.engine.constraints import base
from keel_app.engine.constraints.coercion import bool_from_string, str_to_num
from keel_app.engine.constraints.custom import CustomConstraint

LOG = logging.getLogger(__name__)


class Schema(Mapping[str, Any]):
    """A data type with a default and constraints; validates values and its own default."""

    TYPE = "type"
    DESCRIPTION = "description"
    DEFAULT = "default"
    SCHEMA = "schema"
    REQUIRED = "required"
    CONSTRAINTS = "constraints"
    IMMUTABLE = "immutable"
    KEYS: tuple[str, ...] = (TYPE, DESCRIPTION, DEFAULT, SCHEMA, REQUIRED, CONSTRAINTS, IMMUTABLE)

    INTEGER_TYPE = base.INTEGER_TYPE
    STRING_TYPE = base.STRING_TYPE
    NUMBER_TYPE = base.NUMBER_TYPE
    BOOLEAN_TYPE = base.BOOLEAN_TYPE
    MAP_TYPE = base.MAP_TYPE
    LIST_TYPE = base.LIST_TYPE
    TYPE_KEYS = (INTEGER_TYPE, STRING_TYPE, NUMBER_TYPE, BOOLEAN_TYPE, MAP_TYPE, LIST_TYPE)

    INTEGER = "Integer"
    STRING = "String"
    NUMBER = "Number"
    BOOLEAN = "Boolean"
    MAP = "Map"
    LIST = "List"
    ANY = "Any"
    TYPES: tuple[str, ...] = (INTEGER, STRING, NUMBER, BOOLEAN, MAP, LIST, ANY)

    def __init__(
        self,
        data_type: Any,
        description: str | None = None,
        default: Any = None,
        schema: Any = None,
        required: bool = False,
        constraints: list[Any] | None = None,
        label: str | None = None,
        immutable: bool = False,
    ) -> None:
        self._len: int | None = None
        self.label = label
        self.type = data_type
        if self.type not in self.TYPES:
            raise InvalidSchemaError(message=f"Invalid type ({self.type})")
        if required and default is not None:
            LOG.warning(
                "Option 'required=True' should not be used with any 'default' value (%s)",
                default,
            )
        self.description = description
        self.required = required
        self.immutable = immutable

        if isinstance(schema, type(self)):
            if self.type != self.LIST:
                raise InvalidSchemaError(
                    message=f"Single schema valid only for {self.LIST}, not {self.type}"
                )
            self.schema: Any = AnyIndexDict(schema)
        else:
            self.schema = schema
        if self.schema is not None and self.type not in (self.LIST, self.MAP):
            raise InvalidSchemaError(
                message=f"Schema valid only for {self.LIST} or {self.MAP}, not {self.type}"
            )
        self.constraints: list[Any] = constraints or []
        self.default = default

    def validate(self, context: Any = None) -> None:
        """Check the constraints suit the type, the default obeys them, and nested schemata."""
        for constraint in self.constraints:
            if not self._is_valid_constraint(constraint):
                raise InvalidSchemaError(
                    message=f"{type(constraint).__name__} constraint invalid for {self.type}"
                )
        self._validate_default(context)
        if self.schema:
            if isinstance(self.schema, AnyIndexDict):
                self.schema.value.validate(context)
            else:
                for nested in self.schema.values():
                    nested.validate(context)

    def _validate_default(self, context: Any) -> None:
        if self.default is None:
            return
        try:
            # A custom constraint may need a cloud service: defaults are not checked by it.
            self.validate_constraints(self.default, context, [CustomConstraint])
        except (ValueError, TypeError) as error:
            raise InvalidSchemaError(message=f"Invalid default {self.default} ({error})") from error

    def set_default(self, default: Any = None) -> None:
        self.default = default

    def _is_valid_constraint(self, constraint: Any) -> bool:
        valid_types = getattr(constraint, "valid_types", [])
        return any(self.type == getattr(self, name, None) for name in valid_types)

    @staticmethod
    def str_to_num(value: Any) -> Any:
        return str_to_num(value)

    def to_schema_type(self, value: Any) -> Any:
        """The value converted to this schema's type (numbers from text, booleans from words)."""
        try:
            if self.type == self.INTEGER:
                number = str_to_num(value)
                if isinstance(number, float):
                    raise ValueError(f"{number} is not an integer.")
                return number
            if self.type == self.NUMBER:
                return str_to_num(value)
            if self.type == self.STRING:
                return str(value)
            if self.type == self.BOOLEAN:
                return bool_from_string(str(value), strict=True)
        except ValueError:
            raise ValueError(f'Value "{value}" is invalid for data type "{self.type}".') from None
        return value

    def validate_constraints(
        self, value: Any, context: Any = None, skipped: list[type] | None = None
    ) -> None:
        skipped = skipped or []
        try:
            for constraint in self.constraints:
                if type(constraint) not in skipped:
                    constraint.validate(value, self, context)
        except ValueError as error:
            raise StackValidationFailed(message=str(error)) from error

    def __getitem__(self, key: str) -> Any:
        if key == self.TYPE:
            return self.type.lower()
        if key == self.DESCRIPTION and self.description is not None:
            return self.description
        if key == self.DEFAULT and self.default is not None:
            return self.default
        if key == self.SCHEMA and self.schema is not None:
            return {name: dict(nested) for name, nested in self.schema.items()}
        if key == self.REQUIRED:
            return self.required
        if key == self.CONSTRAINTS and self.constraints:
            return [dict(constraint) for constraint in self.constraints]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        for key in self.KEYS:
            try:
                self[key]
            except KeyError:
                continue
            yield key

    def __len__(self) -> int:
        if self._len is None:
            self._len = len(list(iter(self)))
        return self._len


class AnyIndexDict(Mapping[Any, Any]):
    """The one schema of every item of a list: any integer index (or ``*``) gives it."""

    ANYTHING = "*"

    def __init__(self, value: Any) -> None:
        self.value = value

    def __getitem__(self, key: Any) -> Any:
        if key != self.ANYTHING and not isinstance(key, int):
            raise KeyError(f"Invalid key {key}")
        return self.value

    def __iter__(self) -> Iterator[str]:
        yield self.ANYTHING

    def __len__(self) -> int:
        return 1
