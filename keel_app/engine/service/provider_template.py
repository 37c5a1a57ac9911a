"""generate_template: a provider template that mirrors a resource type.

Each visible property becomes a parameter (its type, description, default and
constraints carried over) passed straight to the one resource of the type; each
visible attribute becomes an output, plus ``OS::stack_id``. The resource is named
after the plugin's class, as Heat names it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from keel_app.common import exception
from keel_app.engine.constraints import AllowedPattern, AllowedValues, Length, Range
from keel_app.engine.environment import global_environment
from keel_app.engine.environment.support import HIDDEN
from keel_app.engine.properties import Schema, schemata
from keel_app.engine.resource.attributes import Attributes
from keel_app.engine.service.catalog import enforce_resource_type
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database

CFN_TYPES = {
    Schema.INTEGER: "Number",
    Schema.STRING: "String",
    Schema.NUMBER: "Number",
    Schema.BOOLEAN: "Boolean",
    Schema.MAP: "Json",
    Schema.LIST: "CommaDelimitedList",
    # Heat has no parameter type for an Any property and answers 500 (a KeyError): a
    # listed type must be showable, so it becomes Json, Heat's own fallback when it maps
    # parameter types to property types (docs/divergences.md).
    Schema.ANY: "Json",
}
HOT_TYPES = {
    Schema.INTEGER: "number",
    Schema.STRING: "string",
    Schema.NUMBER: "number",
    Schema.BOOLEAN: "boolean",
    Schema.MAP: "json",
    Schema.LIST: "comma_delimited_list",
    Schema.ANY: "json",
}


def _bounds(constraint: Any, low: str, high: str) -> Iterator[tuple[str, Any]]:
    if constraint.min is not None:
        yield low, constraint.min
    if constraint.max is not None:
        yield high, constraint.max


def _cfn_parameter(schema: Schema) -> dict[str, Any]:
    parameter: dict[str, Any] = {"Type": CFN_TYPES[schema.type]}
    if schema.description is not None:
        parameter["Description"] = schema.description
    if schema.default is not None:
        parameter["Default"] = schema.default
    for constraint in schema.constraints:
        if isinstance(constraint, Length):
            parameter.update(_bounds(constraint, "MinLength", "MaxLength"))
        elif isinstance(constraint, Range):
            parameter.update(_bounds(constraint, "MinValue", "MaxValue"))
        elif isinstance(constraint, AllowedValues):
            parameter["AllowedValues"] = list(constraint.allowed)
        elif isinstance(constraint, AllowedPattern):
            parameter["AllowedPattern"] = constraint.pattern
    if schema.type == Schema.BOOLEAN:
        parameter["AllowedValues"] = ["True", "true", "False", "false"]
    return parameter


def _hot_constraint(constraint: Any) -> dict[str, Any]:
    if isinstance(constraint, Length):
        return {"length": dict(_bounds(constraint, "min", "max"))}
    if isinstance(constraint, Range):
        return {"range": dict(_bounds(constraint, "min", "max"))}
    if isinstance(constraint, AllowedValues):
        return {"allowed_values": list(constraint.allowed)}
    if isinstance(constraint, AllowedPattern):
        return {"allowed_pattern": constraint.pattern}
    return {}


def _hot_parameter(schema: Schema) -> dict[str, Any]:
    parameter: dict[str, Any] = {"type": HOT_TYPES[schema.type]}
    if schema.description is not None:
        parameter["description"] = schema.description
    if schema.default is not None:
        parameter["default"] = schema.default
    if schema.constraints:
        parameter["constraints"] = [_hot_constraint(item) for item in schema.constraints]
    return parameter


def _cfn_property(name: str, schema: Schema) -> dict[str, Any]:
    if schema.type == Schema.LIST:
        return {"Fn::Split": [",", {"Ref": name}]}
    return {"Ref": name}


def resource_to_template(
    resource_class: Any, type_name: str, template_type: str = "cfn"
) -> dict[str, Any]:
    visible = {
        name: schema
        for name, schema in schemata(resource_class.properties_schema).items()
        if schema.support_status.status != HIDDEN and schema.implemented
    }
    hot = template_type == "hot"
    parameters = {
        name: _hot_parameter(schema) if hot else _cfn_parameter(schema)
        for name, schema in visible.items()
    }
    properties = {
        name: {"get_param": name} if hot else _cfn_property(name, schema)
        for name, schema in visible.items()
    }
    resource_name = resource_class.__name__
    outputs = Attributes.as_outputs(resource_name, resource_class, template_type)
    description = f"Initial template of {resource_name}"
    if hot:
        return {
            "heat_template_version": "2016-10-14",
            "description": description,
            "parameters": parameters,
            "outputs": outputs,
            "resources": {resource_name: {"type": type_name, "properties": properties}},
        }
    return {
        "HeatTemplateFormatVersion": "2012-12-12",
        "Description": description,
        "Parameters": parameters,
        "Resources": {resource_name: {"Type": type_name, "Properties": properties}},
        "Outputs": outputs,
    }


def generate_template(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    type_name: str,
    template_type: str = "cfn",
    environment: Any = None,
) -> dict[str, Any]:
    enforce_resource_type(context, settings, type_name)
    environment = environment if environment is not None else global_environment.global_env()
    try:
        resource_class = environment.get_class(type_name)
    except exception.NotFound:
        raise exception.InvalidGlobalResource(type_name=type_name) from None
    if resource_class.support_status.status == HIDDEN:
        raise exception.NotSupported(feature=type_name)
    return resource_to_template(resource_class, type_name, template_type)
