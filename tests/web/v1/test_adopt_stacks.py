"""POST /stacks with ``adopt_stack_data``: the data an abandon answered taken over as a
new stack (behind ``enable_stack_adopt``), its template the data's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from keel_app.engine.settings import EngineSettings
from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import VALUE_TEMPLATE, created, shown, stack_path


@pytest.fixture
def settings(request: pytest.FixtureRequest) -> EngineSettings:
    """Abandon and adopt enabled; a test parametrizing ``settings`` with False
    disables adopt."""
    return EngineSettings(
        host="engine-host",
        engine_id="engine-1",
        enable_stack_abandon=True,
        enable_stack_adopt=getattr(request, "param", True),
    )


def _abandoned(client: FlaskClient, run_engine: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The outputs of a stack, and what its abandon answered."""
    identity = created(client, "first", VALUE_TEMPLATE)
    run_engine()
    outputs = _outputs(shown(client, identity))
    response = client.delete(stack_path(identity, "/abandon"), headers=HEADERS)
    assert response.status_code == 200, response.get_data(as_text=True)
    run_engine()
    return outputs, response.get_json()


def _outputs(stack: dict[str, Any]) -> dict[str, Any]:
    return {output["output_key"]: output["output_value"] for output in stack["outputs"]}


def _resources(client: FlaskClient, identity: dict[str, str]) -> dict[str, tuple[str, str]]:
    response = client.get(stack_path(identity, "/resources"), headers=HEADERS)
    assert response.status_code == 200, response.get_data(as_text=True)
    return {
        item["resource_name"]: (item["resource_status"], item["physical_resource_id"])
        for item in response.get_json()["resources"]
    }


def test_an_abandoned_stack_is_adopted_with_its_resources(
    client: FlaskClient, run_engine: Any
) -> None:
    outputs, data = _abandoned(client, run_engine)

    identity = created(client, "second", None, adopt_stack_data=json.dumps(data))
    run_engine()

    stack = shown(client, identity)
    assert (stack["stack_status"], stack["stack_status_reason"]) == (
        "ADOPT_COMPLETE",
        "Stack ADOPT completed successfully",
    )
    assert _outputs(stack) == outputs
    assert _resources(client, identity) == {
        name: ("ADOPT_COMPLETE", resource["resource_id"])
        for name, resource in data["resources"].items()
    }
    template = client.get(stack_path(identity, "/template"), headers=HEADERS)
    assert template.get_json() == VALUE_TEMPLATE


def test_the_adopted_stack_then_deletes_its_resources(client: FlaskClient, run_engine: Any) -> None:
    _, data = _abandoned(client, run_engine)
    identity = created(client, "second", None, adopt_stack_data=json.dumps(data))
    run_engine()

    response = client.delete(stack_path(identity), headers=HEADERS)
    run_engine()

    assert response.status_code == 204
    deleted = client.get(v1(f"stacks/second/{identity['stack_id']}"), headers=HEADERS)
    assert deleted.get_json()["stack"]["stack_status"] == "DELETE_COMPLETE"


@pytest.mark.parametrize("settings", [False], indirect=True)
def test_adopt_is_refused_unless_enabled(client: FlaskClient, run_engine: Any) -> None:
    _, data = _abandoned(client, run_engine)

    response = client.post(
        v1("stacks"),
        headers=HEADERS,
        json={"stack_name": "second", "adopt_stack_data": json.dumps(data)},
    )

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "NotSupported",
        "message": "Stack Adopt is not supported.",
        "traceback": None,
    }
    assert client.get(v1("stacks/second"), headers=HEADERS).status_code == 404
