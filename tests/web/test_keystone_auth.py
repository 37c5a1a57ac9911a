"""The keystone flavor with a real Keystone: tokens, projects and roles decide."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask
import pytest
from flask.testing import FlaskClient

from keel_app.common import config
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.rpc.client import EngineClient
from keel_app.rpc.local import LocalTransport
from keel_app.web import create_app
from tests import databases
from tests.keystone import ALICE, BOB, CAROL, Account, Keystone
from tests.models.api.factories import migrated_database
from tests.web.conftest import probe_blueprint

NONE_TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {"placeholder": {"type": "OS::Heat::None"}},
}

UNAUTHORIZED_BODY = {
    "error": {
        "code": 401,
        "title": "Unauthorized",
        "message": "The request you have made requires authentication.",
    }
}
FORBIDDEN_BODY = {
    "code": 403,
    "title": "Forbidden",
    "explanation": "Access was denied to this resource.",
}


def keystone_heat_conf(keystone: Keystone, directory: Path) -> str:
    path = directory / "heat.conf"
    path.write_text(keystone.heat_conf())
    return str(path)


@pytest.fixture
def engine_client(tmp_path: Path) -> Iterator[EngineClient]:
    with databases.fresh_database("sqlite", tmp_path) as url:
        database: Database = migrated_database(url)
        settings = EngineSettings(host="engine-host", engine_id="engine-1")
        queue = LocalQueue()
        queue.handler = Worker(database, settings, queue).handle
        yield EngineClient(LocalTransport(settings, database, queue))
        database.dispose()


@pytest.fixture
def app(keystone_service: Keystone, tmp_path: Path, engine_client: EngineClient) -> flask.Flask:
    conf = config.load(["--config-file", keystone_heat_conf(keystone_service, tmp_path)])
    app = create_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})
    app.register_blueprint(probe_blueprint())
    return app


@pytest.fixture
def client(app: flask.Flask) -> FlaskClient:
    return app.test_client()


def token_of(keystone: Keystone, account: Account) -> dict[str, str]:
    return {"X-Auth-Token": keystone.token(account)}


def forbidden(response: Any) -> dict[str, Any]:
    body = response.get_json()
    body["error"].pop("traceback")
    return body  # type: ignore[no-any-return]


def test_a_members_token_reads_its_projects_build_info(
    client: FlaskClient, keystone_service: Keystone
) -> None:
    project_a = keystone_service.project_id(ALICE)
    response = client.get(f"/v1/{project_a}/build_info", headers=token_of(keystone_service, ALICE))

    assert response.status_code == 200
    assert response.get_json() == {
        "api": {"revision": "unknown"},
        "engine": {"revision": "unknown"},
    }


def test_a_member_creates_a_stack_and_lists_it(
    client: FlaskClient, keystone_service: Keystone
) -> None:
    project_a = keystone_service.project_id(ALICE)
    headers = token_of(keystone_service, ALICE)

    created = client.post(
        f"/v1/{project_a}/stacks",
        headers=headers,
        json={"stack_name": "keyed", "template": NONE_TEMPLATE},
    )
    listed = client.get(f"/v1/{project_a}/stacks", headers=headers)

    assert created.status_code == 201
    stack_id = created.get_json()["stack"]["id"]
    stacks = listed.get_json()["stacks"]
    assert [(stack["id"], stack["stack_name"]) for stack in stacks] == [(stack_id, "keyed")]
    assert created.headers["Location"] == f"http://localhost/v1/{project_a}/stacks/keyed/{stack_id}"


def test_the_context_carries_the_tokens_identity(
    client: FlaskClient, keystone_service: Keystone
) -> None:
    project_a = keystone_service.project_id(ALICE)
    token = keystone_service.token(ALICE)

    context = client.get(f"/v1/{project_a}/probe", headers={"X-Auth-Token": token}).get_json()[
        "context"
    ]

    assert {
        key: context[key]
        for key in ("user", "username", "project_id", "project_name", "auth_token", "auth_url")
    } == {
        "user": keystone_service.user_ids["alice"],
        "username": "alice",
        "project_id": project_a,
        "project_name": "project-a",
        "auth_token": token,
        # [clients_keystone] auth_uri, through Keystone's version discovery.
        "auth_url": keystone_service.auth_url + "/",
    }
    assert sorted(context["roles"]) == ["heat_stack_owner", "member", "reader"]
    assert context["is_admin"] is False
    assert context["auth_token_info"]["token"]["project"]["id"] == project_a


def test_another_projects_token_is_forbidden(
    client: FlaskClient, keystone_service: Keystone
) -> None:
    project_a = keystone_service.project_id(ALICE)
    response = client.get(f"/v1/{project_a}/stacks", headers=token_of(keystone_service, BOB))

    assert response.status_code == 403


def test_another_projects_stack_is_not_found_through_ones_own_project(
    client: FlaskClient, keystone_service: Keystone
) -> None:
    project_a, project_b = keystone_service.project_id(ALICE), keystone_service.project_id(BOB)
    created = client.post(
        f"/v1/{project_a}/stacks",
        headers=token_of(keystone_service, ALICE),
        json={"stack_name": "alices", "template": NONE_TEMPLATE},
    )
    stack_id = created.get_json()["stack"]["id"]
    bob = token_of(keystone_service, BOB)

    # Bob names his own project in the path and Alice's stack by its id.
    shown = client.get(f"/v1/{project_b}/stacks/alices/{stack_id}", headers=bob)
    deleted = client.delete(f"/v1/{project_b}/stacks/alices/{stack_id}", headers=bob)

    assert (shown.status_code, shown.get_json()["error"]["type"]) == (404, "EntityNotFound")
    assert shown.get_json()["error"]["message"] == "The Stack (alices) could not be found."
    assert deleted.status_code == 404
    alices_view = client.get(
        f"/v1/{project_a}/stacks/alices/{stack_id}", headers=token_of(keystone_service, ALICE)
    )
    assert alices_view.get_json()["stack"]["stack_status"] != "DELETE_IN_PROGRESS"


def test_a_reader_cannot_create_a_stack(client: FlaskClient, keystone_service: Keystone) -> None:
    project_a = keystone_service.project_id(CAROL)
    headers = token_of(keystone_service, CAROL)

    refused = client.post(
        f"/v1/{project_a}/stacks",
        headers=headers,
        json={"stack_name": "read-only", "template": NONE_TEMPLATE},
    )
    listed = client.get(f"/v1/{project_a}/stacks", headers=headers)

    assert refused.status_code == 403
    assert forbidden(refused) == {
        **FORBIDDEN_BODY,
        "error": {"message": "You are not authorized to use stacks:create.", "type": "Forbidden"},
    }
    assert (listed.status_code, listed.get_json()) == (200, {"stacks": []})


def test_without_a_token_the_answer_is_keystonemiddlewares_401(
    client: FlaskClient, keystone_service: Keystone
) -> None:
    project_a = keystone_service.project_id(ALICE)
    response = client.get(f"/v1/{project_a}/stacks")

    assert response.status_code == 401
    assert response.get_json() == UNAUTHORIZED_BODY
    assert response.headers["WWW-Authenticate"] == f'Keystone uri="{keystone_service.auth_url}"'


def test_a_bad_token_gets_401(client: FlaskClient, keystone_service: Keystone) -> None:
    project_a = keystone_service.project_id(ALICE)
    response = client.get(f"/v1/{project_a}/stacks", headers={"X-Auth-Token": "not-a-token"})

    assert response.status_code == 401
    assert response.get_json() == UNAUTHORIZED_BODY


def test_identity_headers_sent_by_a_caller_are_not_believed(
    client: FlaskClient, keystone_service: Keystone
) -> None:
    project_a = keystone_service.project_id(CAROL)
    headers = {
        **token_of(keystone_service, CAROL),
        "X-Roles": "admin,member",
        "X-User-Id": "someone-else",
    }

    context = client.get(f"/v1/{project_a}/probe", headers=headers).get_json()["context"]

    assert (context["user"], context["roles"]) == (keystone_service.user_ids["carol"], ["reader"])


def test_the_versions_document_needs_no_token(client: FlaskClient) -> None:
    response = client.get("/")

    assert response.status_code == 300
    assert [version["id"] for version in response.get_json()["versions"]] == ["v1.0"]
