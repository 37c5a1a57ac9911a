"""The engine's own simple types: RandomString, Value, Delay, TestResource, None, AccessPolicy."""

from __future__ import annotations

import pytest

from keel_app.common.exception import StackValidationFailed
from keel_app.engine.environment.support import HIDDEN
from keel_app.resources.heat import placeholders
from keel_app.resources.heat.random_string import RandomString
from keel_app.resources.heat.testing import TestResource
from tests.resources.heat.stacks import build


def test_random_string_minimums_must_fit_in_the_length() -> None:
    stack = build(
        "  r:\n"
        "    type: OS::Heat::RandomString\n"
        "    properties: {length: 3, character_sequences: [{sequence: ab, min: 3}]}\n"
    )
    with pytest.raises(StackValidationFailed) as raised:
        stack["r"].validate()
    assert str(raised.value) == (
        "Length property cannot be smaller than combined character class and character "
        "sequence minimums"
    )


def test_random_string_old_sequence_becomes_a_character_class() -> None:
    stack = build("  r: {type: OS::Heat::RandomString, properties: {sequence: digits}}\n")
    assert stack["r"].properties["character_classes"] == [{"class": "digits", "min": 1}]
    assert stack["r"].properties["sequence"] is None


def test_random_string_hides_the_old_property_from_the_schema() -> None:
    assert RandomString.properties_schema["sequence"].support_status.status == HIDDEN


def test_value_type_retypes_the_value() -> None:
    stack = build("  v: {type: OS::Heat::Value, properties: {value: '2', type: number}}\n")
    assert stack["v"].properties["value"] == 2


def test_delay_beyond_the_stack_timeout() -> None:
    stack = build("  d: {type: OS::Heat::Delay, properties: {min_wait: 3000, max_jitter: 700}}\n")
    with pytest.raises(StackValidationFailed) as raised:
        stack["d"].validate()
    assert str(raised.value) == "OS::Heat::Delay maximum delay 3700.0s exceeds stack timeout.: "


def test_delay_not_checked_against_timeout_without_strict_validation() -> None:
    stack = build("  d: {type: OS::Heat::Delay, properties: {min_wait: 9999}}\n", strict=False)
    assert stack["d"].validate() is None


def test_test_resource_is_not_collected_as_a_test() -> None:
    assert TestResource.__test__ is False
    stack = build("  t: {type: OS::Heat::TestResource, properties: {fail: true}}\n")
    assert stack["t"].properties["fail"] is True


def test_none_ignores_every_property() -> None:
    stack = build("  n: {type: OS::Heat::None, properties: {a: 1}}\n")
    assert dict(stack["n"].properties) == {}
    assert stack["n"].validate() is None
    assert stack["n"].get_attribute("anything") is None


def test_placeholders_are_hidden_none_resources() -> None:
    pool = placeholders.OSNeutronLBaaSPool
    assert pool.support_status.status == HIDDEN
    assert pool.support_status.message == "Use octavia instead."
    assert len(placeholders.PLACEHOLDER_CLASSES) == 32
    with pytest.raises(AttributeError):
        placeholders.NoSuchPlaceholder  # noqa: B018


def test_access_policy_names_must_be_in_the_stack() -> None:
    stack = build(
        "  p: {type: OS::Heat::AccessPolicy, properties: {AllowedResources: [p, ghost]}}\n"
    )
    with pytest.raises(StackValidationFailed) as raised:
        stack["p"].validate()
    assert str(raised.value) == "AccessPolicy resource ghost not in stack"
    assert stack["p"].access_allowed("p")
