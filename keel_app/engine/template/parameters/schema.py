"""Parameter schemata of CFN templates (``Type``, ``Default``, ``NoEcho``, ``MinLength`` ...).

This is also the base of the HOT schemata: it adds to the generic schema what a template
parameter has (hidden, label, immutable, tags) and reads a CFN parameter definition.
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import InvalidSchemaError, StackValidationFailed
from keel_app.engine import constraints
from keel_app.engine.constraints.coercion import str_to_num

# The keys of a CFN parameter definition.
TYPE = "Type"
DEFAULT = "Default"
NO_ECHO = "NoEcho"
ALLOWED_VALUES = "AllowedValues"
ALLOWED_PATTERN = "AllowedPattern"
MAX_LENGTH = "MaxLength"
MIN_LENGTH = "MinLength"
MAX_VALUE = "MaxValue"
MIN_VALUE = "MinValue"
DESCRIPTION = "Description"
CONSTRAINT_DESCRIPTION = "ConstraintDescription"
LABEL = "Label"
PARAMETER_KEYS = (
    TYPE,
    DEFAULT,
    NO_ECHO,
    ALLOWED_VALUES,
    ALLOWED_PATTERN,
    MAX_LENGTH,
    MIN_LENGTH,
    MAX_VALUE,
    MIN_VALUE,
    DESCRIPTION,
    CONSTRAINT_DESCRIPTION,
    LABEL,
)


class Schema(constraints.Schema):
    """A template parameter's schema; the type names are CFN's."""

    TYPE = "Type"
    DESCRIPTION = "Description"
    DEFAULT = "Default"
    SCHEMA = "Schema"
    CONSTRAINTS = "Constraints"
    HIDDEN = "NoEcho"
    LABEL = "Label"
    IMMUTABLE = "Immutable"
    TAGS = "Tags"
    KEYS: tuple[str, ...] = (
        TYPE,
        DESCRIPTION,
        DEFAULT,
        SCHEMA,
        CONSTRAINTS,
        HIDDEN,
        LABEL,
        IMMUTABLE,
        TAGS,
    )
    PARAMETER_KEYS: tuple[str, ...] = PARAMETER_KEYS

    # The generic LIST and MAP types are called CommaDelimitedList and Json here.
    STRING = "String"
    NUMBER = "Number"
    LIST = "CommaDelimitedList"
    MAP = "Json"
    BOOLEAN = "Boolean"
    TYPES: tuple[str, ...] = (STRING, NUMBER, LIST, MAP, BOOLEAN)

    def __init__(
        self,
        data_type: Any,
        description: str | None = None,
        default: Any = None,
        schema: Any = None,
        constraints: list[Any] | None = None,
        hidden: Any = False,
        label: str | None = None,
        immutable: Any = False,
        tags: Any = None,
    ) -> None:
        super().__init__(
            data_type=data_type,
            description=description,
            default=default,
            schema=schema,
            required=default is None,
            constraints=constraints,
            label=label,
            immutable=immutable,
        )
        self.hidden = hidden
        self.tags = tags

    def _validate_default(self, context: Any) -> None:
        if self.default is None:
            return
        default = self.default
        if self.type == self.LIST:
            # A list default may be written as "a,b,c"; constraints see the items.
            if isinstance(default, list):
                default = [str(item) for item in default]
            else:
                try:
                    default = default.split(",")
                except (KeyError, AttributeError) as error:
                    raise InvalidSchemaError(
                        message=f"Default must be a comma-delimited list string: {error}"
                    ) from error
        try:
            self.validate_constraints(default, context, [constraints.CustomConstraint])
        except (ValueError, TypeError, StackValidationFailed) as error:
            raise InvalidSchemaError(message=f"Invalid default {self.default} ({error})") from error

    def set_default(self, default: Any = None) -> None:
        super().set_default(default)
        self.required = default is None

    @staticmethod
    def get_num(key: str, definition: Any) -> Any:
        value = definition.get(key)
        if value is not None:
            value = str_to_num(value)
        return value

    @staticmethod
    def _check_dict(definition: Any, allowed_keys: tuple[str, ...], entity: str) -> None:
        if not isinstance(definition, dict):
            raise InvalidSchemaError(message=f"Invalid {entity}, expected a mapping")
        for key in definition:
            if key not in allowed_keys:
                raise InvalidSchemaError(message=f"Invalid key '{key}' for {entity}")

    @classmethod
    def _validate_dict(cls, param_name: str, definition: Any) -> None:
        cls._check_dict(definition, cls.PARAMETER_KEYS, f"parameter ({param_name})")
        if cls.TYPE not in definition:
            raise InvalidSchemaError(message=f"Missing parameter type for parameter: {param_name}")
        if not isinstance(definition.get(cls.TAGS, []), list):
            raise InvalidSchemaError(
                message=f"Tags property should be a list for parameter: {param_name}"
            )

    @classmethod
    def from_dict(cls, param_name: str, schema_dict: Any) -> Schema:
        """The schema of a CFN parameter definition."""
        cls._validate_dict(param_name, schema_dict)
        description = schema_dict.get(CONSTRAINT_DESCRIPTION)
        found: list[Any] = []
        if MIN_VALUE in schema_dict or MAX_VALUE in schema_dict:
            found.append(
                constraints.Range(
                    cls.get_num(MIN_VALUE, schema_dict),
                    cls.get_num(MAX_VALUE, schema_dict),
                    description,
                )
            )
        if MIN_LENGTH in schema_dict or MAX_LENGTH in schema_dict:
            found.append(
                constraints.Length(
                    cls.get_num(MIN_LENGTH, schema_dict),
                    cls.get_num(MAX_LENGTH, schema_dict),
                    description,
                )
            )
        if ALLOWED_VALUES in schema_dict:
            found.append(constraints.AllowedValues(schema_dict[ALLOWED_VALUES], description))
        if ALLOWED_PATTERN in schema_dict:
            found.append(constraints.AllowedPattern(schema_dict[ALLOWED_PATTERN], description))
        return cls(
            schema_dict[TYPE],
            description=schema_dict.get(DESCRIPTION),
            default=schema_dict.get(DEFAULT),
            constraints=found,
            hidden=str(schema_dict.get(NO_ECHO, "false")).lower() == "true",
            label=schema_dict.get(LABEL),
        )

    def validate_value(self, value: Any, context: Any = None) -> None:
        super().validate_constraints(value, context)

    def __getitem__(self, key: str) -> Any:
        if key == self.TYPE:
            return self.type
        if key == self.HIDDEN:
            return self.hidden
        return super().__getitem__(key)
