from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS
from tests.web.v1.stack_templates import NONE_TEMPLATE, created, shown, stack_path


def acted(client: FlaskClient, identity: dict[str, str], body: Any) -> Any:
    return client.post(stack_path(identity, "/actions"), headers=HEADERS, json=body)


def state(client: FlaskClient, identity: dict[str, str]) -> tuple[str, str]:
    stack = shown(client, identity)
    return stack["stack_status"], stack["stack_status_reason"]


@pytest.mark.parametrize(
    ("action", "status", "reason"),
    [
        ("suspend", "SUSPEND_COMPLETE", "Stack SUSPEND completed successfully"),
        (
            "check",
            "CHECK_COMPLETE",
            "Stack CHECK completed successfully. 'CHECK' not fully supported (see resources)",
        ),
    ],
)
def test_an_action_answers_null_and_the_stack_performs_it(
    client: FlaskClient, run_engine: Any, action: str, status: str, reason: str
) -> None:
    identity = created(client, "acting", NONE_TEMPLATE)
    run_engine()

    response = acted(client, identity, {action: None})
    run_engine()

    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json"
    assert response.get_data() == b"null"
    assert state(client, identity) == (status, reason)


def test_resume_after_suspend(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "resumed", NONE_TEMPLATE)
    run_engine()
    acted(client, identity, {"suspend": None})
    run_engine()

    response = acted(client, identity, {"resume": None})
    run_engine()

    assert response.status_code == 200
    assert state(client, identity) == ("RESUME_COMPLETE", "Stack RESUME completed successfully")


def test_cancel_update_rolls_an_update_in_progress_back(
    client: FlaskClient, run_engine: Any
) -> None:
    identity = created(client, "cancelled", NONE_TEMPLATE)
    run_engine()
    template = {**NONE_TEMPLATE, "resources": {"other": {"type": "OS::Heat::None"}}}
    client.put(stack_path(identity), headers=HEADERS, json={"template": template})

    response = acted(client, identity, {"cancel_update": None})
    run_engine()

    assert response.status_code == 200
    assert state(client, identity)[0] == "ROLLBACK_COMPLETE"
    resources = client.get(stack_path(identity, "/template"), headers=HEADERS).get_json()
    assert resources["resources"] == NONE_TEMPLATE["resources"]


@pytest.mark.parametrize("action", ["cancel_update", "cancel_without_rollback"])
def test_cancelling_without_an_update_is_not_supported(
    client: FlaskClient, run_engine: Any, action: str
) -> None:
    identity = created(client, "idle", NONE_TEMPLATE)
    run_engine()

    response = acted(client, identity, {action: None})

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "NotSupported",
        "traceback": None,
        "message": "Cancelling update when stack is CREATE_COMPLETE is not supported.",
    }


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "No action specified"),
        ({"suspend": None, "check": None}, "Multiple actions specified"),
        ({"pause": None}, "Invalid action pause specified"),
    ],
)
def test_a_body_of_not_exactly_one_known_action_is_heats_400(
    client: FlaskClient, body: dict[str, Any], message: str
) -> None:
    identity = created(client, "untouched", NONE_TEMPLATE)

    response = acted(client, identity, body)

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "HTTPBadRequest",
        "traceback": None,
        "message": message,
    }
