from __future__ import annotations

import pytest

from keel_app.engine.environment import format as env_format


def test_parse_reads_every_section() -> None:
    text = """
parameters: {a: 1}
parameter_defaults: {b: two}
resource_registry: {"My::Thing": "OS::Heat::None"}
encrypted_param_names: [a]
event_sinks: [{type: zaqar-queue, target: q}]
parameter_merge_strategies: {default: merge}
"""
    assert env_format.parse(text) == {
        "parameters": {"a": 1},
        "parameter_defaults": {"b": "two"},
        "resource_registry": {"My::Thing": "OS::Heat::None"},
        "encrypted_param_names": ["a"],
        "event_sinks": [{"type": "zaqar-queue", "target": "q"}],
        "parameter_merge_strategies": {"default": "merge"},
    }


@pytest.mark.parametrize("text", [None, "", "# only a comment\n", "null"])
def test_nothing_is_an_empty_environment(text: str | None) -> None:
    assert env_format.parse(text) == {}


def test_dates_stay_text() -> None:
    assert env_format.parse("parameters: {day: 2013-05-23}") == {
        "parameters": {"day": "2013-05-23"}
    }


@pytest.mark.parametrize("text", ["- a\n- b\n", "plain words", "42"])
def test_a_document_that_is_not_a_mapping_is_refused(text: str) -> None:
    with pytest.raises(ValueError) as raised:
        env_format.parse(text)
    assert str(raised.value) == "The environment is not a valid YAML mapping data type."


def test_unknown_section_is_named() -> None:
    with pytest.raises(ValueError) as raised:
        env_format.parse("parameters: {}\nresource_registy: {}\n")
    assert str(raised.value) == 'environment has wrong section "resource_registy"'


def test_empty_section_is_named() -> None:
    with pytest.raises(ValueError) as raised:
        env_format.validate({"parameters": {}, "event_sinks": None})
    assert str(raised.value) == 'environment has empty section "event_sinks"'


def test_yaml_error_quotes_the_snippet() -> None:
    with pytest.raises(ValueError) as raised:
        env_format.parse("parameters:\n  a: [1, 2\nresource_registry: {}\n")
    message = str(raised.value)
    assert message.startswith("while parsing a flow sequence")
    assert '"<unicode string>", line 2, column 6' in message


def test_default_for_missing_adds_all_but_merge_strategies() -> None:
    environment = {"parameters": {"a": 1}}
    env_format.default_for_missing(environment)
    assert environment == {
        "parameters": {"a": 1},
        "resource_registry": {},
        "parameter_defaults": {},
        "encrypted_param_names": [],
        "event_sinks": [],
    }
