"""Constraints on the value itself: a list of allowed values, or a regular expression."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from keel_app.common.exception import InvalidSchemaError
from keel_app.engine.constraints import base


class AllowedValues(base.Constraint):
    """``{"allowed_values": [...]}``; a list value passes when every item is allowed."""

    valid_types = (
        base.STRING_TYPE,
        base.INTEGER_TYPE,
        base.NUMBER_TYPE,
        base.BOOLEAN_TYPE,
        base.LIST_TYPE,
    )

    def __init__(self, allowed: Any, description: str | None = None) -> None:
        super().__init__(description)
        if not isinstance(allowed, Sequence) or isinstance(allowed, str):
            raise InvalidSchemaError(message="AllowedValues must be a list")
        self.allowed = tuple(allowed)

    def _str(self) -> str:
        return "Allowed values: " + ", ".join(json.dumps(item) for item in self.allowed)

    def _err_msg(self, value: Any) -> str:
        allowed = ", ".join(json.dumps(item) for item in self.allowed)
        return f"{json.dumps(value)} is not an allowed value [{allowed}]"

    def _is_valid(self, value: Any, schema: Any, context: Any) -> bool:
        if isinstance(value, list):
            return all(item in self.allowed for item in value)
        if schema is not None:
            # "1" allows 1 for a number, "yes" allows True for a boolean.
            allowed = tuple(schema.to_schema_type(item) for item in self.allowed)
            return schema.to_schema_type(value) in allowed
        return value in self.allowed

    def _constraint(self) -> list[Any]:
        return list(self.allowed)


class AllowedPattern(base.Constraint):
    """``{"allowed_pattern": "<regex>"}``: the whole value must match."""

    valid_types = (base.STRING_TYPE,)

    def __init__(self, pattern: Any, description: str | None = None) -> None:
        super().__init__(description)
        if not isinstance(pattern, str):
            raise InvalidSchemaError(message="AllowedPattern must be a string")
        self.pattern = pattern
        self.match = re.compile(pattern).match

    def _str(self) -> str:
        return f"Value must match pattern: {self.pattern}"

    def _err_msg(self, value: Any) -> str:
        return f'"{value}" does not match pattern "{self.pattern}"'

    def _is_valid(self, value: Any, schema: Any, context: Any) -> bool:
        found = self.match(value)
        return found is not None and found.end() == len(value)

    def _constraint(self) -> str:
        return self.pattern
