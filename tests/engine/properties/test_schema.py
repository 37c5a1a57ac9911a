"""Property schemata: construction checks, the legacy and parameter forms, the dict form."""

from __future__ import annotations

import pytest

from keel_app.common.exception import InvalidSchemaError, StackValidationFailed
from keel_app.engine import constraints
from keel_app.engine.properties import Schema, schemata
from keel_app.engine.template.parameters import HOTParamSchema


def test_dict_form_lists_keys_in_heat_order() -> None:
    schema = Schema(
        Schema.INTEGER,
        "How many.",
        default=3,
        constraints=[constraints.Range(1, 5)],
        update_allowed=True,
    )
    assert list(dict(schema).items()) == [
        ("type", "integer"),
        ("description", "How many."),
        ("default", 3),
        ("required", False),
        ("constraints", [{"range": {"min": 1, "max": 5}}]),
        ("update_allowed", True),
        ("immutable", False),
    ]


def test_update_allowed_and_immutable_exclude_each_other() -> None:
    with pytest.raises(InvalidSchemaError) as raised:
        Schema(Schema.STRING, update_allowed=True, immutable=True)
    assert str(raised.value) == "Options UpdateAllowed and Immutable cannot both be True"


def test_default_must_obey_the_constraints() -> None:
    # Heat only turns ValueError/TypeError into InvalidSchemaError; a constraint's own
    # failure escapes as it is.
    with pytest.raises(StackValidationFailed) as raised:
        Schema(Schema.INTEGER, default=0, constraints=[constraints.Range(min=1)])
    assert str(raised.value) == "0 is out of range (min: 1, max: None)"


def test_constraint_must_suit_the_type() -> None:
    with pytest.raises(InvalidSchemaError) as raised:
        Schema(Schema.BOOLEAN, constraints=[constraints.Length(min=1)])
    assert str(raised.value) == "Length constraint invalid for Boolean"


def test_legacy_mapping_becomes_schema_with_constraints() -> None:
    schema = Schema.from_legacy(
        {
            "Type": "String",
            "Required": True,
            "AllowedValues": ["a", "b"],
            "MinLength": "1",
            "UpdateAllowed": True,
        }
    )
    assert dict(schema) == {
        "type": "string",
        "required": True,
        "constraints": [{"length": {"min": 1}}, {"allowed_values": ["a", "b"]}],
        "update_allowed": True,
        "immutable": False,
    }


def test_legacy_nested_list_and_map_schemata() -> None:
    listed = Schema.from_legacy({"Type": "List", "Schema": {"Type": "Integer"}})
    mapped = Schema.from_legacy({"Type": "Map", "Schema": {"a": {"Type": "Boolean"}}})
    assert dict(listed)["schema"]["*"]["type"] == "integer"
    assert dict(mapped)["schema"]["a"]["type"] == "boolean"


def test_legacy_unknown_key_and_missing_type() -> None:
    with pytest.raises(InvalidSchemaError) as unknown:
        Schema.from_legacy({"Type": "String", "Size": 3})
    with pytest.raises(InvalidSchemaError) as untyped:
        Schema.from_legacy({"Required": True})
    assert str(unknown.value) == "Unknown key(s) ['Size']"
    assert str(untyped.value) == "No Type specified"


def test_legacy_schema_for_a_scalar_is_refused() -> None:
    with pytest.raises(InvalidSchemaError) as raised:
        Schema.from_legacy({"Type": "String", "Schema": {"Type": "String"}})
    assert str(raised.value) == "Schema supplied for Type String"


def test_schema_object_passes_through_from_legacy() -> None:
    schema = Schema(Schema.MAP)
    assert Schema.from_legacy(schema) is schema


def test_from_parameter_makes_an_updatable_facade_property() -> None:
    parameter = HOTParamSchema.from_dict(
        "names", {"type": "comma_delimited_list", "description": "Names."}
    )
    schema = Schema.from_parameter(parameter)
    assert (schema.type, schema.description, schema.update_allowed) == (
        Schema.LIST,
        "Names.",
        True,
    )
    assert schema.allow_conversion is True


def test_schemata_converts_every_entry() -> None:
    converted = schemata({"a": {"Type": "Number"}, "b": Schema(Schema.STRING)})
    assert {name: item.type for name, item in converted.items()} == {"a": "Number", "b": "String"}
