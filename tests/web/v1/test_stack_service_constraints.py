"""A parameter whose custom constraint needs a cloud service, on a deployment with no client
for that service (the embedded default): the value is refused with a 400, never a 500.

Heat 27.0.1 answers a 500 here (docs/divergences.md, "Service-backed custom constraints with
no client"); OpenKeel refuses the value as Heat refuses any value its constraint rejects.
validate_template does not look values up (Heat's validation stack is not strict), so it
answers the parameter as declared.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import NONE_TEMPLATE, created, stack_path

# (constraint, its client, a value)
CONSTRAINTS = [
    ("nova.flavor", "nova", "m1.small"),
    ("glance.image", "glance", "cirros"),
    ("keystone.project", "keystone", "demo"),
    ("neutron.network", "neutron", "private"),
    ("cinder.volume", "cinder", "data"),
    ("nova.keypair", "nova", "mine"),
]
OPERATIONS = ("create", "preview", "update", "update preview")


def _template(constraint: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "choice": {"type": "string", "constraints": [{"custom_constraint": constraint}]}
        },
        "resources": {"r": {"type": "OS::Heat::None"}},
    }


def _send(client: FlaskClient, operation: str, body: dict[str, Any], stack: Any) -> Any:
    if operation == "create":
        return client.post(v1("stacks"), headers=HEADERS, json={**body, "stack_name": "new"})
    if operation == "preview":
        path = v1("stacks/preview")
        return client.post(path, headers=HEADERS, json={**body, "stack_name": "new"})
    if operation == "update":
        return client.put(stack_path(stack), headers=HEADERS, json=body)
    return client.put(stack_path(stack, "/preview"), headers=HEADERS, json=body)


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize(("constraint", "client_name", "value"), CONSTRAINTS)
def test_a_value_no_client_can_check_is_refused_with_a_400(
    client: FlaskClient,
    run_engine: Any,
    operation: str,
    constraint: str,
    client_name: str,
    value: str,
) -> None:
    stack = created(client, "existing", NONE_TEMPLATE)
    run_engine()
    body = {"template": _template(constraint), "parameters": {"choice": value}}

    response = _send(client, operation, body, stack)

    assert response.status_code == 400
    assert response.get_json() == {
        "code": 400,
        "title": "Bad Request",
        "explanation": (
            "The server could not comply with the request since it is either malformed "
            "or otherwise incorrect."
        ),
        "error": {
            "type": "StackValidationFailed",
            "traceback": None,
            "message": (
                f"Parameter 'choice' is invalid: Error validating value '{value}': "
                f"The client ({client_name}) is not available."
            ),
        },
    }


def test_a_refused_create_stores_no_stack(client: FlaskClient) -> None:
    body = {"template": _template("nova.flavor"), "parameters": {"choice": "m1.small"}}

    _send(client, "create", body, None)

    listed = client.get(v1("stacks"), headers=HEADERS)
    assert listed.get_json() == {"stacks": []}


def test_the_constraint_s_own_description_is_the_message(client: FlaskClient) -> None:
    template = _template("glance.image")
    template["parameters"]["choice"]["constraints"][0]["description"] = "Pick a known image."
    body = {"template": template, "parameters": {"choice": "cirros"}}

    response = _send(client, "create", body, None)

    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == (
        "Parameter 'choice' is invalid: Pick a known image."
    )


@pytest.mark.parametrize(("constraint", "client_name", "value"), CONSTRAINTS)
def test_validate_does_not_look_the_value_up(
    client: FlaskClient, constraint: str, client_name: str, value: str
) -> None:
    body = {"template": _template(constraint), "parameters": {"choice": value}}

    response = client.post(v1("validate"), headers=HEADERS, json=body)

    assert response.status_code == 200
    assert response.get_json()["Parameters"] == {
        "choice": {
            "Type": "String",
            "Description": "",
            "NoEcho": "false",
            "Label": "choice",
            "CustomConstraint": constraint,
            "Value": value,
        }
    }
