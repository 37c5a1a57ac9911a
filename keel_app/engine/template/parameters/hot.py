"""Parameter schemata of HOT templates, per version.

HOT writes constraints as a list of one-key mappings (``- range: {min: 1}``), each with
an optional ``description`` that replaces the generated error message. ``modulo`` exists
from 2017-02-24, ``tags`` from 2018-03-02; before those versions the keys are refused
like any unknown key.
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import InvalidSchemaError
from keel_app.engine import constraints
from keel_app.engine.template.parameters.schema import Schema

# The keys of one entry of a parameter's ``constraints`` list.
DESCRIPTION = "description"
LENGTH = "length"
RANGE = "range"
MODULO = "modulo"
ALLOWED_VALUES = "allowed_values"
ALLOWED_PATTERN = "allowed_pattern"
CUSTOM_CONSTRAINT = "custom_constraint"
PARAM_CONSTRAINTS = (
    DESCRIPTION,
    LENGTH,
    RANGE,
    MODULO,
    ALLOWED_VALUES,
    ALLOWED_PATTERN,
    CUSTOM_CONSTRAINT,
)

MIN = "min"
MAX = "max"
RANGE_KEYS = (MIN, MAX)

STEP = "step"
OFFSET = "offset"
MODULO_KEYS = (STEP, OFFSET)


class HOTParamSchema(Schema):
    """The schema of a HOT parameter (2013-05-23 to 2016-10-14)."""

    TYPE = "type"
    DESCRIPTION = "description"
    DEFAULT = "default"
    SCHEMA = "schema"
    CONSTRAINTS = "constraints"
    HIDDEN = "hidden"
    LABEL = "label"
    IMMUTABLE = "immutable"
    KEYS: tuple[str, ...] = (
        TYPE,
        DESCRIPTION,
        DEFAULT,
        SCHEMA,
        CONSTRAINTS,
        HIDDEN,
        LABEL,
        IMMUTABLE,
    )
    PARAMETER_KEYS: tuple[str, ...] = KEYS

    STRING = "string"
    NUMBER = "number"
    LIST = "comma_delimited_list"
    MAP = "json"
    BOOLEAN = "boolean"
    TYPES: tuple[str, ...] = (STRING, NUMBER, LIST, MAP, BOOLEAN)

    @classmethod
    def _constraint_from_def(cls, definition: dict[str, Any]) -> Any:
        description = definition.get(DESCRIPTION)
        # One kind per entry; when an entry names several, the first of this order wins.
        if RANGE in definition:
            bounds = definition.get(RANGE)
            cls._check_dict(bounds, RANGE_KEYS, "range constraint")
            return constraints.Range(
                cls.get_num(MIN, bounds), cls.get_num(MAX, bounds), description
            )
        if LENGTH in definition:
            bounds = definition.get(LENGTH)
            cls._check_dict(bounds, RANGE_KEYS, "length constraint")
            return constraints.Length(
                cls.get_num(MIN, bounds), cls.get_num(MAX, bounds), description
            )
        if ALLOWED_VALUES in definition:
            return constraints.AllowedValues(definition.get(ALLOWED_VALUES), description)
        if ALLOWED_PATTERN in definition:
            return constraints.AllowedPattern(definition.get(ALLOWED_PATTERN), description)
        if CUSTOM_CONSTRAINT in definition:
            return constraints.CustomConstraint(definition.get(CUSTOM_CONSTRAINT), description)
        raise InvalidSchemaError(message="No constraint expressed")

    @classmethod
    def _constraints(cls, param_name: str, schema_dict: dict[str, Any]) -> list[Any]:
        definitions = schema_dict.get(cls.CONSTRAINTS)
        if definitions is None:
            return []
        if not isinstance(definitions, list):
            raise InvalidSchemaError(
                message=f"Invalid parameter constraints for parameter {param_name}, expected a list"
            )
        found = []
        for definition in definitions:
            cls._check_dict(definition, PARAM_CONSTRAINTS, "parameter constraints")
            found.append(cls._constraint_from_def(definition))
        return found

    @classmethod
    def _keyword_arguments(cls, schema_dict: dict[str, Any]) -> dict[str, Any]:
        return {}

    @classmethod
    def from_dict(cls, param_name: str, schema_dict: Any) -> HOTParamSchema:
        """The schema of a HOT parameter definition."""
        cls._validate_dict(param_name, schema_dict)
        found = cls._constraints(param_name, schema_dict)
        return cls(
            schema_dict[cls.TYPE],
            description=schema_dict.get(HOTParamSchema.DESCRIPTION),
            default=schema_dict.get(HOTParamSchema.DEFAULT),
            constraints=found,
            hidden=schema_dict.get(HOTParamSchema.HIDDEN, False),
            label=schema_dict.get(HOTParamSchema.LABEL),
            immutable=schema_dict.get(HOTParamSchema.IMMUTABLE, False),
            **cls._keyword_arguments(schema_dict),
        )


class HOTParamSchema20170224(HOTParamSchema):
    """From 2017-02-24 (ocata): adds the ``modulo`` constraint."""

    @classmethod
    def _constraint_from_def(cls, definition: dict[str, Any]) -> Any:
        if MODULO in definition:
            terms = definition.get(MODULO)
            cls._check_dict(terms, MODULO_KEYS, "modulo constraint")
            return constraints.Modulo(
                cls.get_num(STEP, terms), cls.get_num(OFFSET, terms), definition.get(DESCRIPTION)
            )
        return super()._constraint_from_def(definition)


class HOTParamSchema20180302(HOTParamSchema20170224):
    """From 2018-03-02 (queens): adds ``tags``, a list of strings shown by validate."""

    TAGS = "tags"
    KEYS: tuple[str, ...] = (*HOTParamSchema20170224.KEYS, TAGS)
    PARAMETER_KEYS: tuple[str, ...] = KEYS

    @classmethod
    def _keyword_arguments(cls, schema_dict: dict[str, Any]) -> dict[str, Any]:
        return {"tags": schema_dict.get(cls.TAGS)}
