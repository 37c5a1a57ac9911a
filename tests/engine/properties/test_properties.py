"""Reading and validating property values: coercion, defaults, nesting and Heat's messages."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.common.exception import StackValidationFailed
from keel_app.engine import constraints
from keel_app.engine.properties import Properties, Property, Schema

SCHEMA = {
    "size": Schema(Schema.INTEGER, default=4, constraints=[constraints.Range(1, 10)]),
    "name": Schema(Schema.STRING, required=True),
    "ratio": Schema(Schema.NUMBER),
    "enabled": Schema(Schema.BOOLEAN, default=False),
    "tags": Schema(Schema.LIST, schema=Schema(Schema.STRING)),
    "limits": Schema(
        Schema.MAP, schema={"cpu": Schema(Schema.INTEGER, constraints=[constraints.Range(1, 4)])}
    ),
    "anything": Schema(Schema.ANY),
}


def failure(data: dict[str, Any], with_value: bool = True) -> str:
    properties = Properties(SCHEMA, data, section="Properties")
    with pytest.raises(StackValidationFailed) as raised:
        properties.validate(with_value=with_value)
    return str(raised.value)


def test_valid_values_are_coerced() -> None:
    properties = Properties(
        SCHEMA,
        {"name": 7, "size": "5", "ratio": "0.5", "enabled": "TRUE", "tags": ["a"], "limits": {}},
    )
    properties.validate()
    assert dict(properties) == {
        "size": 5,
        "name": "7",
        "ratio": 0.5,
        "enabled": True,
        "tags": ["a"],
        "limits": {"cpu": None},
        "anything": None,
    }


def test_unknown_property() -> None:
    assert failure({"name": "x", "colour": "red"}) == (
        "Property error: Properties: Unknown Property colour"
    )


def test_unknown_property_is_found_without_values() -> None:
    assert failure({"colour": "red"}, with_value=False) == (
        "Property error: Properties: Unknown Property colour"
    )


def test_missing_required_property_has_no_property_path() -> None:
    assert failure({}) == "Property error: Properties: Property name not assigned"


def test_values_are_not_checked_without_with_value() -> None:
    Properties(SCHEMA, {"size": 99}, section="Properties").validate(with_value=False)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"size": 11}, "Properties.size: 11 is out of range (min: 1, max: 10)"),
        ({"size": "big"}, "Properties.size: Value 'big' is not an integer"),
        ({"ratio": "half"}, "Properties.ratio: could not convert string to float: 'half'"),
        ({"enabled": "yes"}, 'Properties.enabled: "yes" is not a valid boolean'),
        ({"enabled": 1}, 'Properties.enabled: "1" is not a valid boolean'),
        ({"name": 1.5}, "Properties.name: Value must be a string; got 1.5"),
        ({"tags": "a"}, "Properties.tags: \"'a'\" is not a list"),
        ({"tags": [["a"]]}, "Properties.tags[0]: Value must be a string; got ['a']"),
        ({"limits": []}, 'Properties.limits: "[]" is not a map'),
        ({"limits": {"cpu": 5}}, "Properties.limits.cpu: 5 is out of range (min: 1, max: 4)"),
        ({"limits": {"ram": 5}}, "Properties.limits: Unknown Property ram"),
    ],
)
def test_bad_values_name_their_path(data: dict[str, Any], message: str) -> None:
    assert failure({"name": "x", **data}) == f"Property error: {message}"


def test_integer_truncates_floats_as_int_does() -> None:
    assert Properties(SCHEMA, {"size": 3.9})["size"] == 3


def test_falsy_default_gives_the_empty_value() -> None:
    prop = Property(Schema(Schema.STRING, default=""))
    assert prop.get_value(None) == ""


def test_missing_optional_property_is_none() -> None:
    assert Properties(SCHEMA, {})["ratio"] is None


def test_unknown_key_lookup_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        Properties(SCHEMA, {})["colour"]


def test_description_property_falls_back_to_resource_description() -> None:
    schema = {"description": Schema(Schema.STRING, update_allowed=True)}
    properties = Properties(schema, {}, rsrc_description="From the template.")
    assert properties["description"] == "From the template."


def test_resolver_errors_read_as_bad_values() -> None:
    def resolver(value: Any, nullable: bool = False) -> Any:
        raise KeyError("boom")

    properties = Properties({"a": Schema(Schema.STRING)}, {"a": 1}, resolver, section="Properties")
    with pytest.raises(StackValidationFailed) as raised:
        properties.validate()
    assert str(raised.value) == "Property error: Properties.a: 'boom'"


def test_ellipsis_means_not_given() -> None:
    def resolver(value: Any, nullable: bool = False) -> Any:
        return Ellipsis

    properties = Properties({"a": Schema(Schema.INTEGER, default=2)}, {"a": 9}, resolver)
    assert properties["a"] == 2


def test_unimplemented_property_given() -> None:
    schema = {"old": Schema(Schema.STRING, implemented=False)}
    properties = Properties(schema, {"old": "x"}, section="Properties")
    with pytest.raises(StackValidationFailed) as raised:
        properties.validate()
    assert str(raised.value) == "Property error: Properties: Property old not implemented yet"


def test_json_parameter_through_map_property_keeps_text_or_dumps_list() -> None:
    prop = Property(Schema(Schema.MAP, allow_conversion=True))
    assert prop.get_value("{}") == "{}"
    assert prop.get_value([1, 2]) == "[1, 2]"


def test_list_property_from_comma_text_with_conversion() -> None:
    prop = Property(Schema(Schema.LIST, allow_conversion=True))
    assert prop.get_value("a, b") == ["a", "b"]


def test_property_paths() -> None:
    assert Property.make_path("cpu", "limits") == "limits.cpu"
    assert Property.make_path(0, "tags") == "tags.0"
    assert Property.make_path("a") == "a"
