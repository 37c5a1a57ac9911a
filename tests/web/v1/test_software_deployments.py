"""The software deployment routes over a real engine: create, show, list (of a server),
the configs deployed to a server, update, delete."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS, v1

JSON_HEADERS = {**HEADERS, "Content-Type": "application/json"}


def config(client: FlaskClient, name: str) -> dict[str, Any]:
    response = client.post(
        v1("software_configs"),
        headers=JSON_HEADERS,
        data=json.dumps({"name": name, "group": "script", "config": "true"}),
    )
    created: dict[str, Any] = response.get_json()["software_config"]
    return created


def deploy(client: FlaskClient, **body: Any) -> Any:
    return client.post(v1("software_deployments"), headers=JSON_HEADERS, data=json.dumps(body))


@pytest.fixture
def configs(client: FlaskClient) -> list[dict[str, Any]]:
    return [config(client, "b-second"), config(client, "a-first")]


def test_a_created_deployment_is_answered_and_shown(
    client: FlaskClient, configs: list[dict[str, Any]]
) -> None:
    response = deploy(
        client,
        config_id=configs[0]["id"],
        server_id="server-1",
        input_values={"x": 1},
        action="CREATE",
        status="IN_PROGRESS",
        status_reason="started",
    )

    created = response.get_json()["software_deployment"]
    shown = client.get(v1(f"software_deployments/{created['id']}"), headers=HEADERS)
    assert response.status_code == 200
    assert shown.get_json() == {"software_deployment": created}
    assert {key: value for key, value in created.items() if key not in ("id", "creation_time")} == {
        "server_id": "server-1",
        "input_values": {"x": 1},
        "output_values": None,
        "action": "CREATE",
        "status": "IN_PROGRESS",
        "status_reason": "started",
        "config_id": configs[0]["id"],
    }


def test_fields_left_out_of_the_body_are_sent_as_null(
    client: FlaskClient, configs: list[dict[str, Any]]
) -> None:
    response = deploy(client, config_id=configs[0]["id"], server_id="server-1")

    created = response.get_json()["software_deployment"]
    # Heat's API sends every field, null when absent; the engine keeps the reason's text.
    assert (created["action"], created["status"], created["status_reason"]) == (
        None,
        None,
        "None",
    )
    assert created["input_values"] == {}


def test_a_deployment_of_an_unknown_config_is_not_found(client: FlaskClient) -> None:
    response = deploy(client, config_id="missing", server_id="server-1")

    assert response.status_code == 404
    assert response.get_json()["error"] == {
        "type": "NotFound",
        "traceback": None,
        "message": "Software config with id missing not found",
    }


def test_a_deployment_without_a_server_is_a_bad_request(
    client: FlaskClient, configs: list[dict[str, Any]]
) -> None:
    response = deploy(client, config_id=configs[0]["id"])

    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == (
        'Data supplied was not valid: "server_id" must be specified'
    )


def test_deployments_are_listed_per_server_and_its_configs_given_by_name(
    client: FlaskClient, configs: list[dict[str, Any]]
) -> None:
    ids = [
        deploy(client, config_id=item["id"], server_id="server-1").get_json()[
            "software_deployment"
        ]["id"]
        for item in configs
    ]
    deploy(client, config_id=configs[0]["id"], server_id="server-2")

    listed = client.get(v1("software_deployments?server_id=server-1"), headers=HEADERS)
    everything = client.get(v1("software_deployments"), headers=HEADERS)
    metadata = client.get(v1("software_deployments/metadata/server-1"), headers=HEADERS)

    assert [item["id"] for item in listed.get_json()["software_deployments"]] == ids
    assert len(everything.get_json()["software_deployments"]) == 3
    assert metadata.status_code == 200
    assert [item["name"] for item in metadata.get_json()["metadata"]] == ["a-first", "b-second"]
    assert metadata.get_json()["metadata"][0] == configs[1]


def test_an_update_changes_only_what_the_body_gives(
    client: FlaskClient, configs: list[dict[str, Any]]
) -> None:
    created = deploy(
        client, config_id=configs[0]["id"], server_id="server-1", action="CREATE", status="DONE"
    ).get_json()["software_deployment"]

    response = client.put(
        v1(f"software_deployments/{created['id']}"),
        headers=JSON_HEADERS,
        data=json.dumps({"status": "COMPLETE", "action": None, "output_values": {"out": 1}}),
    )

    updated = response.get_json()["software_deployment"]
    assert response.status_code == 200
    assert (updated["action"], updated["status"], updated["output_values"]) == (
        "CREATE",
        "COMPLETE",
        {"out": 1},
    )
    assert "updated_time" in updated


def test_a_deleted_deployment_is_gone(client: FlaskClient, configs: list[dict[str, Any]]) -> None:
    created = deploy(client, config_id=configs[0]["id"], server_id="server-1").get_json()[
        "software_deployment"
    ]

    deleted = client.delete(v1(f"software_deployments/{created['id']}"), headers=HEADERS)
    shown = client.get(v1(f"software_deployments/{created['id']}"), headers=HEADERS)

    assert (deleted.status_code, deleted.get_data()) == (204, b"")
    assert shown.status_code == 404
    assert shown.get_json()["error"]["message"] == f"Deployment with id {created['id']} not found"
