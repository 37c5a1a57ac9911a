"""A parameter whose custom constraint needs a service, behind the real Keystone: its catalog
has identity and orchestration but no compute or image service, so there is no client to
look a flavor or an image up with. The value is refused with a 400, where Heat 27.0.1's
heat-api answers a 500 that hides keystoneauth's EndpointNotFound (docs/divergences.md).
Keystone, in the catalog, looks names up with the caller's own token."""

from __future__ import annotations

from typing import Any

import flask
import pytest

from keel_app.models.database import Database
from tests.keystone import ADMIN, ALICE, REGION, Keystone
from tests.web.v1 import heat_engine

# (constraint, its client, a value)
CONSTRAINTS = [
    ("nova.flavor", "nova", "m1.small"),
    ("glance.image", "glance", "cirros"),
]


def _template(constraint: str, value: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "choice": {
                "type": "string",
                "default": value,
                "constraints": [{"custom_constraint": constraint}],
            }
        },
        "resources": {"r": {"type": "OS::Heat::None"}},
    }


@pytest.mark.parametrize(("constraint", "client_name", "value"), CONSTRAINTS)
def test_a_value_no_client_can_check_is_refused_with_a_400(
    app: flask.Flask, keystone_service: Keystone, constraint: str, client_name: str, value: str
) -> None:
    project = keystone_service.project_id(ALICE)
    headers = {"X-Auth-Token": keystone_service.token(ALICE)}
    body = {"stack_name": "picky", "template": _template(constraint, value)}

    response = app.test_client().post(f"/v1/{project}/stacks", headers=headers, json=body)

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "StackValidationFailed",
        "traceback": None,
        "message": (
            f"Parameter 'choice' is invalid: Error validating value '{value}': "
            f"The client ({client_name}) is not available."
        ),
    }


@pytest.mark.parametrize(
    ("value", "status", "error"),
    [
        ("project-b", 201, None),
        (
            "no-such-project",
            400,
            "Parameter 'choice' is invalid: Error validating value 'no-such-project': "
            "The KeystoneProject (no-such-project) could not be found.",
        ),
    ],
)
def test_keystone_looks_a_project_up_by_name_for_an_admin(
    app: flask.Flask, keystone_service: Keystone, value: str, status: int, error: str | None
) -> None:
    project = keystone_service.project_id(ADMIN)
    headers = {"X-Auth-Token": keystone_service.token(ADMIN)}
    body = {"stack_name": "picky", "template": _template("keystone.project", value)}

    response = app.test_client().post(f"/v1/{project}/stacks", headers=headers, json=body)

    assert response.status_code == status, response.get_data(as_text=True)
    if error is not None:
        assert response.get_json()["error"]["message"] == error


@pytest.mark.oracle
def test_heat_answers_a_500_for_a_service_not_in_the_catalog(
    database: Database, keystone_service: Keystone
) -> None:
    token, token_info = keystone_service.issue(ALICE)
    calls = [
        {
            "method": "create_stack",
            "arguments": {
                "stack_name": "picky",
                "template": _template(constraint, value),
                "params": heat_engine.ENVIRONMENT,
                "files": {},
                "args": {},
            },
        }
        for constraint, value in (("nova.flavor", "m1.small"), ("glance.image", "cirros"))
    ]
    keystone = {
        "auth_url": keystone_service.auth_url,
        "user_id": keystone_service.user_ids["alice"],
        "token": token,
        "token_info": token_info,
        "region": REGION,
    }

    bodies = heat_engine.fault_bodies(database, keystone_service.project_id(ALICE), calls, keystone)

    assert [(body["code"], body["error"]) for body in bodies] == [
        (500, {"type": "RemoteError", "traceback": None}),
        (500, {"type": "RemoteError", "traceback": None}),
    ]
