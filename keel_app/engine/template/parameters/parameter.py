"""One template parameter: its schema, the user's value and defaults, typed by the schema.

``Parameter(name, schema, value)`` gives the subclass for the schema's type. The value a
user gave wins over a default from the environment (``parameter_defaults``), which wins
over the template's own default. Values come as JSON or text: numbers, booleans, lists
and JSON documents are read from text where needed, with Heat's rules and messages.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from keel_app.common.exception import (
    InvalidSchemaError,
    StackValidationFailed,
    UserParameterMissing,
)
from keel_app.engine.constraints.coercion import bool_from_string, str_to_num
from keel_app.engine.template.parameters.schema import Schema

HIDDEN_TEXT = "******"


class Parameter:
    """A template parameter; ``str()`` masks hidden values."""

    def __new__(cls, name: str, schema: Any, value: Any = None) -> Parameter:
        if cls is not Parameter:
            return super().__new__(cls)
        if not isinstance(schema, Schema):
            schema = Schema.from_dict(name, schema)
        for attribute, parameter_class in _CLASS_BY_TYPE_ATTRIBUTE:
            # The attribute holds the dialect's own type name: "Number" or "number".
            if schema.type == getattr(schema, attribute):
                return super().__new__(parameter_class)
        raise ValueError(f'Invalid Parameter type "{schema.type}"')

    def __init__(self, name: str, schema: Any, value: Any = None) -> None:
        self.name = name
        if not isinstance(schema, Schema):
            schema = Schema.from_dict(name, schema)
        self.schema: Schema = schema
        self.user_value = value
        self.user_default: Any = None

    def validate(self, validate_value: bool = True, context: Any = None) -> None:
        """Check the schema, then (unless told not to) the value in force."""
        try:
            self.schema.validate(context)
            if not validate_value:
                return
            if self.user_value is not None:
                self._validate(self.user_value, context)
            elif self.has_default():
                self._validate(self.default(), context)
            else:
                raise UserParameterMissing(key=self.name)
        except StackValidationFailed as error:
            raise StackValidationFailed(message=self._invalid(error)) from error
        except InvalidSchemaError as error:
            raise InvalidSchemaError(message=self._invalid(error)) from error

    def _invalid(self, error: Exception) -> str:
        return f"Parameter '{self.name}' is invalid: {error}"

    def _validate(self, value: Any, context: Any) -> None:
        raise NotImplementedError

    def value(self) -> Any:
        if self.user_value is not None:
            return self.user_value
        if self.has_default():
            return self.default()
        raise UserParameterMissing(key=self.name)

    def has_value(self) -> bool:
        return self.user_value is not None or self.has_default()

    def hidden(self) -> Any:
        """Whether the value must be masked in anything shown to users."""
        return self.schema.hidden

    def description(self) -> str:
        return self.schema.description or ""

    def label(self) -> str:
        return self.schema.label or self.name

    def tags(self) -> list[Any]:
        return self.schema.tags or []

    def has_default(self) -> bool:
        return self.schema.default is not None or self.user_default is not None

    def default(self) -> Any:
        if self.user_default is not None:
            return self.user_default
        return self.schema.default

    def set_default(self, value: Any) -> None:
        self.user_default = value

    @classmethod
    def _value_as_text(cls, value: Any) -> str:
        return str(value)

    def __str__(self) -> str:
        value = self.value()
        if self.hidden():
            return HIDDEN_TEXT
        return self._value_as_text(value)


class NumberParam(Parameter):
    """``number``: an int when the text reads as one, else a float."""

    def __int__(self) -> int:
        return int(super().value())

    def __float__(self) -> float:
        return float(super().value())

    def _validate(self, value: Any, context: Any) -> None:
        try:
            str_to_num(value)
        except (ValueError, TypeError) as error:
            raise StackValidationFailed(message=str(error)) from error
        self.schema.validate_value(value, context)

    def value(self) -> Any:
        return str_to_num(super().value())


class BooleanParam(Parameter):
    """``boolean``: true/false, yes/no, on/off, t/f, y/n, 1/0 in any case."""

    def _validate(self, value: Any, context: Any) -> None:
        try:
            bool_from_string(value, strict=True)
        except ValueError as error:
            raise StackValidationFailed(message=str(error)) from error
        self.schema.validate_value(value, context)

    def value(self) -> bool:
        # No UserParameterMissing here: a missing boolean reads "None", which Heat
        # reports as an unrecognised value.
        raw = self.user_value if self.user_value is not None else self.default()
        return bool_from_string(str(raw), strict=True)


class StringParam(Parameter):
    """``string``: any value, given back as text."""

    def _validate(self, value: Any, context: Any) -> None:
        self.schema.validate_value(value, context=context)

    def value(self) -> Any:
        return self.schema.to_schema_type(super().value())


class ParsedParameter(Parameter):
    """A parameter whose text is parsed once, into a list or a JSON document."""

    def __init__(self, name: str, schema: Any, value: Any = None) -> None:
        super().__init__(name, schema, value)
        self._parsed: Any = None

    def parse(self, value: Any) -> Any:
        raise NotImplementedError

    def default_parsed(self) -> Any:
        raise NotImplementedError

    @property
    def parsed(self) -> Any:
        if self._parsed is None:
            if self.user_value is not None:
                self._parsed = self.parse(self.user_value)
            elif self.has_default():
                self._parsed = self.parse(self.default())
            else:
                self._parsed = self.default_parsed()
        return self._parsed

    def value(self) -> Any:
        if self.has_value():
            return self.parsed
        raise UserParameterMissing(key=self.name)

    def _validate(self, value: Any, context: Any) -> None:
        try:
            parsed = self.parse(value)
        except ValueError as error:
            raise StackValidationFailed(message=str(error)) from error
        self.schema.validate_value(parsed, context)


class CommaDelimitedListParam(ParsedParameter, Sequence[str]):
    """``comma_delimited_list``: "a,b,c" or a list; items become text, never trimmed."""

    def default_parsed(self) -> list[str]:
        return []

    def parse(self, value: Any) -> Any:
        if isinstance(value, list):
            return [str(item) for item in value]
        if value is None:
            return None
        if value == "":
            return []
        try:
            return value.split(",")
        except (KeyError, AttributeError) as error:
            raise ValueError(f"Value must be a comma-delimited list string: {error}") from error

    def __len__(self) -> int:
        return len(self.parsed)

    def __getitem__(self, index: Any) -> Any:
        return self.parsed[index]

    @classmethod
    def _value_as_text(cls, value: Any) -> str:
        return ",".join(value)


class JsonParam(ParsedParameter):
    """``json``: a mapping or a list, given as JSON text or as data."""

    def default_parsed(self) -> dict[str, Any]:
        return {}

    def parse(self, value: Any) -> Any:
        try:
            text = value if isinstance(value, str) else json.dumps(value)
            if text:
                return json.loads(text)
        except (ValueError, TypeError) as error:
            raise ValueError(f"Value must be valid JSON: {error}") from error
        # Empty text stays empty text.
        return value

    def __getitem__(self, key: Any) -> Any:
        return self.parsed[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.parsed)

    def __len__(self) -> int:
        return len(self.parsed)

    @classmethod
    def _value_as_text(cls, value: Any) -> str:
        return json.dumps(value)


_CLASS_BY_TYPE_ATTRIBUTE: tuple[tuple[str, type[Parameter]], ...] = (
    ("STRING", StringParam),
    ("NUMBER", NumberParam),
    ("LIST", CommaDelimitedListParam),
    ("MAP", JsonParam),
    ("BOOLEAN", BooleanParam),
)
