"""The generic schema and each constraint, against Heat's ``heat.engine.constraints``.

Each case builds a schema (type, constraints, default, nested schema) on both sides and
reports its mapping form, its constraints' wording, ``validate()``, the value converted to
the schema's type and the value checked against the constraints.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from keel_app.engine import constraints
from tests import oracle

CASES: list[dict[str, Any]] = [
    {"type": "Integer", "value": "12"},
    {"type": "Integer", "value": "1.5"},
    {"type": "Integer", "value": 3.0},
    {"type": "Number", "value": "2.75", "constraints": [["Range", [0, 2, None]]]},
    {"type": "Number", "value": 5, "constraints": [["Modulo", [2, 1, "Odd numbers."]]]},
    {"type": "String", "value": 12, "constraints": [["AllowedValues", [["12", "13"], None]]]},
    {"type": "String", "value": "abc", "constraints": [["Length", [4, None, None]]]},
    {"type": "String", "value": "x9", "constraints": [["AllowedPattern", ["[a-z][0-9]", None]]]},
    {"type": "String", "value": "x", "constraints": [["CustomConstraint", ["dns_name", None]]]},
    {"type": "String", "value": "x_", "constraints": [["CustomConstraint", ["dns_name", "DNS!"]]]},
    {"type": "String", "value": "x", "constraints": [["CustomConstraint", ["nothing", None]]]},
    {"type": "Boolean", "value": "on", "constraints": [["AllowedValues", [[True], None]]]},
    {"type": "Boolean", "value": "maybe"},
    {"type": "Map", "value": {"a": 1}, "constraints": [["Length", [None, 0, None]]]},
    {"type": "List", "value": ["a", "b"], "constraints": [["AllowedValues", [["a"], None]]]},
    {"type": "List", "value": [], "constraints": [["Range", [1, None, None]]]},
    {"type": "Any", "value": None},
    {"type": "Integer", "default": "x", "constraints": [["Range", [1, 5, None]]]},
    {"type": "Integer", "default": 9, "constraints": [["Range", [1, 5, None]]]},
    {"type": "Integer", "default": 9, "constraints": [["CustomConstraint", ["ip_addr", None]]]},
    {"type": "Number", "constraints": [["Range", [None, None, None]]]},
    {"type": "Number", "constraints": [["Range", ["1", None, None]]]},
    {"type": "String", "constraints": [["Length", [1.0, None, None]]]},
    {"type": "Number", "constraints": [["Modulo", [None, 1, None]]]},
    {"type": "Number", "constraints": [["Modulo", [4, "1", None]]]},
    {"type": "Number", "constraints": [["Modulo", [4, -1, None]]]},
    {"type": "String", "constraints": [["AllowedValues", ["abc", None]]]},
    {"type": "String", "constraints": [["AllowedPattern", [["a"], None]]]},
    {"type": "Float"},
    {"type": "List", "schema": {"type": "String"}, "value": ["a"]},
    {"type": "String", "schema": {"type": "String"}},
    {"type": "Map", "schema": {"type": "String"}},
    {"type": "List", "schema": {"type": "Integer", "default": 7, "description": "item"}},
]

BUILD_SOURCE = """
def build(constraints_module, case):
    def constraint(kind, arguments):
        return getattr(constraints_module, kind)(*arguments)

    nested = None
    if "schema" in case:
        nested = constraints_module.Schema(
            case["schema"]["type"],
            description=case["schema"].get("description"),
            default=case["schema"].get("default"),
        )
    return constraints_module.Schema(
        case["type"],
        default=case.get("default"),
        schema=nested,
        constraints=[constraint(kind, args) for kind, args in case.get("constraints", [])],
    )


def outcome(thunk):
    try:
        return {"value": thunk()}
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}


def describe(constraints_module, case):
    built = outcome(lambda: build(constraints_module, case))
    if "error" in built:
        return {"build": built}
    schema = built["value"]
    return {
        "mapping": outcome(lambda: dict(schema)),
        "wording": outcome(lambda: [str(item) for item in schema.constraints]),
        "validate": outcome(lambda: schema.validate()),
        "typed": outcome(lambda: schema.to_schema_type(case.get("value"))),
        "checked": outcome(lambda: schema.validate_constraints(case.get("value"))),
    }
"""

HEAT_SOURCE = (
    """
import json, sys, warnings
warnings.simplefilter("ignore")
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.engine import constraints, resources
resources.initialise()
"""
    + BUILD_SOURCE
    + """
print(json.dumps([describe(constraints, case) for case in json.loads(sys.argv[1])]))
"""
)


def answers_from_keel() -> list[Any]:
    namespace: dict[str, Any] = {}
    exec(BUILD_SOURCE, namespace)  # the very same recipe Heat's side runs
    return [json.loads(json.dumps(namespace["describe"](constraints, case))) for case in CASES]


@pytest.mark.oracle
def test_schemas_and_constraints_behave_as_heats() -> None:
    heat = oracle.run_json(HEAT_SOURCE, json.dumps(CASES))
    ours = answers_from_keel()
    differences = [
        (case, mine, theirs)
        for case, mine, theirs in zip(CASES, ours, heat, strict=True)
        if mine != theirs
    ]
    assert differences == []


def test_list_schema_gives_its_item_schema_for_any_index() -> None:
    item = constraints.Schema(constraints.Schema.STRING)
    listing = constraints.Schema(constraints.Schema.LIST, schema=item)
    assert listing.schema[0] is item
    assert listing.schema["*"] is item
    assert dict(listing)["schema"] == {"*": {"type": "string", "required": False}}
    with pytest.raises(KeyError):
        listing.schema["first"]
