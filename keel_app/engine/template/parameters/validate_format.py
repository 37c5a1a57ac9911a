"""A parameter as validate_template shows it: CFN-style keys (Heat's engine api format).

``{"Type": "String", "Description": "", "NoEcho": "false", "Label": "name",
"Default": ..., "Value": ..., "MinLength": ..., "AllowedValues": [...], ...}``; the
descriptions of all its constraints are joined into ``ConstraintDescription``.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine import constraints
from keel_app.engine.template.parameters.parameter import Parameter

TYPE = "Type"
DEFAULT = "Default"
NO_ECHO = "NoEcho"
ALLOWED_VALUES = "AllowedValues"
ALLOWED_PATTERN = "AllowedPattern"
MAX_LENGTH = "MaxLength"
MIN_LENGTH = "MinLength"
MAX_VALUE = "MaxValue"
MIN_VALUE = "MinValue"
STEP = "Step"
OFFSET = "Offset"
DESCRIPTION = "Description"
CONSTRAINT_DESCRIPTION = "ConstraintDescription"
LABEL = "Label"
CUSTOM_CONSTRAINT = "CustomConstraint"
VALUE = "Value"
TAGS = "Tags"


def format_validate_parameter(param: Parameter) -> dict[str, Any]:
    """The validate_template view of one parameter."""
    schema = param.schema
    api_types = {
        schema.STRING: "String",
        schema.NUMBER: "Number",
        schema.LIST: "CommaDelimitedList",
        schema.MAP: "Json",
        schema.BOOLEAN: "Boolean",
    }
    shown: dict[str, Any] = {
        TYPE: api_types.get(schema.type, schema.type),
        DESCRIPTION: param.description(),
        NO_ECHO: "true" if param.hidden() else "false",
        LABEL: param.label(),
    }
    if param.has_default():
        shown[DEFAULT] = param.default()
    if param.user_value:
        shown[VALUE] = param.user_value
    if param.tags():
        shown[TAGS] = param.tags()
    _add_constraints(shown, param)
    return shown


def _add_constraints(shown: dict[str, Any], param: Parameter) -> None:
    descriptions = []
    for constraint in param.schema.constraints:
        # Length before Range: a Length is a Range.
        if isinstance(constraint, constraints.Length):
            _add_bounds(shown, constraint, MIN_LENGTH, MAX_LENGTH)
        elif isinstance(constraint, constraints.Range):
            _add_bounds(shown, constraint, MIN_VALUE, MAX_VALUE)
        elif isinstance(constraint, constraints.Modulo):
            if constraint.step is not None:
                shown[STEP] = constraint.step
            if constraint.offset is not None:
                shown[OFFSET] = constraint.offset
        elif isinstance(constraint, constraints.AllowedValues):
            shown[ALLOWED_VALUES] = list(constraint.allowed)
        elif isinstance(constraint, constraints.AllowedPattern):
            shown[ALLOWED_PATTERN] = constraint.pattern
        elif isinstance(constraint, constraints.CustomConstraint):
            shown[CUSTOM_CONSTRAINT] = constraint.name
        if constraint.description:
            descriptions.append(constraint.description)
    if descriptions:
        shown[CONSTRAINT_DESCRIPTION] = " ".join(descriptions)


def _add_bounds(shown: dict[str, Any], constraint: Any, min_key: str, max_key: str) -> None:
    if constraint.min is not None:
        shown[min_key] = constraint.min
    if constraint.max is not None:
        shown[max_key] = constraint.max
