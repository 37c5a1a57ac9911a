"""What the corpus cannot show: stack ids set later, typed access, service constraints."""

from __future__ import annotations

import pytest

from keel_app.common.exception import StackValidationFailed
from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.template import Template
from keel_app.engine.template.parameters import (
    CfnParameters,
    CommaDelimitedListParam,
    HOTParameters,
    HOTParamSchema,
    JsonParam,
    NumberParam,
    Parameter,
)

IDENTITY = HeatIdentifier("tenant-1", "web", "5f1c")


def hot_template(parameters: dict) -> Template:
    return Template({"heat_template_version": "2013-05-23", "parameters": parameters})


def test_hot_stack_id_is_set_once_the_stack_has_one() -> None:
    params = hot_template({}).parameters(None, {})
    assert isinstance(params, HOTParameters)
    assert params["OS::stack_id"] == ""
    assert params.set_stack_id(IDENTITY) is True
    assert params["OS::stack_id"] == "5f1c"


def test_cfn_stack_id_is_the_stacks_arn() -> None:
    params = Template({"AWSTemplateFormatVersion": "2010-09-09"}).parameters(None, {})
    assert isinstance(params, CfnParameters)
    assert params["AWS::StackId"] == "None"
    params.set_stack_id(IDENTITY)
    assert params["AWS::StackId"] == "arn:openstack:heat::tenant-1:stacks/web/5f1c"


def test_setting_no_stack_id_changes_nothing() -> None:
    params = hot_template({}).parameters(IDENTITY, {})
    assert params.set_stack_id(None) is False
    assert params["OS::stack_id"] == "5f1c"


def test_parameter_from_a_cfn_definition_is_typed_by_it() -> None:
    parameter = Parameter("Count", {"Type": "Number", "Default": "3"})
    assert isinstance(parameter, NumberParam)
    assert (int(parameter), float(parameter)) == (3, 3.0)


def test_list_parameter_reads_as_a_sequence() -> None:
    schema = HOTParamSchema.from_dict("names", {"type": "comma_delimited_list"})
    parameter = Parameter("names", schema, "a,b,c")
    assert isinstance(parameter, CommaDelimitedListParam)
    assert (len(parameter), parameter[1], list(parameter)) == (3, "b", ["a", "b", "c"])
    assert "c" in parameter


def test_json_parameter_reads_as_its_document() -> None:
    schema = HOTParamSchema.from_dict("settings", {"type": "json"})
    parameter = Parameter("settings", schema, '{"size": 2, "zone": "a"}')
    assert isinstance(parameter, JsonParam)
    assert (len(parameter), parameter["size"], sorted(parameter)) == (2, 2, ["size", "zone"])


def test_unknown_type_of_a_ready_schema_is_refused() -> None:
    schema = HOTParamSchema.from_dict("x", {"type": "string"})
    schema.type = "float"
    with pytest.raises(ValueError, match='Invalid Parameter type "float"'):
        Parameter("x", schema)


def test_service_constraint_without_a_client_makes_the_value_invalid() -> None:
    template = hot_template(
        {"flavor": {"type": "string", "constraints": [{"custom_constraint": "nova.flavor"}]}}
    )
    params = template.parameters(IDENTITY, {"flavor": "m1.small"})
    params.validate(validate_value=False)
    with pytest.raises(StackValidationFailed) as raised:
        params.validate(validate_value=True)
    assert str(raised.value) == (
        "Parameter 'flavor' is invalid: "
        "Error validating value 'm1.small': The client (nova) is not available."
    )
