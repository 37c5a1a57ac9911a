"""Scenario: RandomString's value follows its properties and is what others read of it."""

from __future__ import annotations

from keel_app.common import crypt
from tests.engine.convergence.harness import Engine

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "secret": {
            "type": "OS::Heat::RandomString",
            "properties": {
                "length": 20,
                "character_classes": [{"class": "digits", "min": 5}],
                "character_sequences": [{"sequence": "*#", "min": 3}],
            },
        },
        "reader": {
            "type": "OS::Heat::Value",
            "properties": {
                "value": {"get_attr": ["secret", "value"]},
            },
        },
        "referrer": {
            "type": "OS::Heat::Value",
            "properties": {"value": {"get_resource": "secret"}},
        },
    },
}


def test_value_has_the_length_and_the_characters_asked_for(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    rows = {row.name: row for row in engine.resources(stack_id)}
    [stored] = engine.resource_data(rows["secret"].id)
    value = crypt.decrypt(stored.decrypt_method, stored.value, engine.settings.auth_encryption_key)
    assert value is not None and len(value) == 20
    assert set(value) <= set("0123456789*#")
    assert sum(character in "*#" for character in value) >= 3
    assert sum(character.isdigit() for character in value) >= 5


def test_get_attr_and_get_resource_both_read_the_value(engine: Engine) -> None:
    stack_id = engine.create(TEMPLATE)

    rows = {row.name: row for row in engine.resources(stack_id)}
    [stored] = engine.resource_data(rows["secret"].id)
    value = crypt.decrypt(stored.decrypt_method, stored.value, engine.settings.auth_encryption_key)
    assert engine.properties_data(rows["reader"]) == {"value": value}
    assert engine.properties_data(rows["referrer"]) == {"value": value}
