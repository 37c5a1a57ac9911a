from __future__ import annotations

from typing import Any

import pytest

from keel_app.common.exception import ConflictingMergeStrategyForParam, InvalidMergeStrategyForParam
from keel_app.engine.environment import format as env_format
from keel_app.engine.environment.merge import (
    get_param_merge_strategy,
    merge_environments,
    merge_list,
    merge_map,
    merge_parameters,
)
from keel_app.engine.template import Template
from keel_app.engine.template.format import parse as parse_template

TEMPLATE = """
heat_template_version: 2018-08-31
parameters:
  name: {type: string}
  count: {type: number}
  zones: {type: comma_delimited_list}
  settings: {type: json}
  enabled: {type: boolean}
"""


def schemata() -> dict[str, Any]:
    return Template(parse_template(TEMPLATE)).param_schemata()


def empty_environment() -> dict[str, Any]:
    environment: dict[str, Any] = {}
    env_format.default_for_missing(environment)
    return environment


def test_strategy_of_the_parameter_then_the_chosen_one_then_the_default() -> None:
    strategies = {"default": "merge", "a": "deep_merge"}
    assert get_param_merge_strategy(strategies, "a", {"a": "overwrite"}) == "deep_merge"
    assert get_param_merge_strategy(strategies, "b", {"b": "overwrite"}) == "overwrite"
    assert get_param_merge_strategy(strategies, "c") == "merge"
    assert get_param_merge_strategy(None, "c") == "overwrite"


def test_unknown_strategy_falls_back_to_the_file_default_unchecked() -> None:
    assert get_param_merge_strategy({"a": "append"}, "a") == "overwrite"
    assert get_param_merge_strategy({"default": "append", "a": "nope"}, "a") == "append"


def test_merge_list_extends_lists_and_joins_text() -> None:
    assert merge_list(["a"], ["b", "c"]) == ["a", "b", "c"]
    assert merge_list("a,b", "c") == "a,b,c"
    assert merge_list(None, ["x"]) == ["x"]


def test_shallow_map_merge_replaces_values_and_skips_none() -> None:
    merged = merge_map({"a": {"x": 1}, "b": 1}, {"a": {"y": 2}, "b": None, "c": 3})
    assert merged == {"a": {"y": 2}, "b": 1, "c": 3}


def test_deep_map_merge_recurses_extends_and_joins() -> None:
    old = {"tree": {"left": 1}, "items": [1], "text": "ab", "n": 1}
    new = {"tree": {"right": 2}, "items": [2], "text": "cd", "n": 5, "fresh": {"z": 0}}
    assert merge_map(old, new, deep_merge=True) == {
        "tree": {"left": 1, "right": 2},
        "items": [1, 2],
        "text": "abcd",
        "n": 5,
        "fresh": {"z": 0},
    }


def test_parameters_merge_by_type() -> None:
    old = {"name": "web", "zones": ["a"], "settings": {"x": 1}}
    new = {"name": "-1", "zones": ["b"], "settings": {"y": 2}}
    strategies: dict[str, Any] = {}
    merged = merge_parameters(old, new, schemata(), {"default": "merge"}, strategies, "b.yaml")
    assert merged == {"name": "web-1", "zones": ["a", "b"], "settings": {"x": 1, "y": 2}}
    assert strategies == {"name": "merge", "zones": "merge", "settings": "merge"}


def test_first_values_are_taken_whole_later_unknown_ones_dropped() -> None:
    strategies: dict[str, Any] = {}
    first = merge_parameters({}, {"name": "a", "stranger": 1}, schemata(), {}, strategies, "a")
    assert first == {"name": "a", "stranger": 1}
    second = merge_parameters(first, {"name": "b", "other": 2}, schemata(), {}, strategies, "b")
    assert second == {"name": "b", "stranger": 1}


def test_boolean_cannot_be_merged() -> None:
    with pytest.raises(InvalidMergeStrategyForParam) as raised:
        merge_parameters(
            {"enabled": "true"},
            {"enabled": "false"},
            schemata(),
            {"enabled": "deep_merge"},
            {},
            "x",
        )
    assert str(raised.value) == "Invalid merge strategy 'merge' for parameter 'enabled'."


def test_number_value_is_not_a_sequence() -> None:
    with pytest.raises(ValueError) as raised:
        merge_parameters({"count": 1}, {"count": 2}, schemata(), {"count": "merge"}, {}, "x")
    assert str(raised.value) == "Invalid parameter in environment ."


def test_json_text_that_is_not_json() -> None:
    with pytest.raises(ValueError) as raised:
        merge_parameters(
            {"settings": {"a": 1}}, {"settings": "{oops"}, schemata(), {"default": "merge"}, {}, "x"
        )
    assert str(raised.value) == (
        "Invalid parameter in environment "
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)."
    )


def test_conflicting_strategies_name_the_file() -> None:
    files = {
        "a.yaml": "parameters: {name: abc}",
        "b.yaml": "parameter_merge_strategies: {name: merge}\nparameters: {name: def}",
    }
    with pytest.raises(ConflictingMergeStrategyForParam) as raised:
        merge_environments(["a.yaml", "b.yaml"], files, empty_environment(), schemata())
    assert str(raised.value) == (
        "Conflicting merge strategy 'merge' for parameter 'name' in file 'b.yaml'."
    )


def test_files_merge_in_the_order_given() -> None:
    files = {
        "a.yaml": "parameter_defaults: {name: one, count: 1}\nresource_registry: {'A': 'B'}",
        "b.yaml": "parameter_defaults: {name: two}\nresource_registry: {'A': 'C', 'D': 'E'}",
    }
    environment = empty_environment()
    merge_environments(["b.yaml", "a.yaml"], files, environment, schemata())
    assert environment["parameter_defaults"] == {"name": "one", "count": 1}
    assert environment["resource_registry"] == {"A": "B", "D": "E"}


def test_no_files_changes_nothing() -> None:
    environment = empty_environment()
    merge_environments(None, {}, environment, schemata())
    assert environment == empty_environment()
