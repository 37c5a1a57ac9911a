"""The software config routes over a real engine: create, show, list (paged, and every
project's for an allowed admin), delete."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from keel_app.web import create_app
from tests.web.conftest import heat_conf
from tests.web.v1.conftest import HEADERS, PROJECT, v1

JSON_HEADERS = {**HEADERS, "Content-Type": "application/json"}
CONFIG = {
    "name": "hello",
    "group": "script",
    "config": "echo hello",
    "inputs": [{"name": "who", "default": "world"}],
    "outputs": [{"name": "greeting"}],
    "options": {"fast": True},
}


def create(client: FlaskClient, **changes: Any) -> dict[str, Any]:
    response = client.post(
        v1("software_configs"), headers=JSON_HEADERS, data=json.dumps({**CONFIG, **changes})
    )
    assert response.status_code == 200
    created: dict[str, Any] = response.get_json()["software_config"]
    return created


def test_a_created_config_is_answered_and_shown_as_stored(
    client: FlaskClient, engine_client: Any, caller: Any
) -> None:
    created = create(client)

    shown = client.get(v1(f"software_configs/{created['id']}"), headers=HEADERS)

    assert shown.status_code == 200
    assert shown.get_json() == {"software_config": created}
    assert created == engine_client.show_software_config(caller, created["id"])
    assert created["inputs"] == [{"name": "who", "type": "String", "default": "world"}]


def test_a_body_with_nothing_creates_an_empty_config(client: FlaskClient) -> None:
    response = client.post(v1("software_configs"), headers=JSON_HEADERS, data="{}")

    config = response.get_json()["software_config"]
    assert response.status_code == 200
    assert {key: config[key] for key in ("name", "group", "config", "inputs", "options")} == {
        "name": None,
        "group": None,
        "config": None,
        "inputs": [],
        "options": {},
    }


def test_an_invalid_input_is_a_bad_request(client: FlaskClient) -> None:
    response = client.post(
        v1("software_configs"),
        headers=JSON_HEADERS,
        data=json.dumps({**CONFIG, "inputs": {"name": "x"}}),
    )

    # The engine's TypeError reaches the API as one, which Heat's dispatcher answers with
    # its bare 400.
    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == (
        "The server could not comply with the request since it is either malformed or "
        "otherwise incorrect."
    )


def test_configs_are_listed_newest_first_and_paged(client: FlaskClient) -> None:
    older = create(client, name="older")
    newer = create(client, name="newer")

    first_page = client.get(v1("software_configs?limit=1"), headers=HEADERS).get_json()
    after = client.get(
        v1(f"software_configs?marker={first_page['software_configs'][0]['id']}"), headers=HEADERS
    ).get_json()

    listed = [config["id"] for config in first_page["software_configs"]]
    listed += [config["id"] for config in after["software_configs"]]
    assert sorted(listed) == sorted([older["id"], newer["id"]])
    assert len(first_page["software_configs"]) == 1
    # The caller is an admin (noauth): each config names its project.
    assert first_page["software_configs"][0]["project"] == PROJECT
    assert set(first_page["software_configs"][0]) == {
        "id",
        "name",
        "group",
        "creation_time",
        "project",
    }


def test_every_projects_configs_are_listed_where_policy_allows(
    tmp_path: Path, engine_client: Any
) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text('"software_configs:global_index": ""\n')
    app = create_app(
        {
            "TESTING": True,
            "HEAT_CONF": heat_conf(tmp_path, extra=f"[oslo_policy]\npolicy_file = {policy}\n"),
            "ENGINE_CLIENT": engine_client,
        }
    )
    client = app.test_client()
    mine = create(client)
    other = client.post(
        "/v1/project-b/software_configs",
        headers={**JSON_HEADERS, "X-Auth-User": "bob", "X-Auth-Project": "project-b"},
        data=json.dumps(CONFIG),
    ).get_json()["software_config"]

    response = client.get(v1("software_configs?global_tenant=true"), headers=HEADERS)

    assert response.status_code == 200
    projects = {
        config["id"]: config["project"] for config in response.get_json()["software_configs"]
    }
    assert projects == {mine["id"]: PROJECT, other["id"]: "project-b"}


def test_every_projects_configs_are_refused_by_default(client: FlaskClient) -> None:
    response = client.get(v1("software_configs?global_tenant=true"), headers=HEADERS)

    assert response.status_code == 403
    assert response.get_json()["error"]["message"] == (
        "You are not authorized to use software_configs:global_index."
    )


def test_a_deleted_config_is_gone(client: FlaskClient) -> None:
    created = create(client)

    deleted = client.delete(v1(f"software_configs/{created['id']}"), headers=HEADERS)
    shown = client.get(v1(f"software_configs/{created['id']}"), headers=HEADERS)

    assert (deleted.status_code, deleted.get_data(), deleted.headers.get("Content-Type")) == (
        204,
        b"",
        None,
    )
    assert shown.status_code == 404
    assert shown.get_json()["error"] == {
        "type": "NotFound",
        "traceback": None,
        "message": f"Software config with id {created['id']} not found",
    }
