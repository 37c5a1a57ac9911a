"""A template whose functions are wrong is refused with the body Heat's heat-api answers.

heat-api rebuilds the engine's error from the failure oslo.messaging carries, and an
error with a path is re-formatted from its already formatted keywords: its message
repeats the separators (``outputs.out.value.yaql: : Bad expression …``). The same
template goes to our API (create, preview, update, update preview) and, on the same
database, to Heat's engine, whose refusal crosses oslo's serialisation to heat-api's
fault middleware (``heat_engine_faults.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from keel_app.models.database import Database
from tests.web.v1 import heat_engine
from tests.web.v1.conftest import HEADERS, PROJECT, v1
from tests.web.v1.stack_templates import NONE_TEMPLATE, created, stack_path


def _valued(value: Any) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"v": {"type": "OS::Heat::Value", "properties": {"value": value}}},
    }


def _output(value: Any) -> dict[str, Any]:
    return {"heat_template_version": "2018-08-31", "outputs": {"out": {"value": value}}}


DISABLED = {
    "heat_template_version": "2018-08-31",
    "conditions": {"off": False},
    "resources": {
        "d": {"type": "OS::Heat::Value", "condition": "off", "properties": {"value": 1}},
    },
}

TEMPLATES: dict[str, dict[str, Any]] = {
    "yaql": _output({"yaql": {"expression": "$.data.", "data": {}}}),
    "get_param of a missing parameter": _valued({"get_param": "nope"}),
    "list_join": _valued({"list_join": [",", "not a list"]}),
    "repeat": _valued({"repeat": {"for_each": {"x": "a"}, "template": "x"}}),
    "make_url": _valued({"make_url": {"scheme": "http", "host": "h", "bogus": 1}}),
    "if": _valued({"if": ["nocond", 1, 2]}),
    "str_replace_strict": _valued(
        {"str_replace_strict": {"template": "abc", "params": {"x": "y"}}}
    ),
    "get_attr on a disabled resource": {
        **DISABLED,
        "resources": {
            **DISABLED["resources"],
            "v": {"type": "OS::Heat::Value", "properties": {"value": {"get_attr": ["d", "value"]}}},
        },
    },
    "output get_attr on a disabled resource": {
        **DISABLED,
        "outputs": {"out": {"value": {"get_attr": ["d", "value"]}}},
    },
}
CASES = list(TEMPLATES)


def _body(response: Any) -> dict[str, Any]:
    return {"status": response.status_code, **response.get_json()}


def _ours(client: FlaskClient, operation: str, template: dict[str, Any], stack: Any) -> Any:
    body = {"template": template}
    if operation == "create":
        return _body(client.post(v1("stacks"), headers=HEADERS, json={**body, "stack_name": "x"}))
    if operation == "preview":
        path = v1("stacks/preview")
        return _body(client.post(path, headers=HEADERS, json={**body, "stack_name": "x"}))
    if operation == "update":
        return _body(client.put(stack_path(stack), headers=HEADERS, json=body))
    return _body(client.put(stack_path(stack, "/preview"), headers=HEADERS, json=body))


def _heat_call(operation: str, template: dict[str, Any], stack: Any) -> dict[str, Any]:
    common = {"template": template, "params": heat_engine.ENVIRONMENT, "files": {}, "args": {}}
    if operation in ("create", "preview"):
        method = "create_stack" if operation == "create" else "preview_stack"
        return {"method": method, "arguments": {**common, "stack_name": "x"}}
    method = "update_stack" if operation == "update" else "preview_update_stack"
    return {"method": method, "arguments": {**common, "stack_identity": stack}}


def _heats(database: Database, calls: list[dict[str, Any]]) -> list[Any]:
    bodies = heat_engine.fault_bodies(database, PROJECT, calls)
    return [body if body is None else {"status": body["code"], **body} for body in bodies]


OPERATIONS = ("create", "preview", "update", "update preview")


@pytest.mark.oracle
@pytest.mark.parametrize("operation", OPERATIONS)
def test_function_errors_answer_as_heat_api(
    client: FlaskClient, database: Database, run_engine: Any, operation: str
) -> None:
    stack = created(client, "existing", NONE_TEMPLATE)
    run_engine()

    ours = [_ours(client, operation, TEMPLATES[case], stack) for case in CASES]
    heat = _heats(database, [_heat_call(operation, TEMPLATES[case], stack) for case in CASES])

    assert dict(zip(CASES, ours, strict=True)) == dict(zip(CASES, heat, strict=True))


def test_create_repeats_the_separators_of_a_property_error(client: FlaskClient) -> None:
    template = TEMPLATES["str_replace_strict"]

    response = client.post(
        v1("stacks"), headers=HEADERS, json={"template": template, "stack_name": "x"}
    )

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "StackValidationFailed",
        "traceback": None,
        "message": (
            "Property error: : resources.v.properties.value: : "
            "The following params were not found in the template: x"
        ),
    }


def test_create_repeats_the_separator_of_an_output_error(client: FlaskClient) -> None:
    response = client.post(
        v1("stacks"), headers=HEADERS, json={"template": TEMPLATES["yaql"], "stack_name": "x"}
    )

    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == (
        "outputs.out.value.yaql: : Bad expression Parse error: unexpected end of statement."
    )


def test_validate_shows_the_path_once(client: FlaskClient) -> None:
    # validate_template answers its error as a result: no exception crosses the RPC.
    response = client.post(v1("validate"), headers=HEADERS, json={"template": TEMPLATES["yaql"]})

    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == (
        "outputs.out.value.yaql: Bad expression Parse error: unexpected end of statement."
    )
