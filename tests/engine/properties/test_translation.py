"""Translation rules: moving deprecated property values to their replacements."""

from __future__ import annotations

import pytest

from keel_app.common.exception import StackValidationFailed
from keel_app.engine.properties import Properties, Schema, TranslationRule

SCHEMA = {
    "networks": Schema(Schema.LIST),
    "network": Schema(Schema.STRING),
    "subnet": Schema(Schema.STRING),
    "subnet_id": Schema(Schema.STRING),
}


def with_rules(data: dict[str, object], *rules: tuple) -> Properties:
    properties = Properties(SCHEMA, data)
    properties.update_translation(
        [TranslationRule(properties, *rule) for rule in rules], client_resolve=False
    )
    return properties


def test_add_appends_a_value_to_a_list() -> None:
    properties = with_rules({"networks": ["a"]}, (TranslationRule.ADD, ["networks"], ["b"]))
    assert properties["networks"] == ["a", "b"]


def test_add_takes_another_property() -> None:
    properties = with_rules(
        {"network": "n"}, (TranslationRule.ADD, ["networks"], None, None, ["network"])
    )
    assert properties["networks"] == ["n"]


def test_replace_moves_the_old_property_to_the_new() -> None:
    properties = with_rules(
        {"subnet_id": "s"}, (TranslationRule.REPLACE, ["subnet"], None, None, ["subnet_id"])
    )
    properties.validate()
    assert (properties["subnet"], properties["subnet_id"]) == ("s", None)


def test_replace_refuses_both_properties() -> None:
    properties = with_rules(
        {"subnet": "a", "subnet_id": "b"},
        (TranslationRule.REPLACE, ["subnet"], None, None, ["subnet_id"]),
    )
    with pytest.raises(StackValidationFailed) as raised:
        properties.validate()
    assert str(raised.value) == (
        "Property error: subnet: Cannot define the following properties at the same time: "
        "subnet, subnet_id"
    )


def test_delete_hides_the_property() -> None:
    properties = with_rules({"network": 5}, (TranslationRule.DELETE, ["network"]))
    properties.validate()
    assert properties["network"] is None


def test_resolve_rules_are_skipped_without_client_resolve() -> None:
    class Finder:
        @staticmethod
        def find(value: str) -> str:
            return value.upper()

    properties = Properties(SCHEMA, {"network": "private"})
    rule = TranslationRule(
        properties, TranslationRule.RESOLVE, ["network"], None, None, None, Finder, "find"
    )
    properties.update_translation([rule], client_resolve=False)
    assert properties["network"] == "private"
    properties.update_translation([rule], client_resolve=True)
    assert properties["network"] == "PRIVATE"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ("Move", ["a"]),
            "There is no rule Move. List of allowed rules is: Add, Replace, Delete, Resolve.",
        ),
        (("Add", []), '"translation_path" should be non-empty list with path to translate.'),
        (("Add", ["a"], "x"), '"value" must be list type when rule is Add.'),
        (("Resolve", ["a"]), '"client_plugin" and "finder" should be specified for Resolve rule'),
        (
            ("Replace", ["a"], "x", "b"),
            '"value_path", "value" and "value_name" are mutually exclusive and cannot be '
            "specified at the same time.",
        ),
    ],
)
def test_rule_validation_messages(arguments: tuple, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        TranslationRule(None, *arguments)
    assert str(raised.value) == message


def test_rules_apply_in_heat_order() -> None:
    rules = [
        TranslationRule(None, TranslationRule.DELETE, ["a"]),
        TranslationRule(None, TranslationRule.RESOLVE, ["a"], finder="f", client_plugin=object()),
        TranslationRule(None, TranslationRule.ADD, ["a"], ["x"]),
        TranslationRule(None, TranslationRule.REPLACE, ["a"], "v"),
    ]
    assert [rule.rule for rule in sorted(rules)] == ["Add", "Replace", "Resolve", "Delete"]
