"""Attribute schemata and the attributes of a resource type."""

from __future__ import annotations

import pytest

from keel_app.engine.environment.support import HIDDEN, SupportStatus
from keel_app.engine.resource import Attributes, AttributeSchema, Resource
from keel_app.engine.resource.attributes import BASE_ATTRIBUTES_SCHEMA


def test_dict_form_has_description_and_lower_case_type() -> None:
    schema = AttributeSchema("The name.", type=AttributeSchema.STRING)
    assert dict(schema) == {"description": "The name.", "type": "string"}


def test_untyped_attribute_has_no_type_key() -> None:
    assert dict(AttributeSchema("Anything.")) == {"description": "Anything."}


def test_show_is_the_base_attribute() -> None:
    assert dict(BASE_ATTRIBUTES_SCHEMA["show"]) == {
        "description": "Detailed information about resource.",
        "type": "map",
    }
    assert BASE_ATTRIBUTES_SCHEMA["show"].cache_mode == AttributeSchema.CACHE_NONE


def test_old_style_schema_is_refused() -> None:
    with pytest.raises(AssertionError):
        AttributeSchema.from_attribute("a description")


def test_cache_mode_defaults_to_local_for_unknown_names() -> None:
    attributes = Attributes(
        "r", {"a": AttributeSchema("A.", cache_mode=AttributeSchema.CACHE_NONE)}
    )
    assert attributes.get_cache_mode("a") == AttributeSchema.CACHE_NONE
    assert attributes.get_cache_mode("b") == AttributeSchema.CACHE_LOCAL


def test_as_outputs_exposes_visible_attributes_and_the_stack_id() -> None:
    class Plugin(Resource):
        attributes_schema = {
            "name": AttributeSchema("Name."),
            "old": AttributeSchema("Old.", support_status=SupportStatus(HIDDEN)),
        }

    assert Attributes.as_outputs("thing", Plugin, "hot") == {
        "name": {"value": {"get_attr": ["thing", "name"]}, "description": "Name."},
        "show": {
            "value": {"get_attr": ["thing", "show"]},
            "description": "Detailed information about resource.",
        },
        "OS::stack_id": {"value": {"get_resource": "thing"}},
    }
    assert Attributes.as_outputs("thing", Plugin)["OS::stack_id"] == {"Value": {"Ref": "thing"}}
