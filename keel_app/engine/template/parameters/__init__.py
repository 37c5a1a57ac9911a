"""Template parameters (Heat's ``heat.engine.parameters`` and the HOT/CFN variants).

The template supplies the schemata (``Schema.from_dict`` for CFN, one of the
``HOTParamSchema*`` classes for HOT, chosen by version) and builds the stack's
``HOTParameters``/``CfnParameters``; ``ParameterGroups`` checks ``parameter_groups``;
``format_validate_parameter`` renders a parameter for validate_template.
"""

from keel_app.engine.template.parameters.collection import Parameters
from keel_app.engine.template.parameters.groups import ParameterGroups
from keel_app.engine.template.parameters.hot import (
    HOTParamSchema,
    HOTParamSchema20170224,
    HOTParamSchema20180302,
)
from keel_app.engine.template.parameters.parameter import (
    BooleanParam,
    CommaDelimitedListParam,
    JsonParam,
    NumberParam,
    Parameter,
    ParsedParameter,
    StringParam,
)
from keel_app.engine.template.parameters.pseudo import CfnParameters, HOTParameters
from keel_app.engine.template.parameters.schema import Schema
from keel_app.engine.template.parameters.validate_format import format_validate_parameter

__all__ = [
    "BooleanParam",
    "CfnParameters",
    "CommaDelimitedListParam",
    "HOTParamSchema",
    "HOTParamSchema20170224",
    "HOTParamSchema20180302",
    "HOTParameters",
    "JsonParam",
    "NumberParam",
    "Parameter",
    "ParameterGroups",
    "Parameters",
    "ParsedParameter",
    "Schema",
    "StringParam",
    "format_validate_parameter",
]
