"""The watch stream behind the real Keystone: a token as for any API call, the caller's
own project only; the stack view's static page needs none."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import flask
from flask.testing import FlaskClient

from tests.keystone import ALICE, BOB, Keystone
from tests.web.keystone.test_trusts import create_as


def progress_of(stream: bytes) -> list[dict[str, Any]]:
    return [
        json.loads(line[len(b"data: ") :])
        for line in stream.splitlines()
        if line.startswith(b"data: ")
    ]


def test_the_stream_shows_the_stack_to_its_project_with_a_token(
    app: flask.Flask, keystone_service: Keystone, run_engine: Callable[[], Any]
) -> None:
    client: FlaskClient = app.test_client()
    token = keystone_service.token(ALICE)
    project = keystone_service.project_id(ALICE)
    created = create_as(client, token, project, "streamed", run_engine)
    stack_id = created.json["stack"]["id"]

    answer = client.get(
        f"/v1/{project}/stacks/streamed/{stack_id}/watch", headers={"X-Auth-Token": token}
    )

    assert answer.status_code == 200
    assert answer.mimetype == "text/event-stream"
    first = progress_of(answer.data)[0]
    assert first["stack"] == {
        "id": stack_id,
        "stack_name": "streamed",
        "stack_status": "CREATE_COMPLETE",
        "stack_status_reason": "Stack CREATE completed successfully",
    }
    assert [r["resource_status"] for r in first["resources"]] == ["CREATE_COMPLETE"]
    assert [e["resource_status"] for e in first["events"]] == [
        "CREATE_IN_PROGRESS",
        "CREATE_IN_PROGRESS",
        "CREATE_COMPLETE",
        "CREATE_COMPLETE",
    ]


def test_the_stream_needs_a_token(
    app: flask.Flask, keystone_service: Keystone, run_engine: Callable[[], Any]
) -> None:
    client: FlaskClient = app.test_client()
    token = keystone_service.token(ALICE)
    project = keystone_service.project_id(ALICE)
    stack_id = create_as(client, token, project, "guarded", run_engine).json["stack"]["id"]

    answer = client.get(f"/v1/{project}/stacks/guarded/{stack_id}/watch")

    assert answer.status_code == 401


def test_another_projects_stack_is_not_found_on_the_stream(
    app: flask.Flask, keystone_service: Keystone, run_engine: Callable[[], Any]
) -> None:
    client: FlaskClient = app.test_client()
    alice = keystone_service.token(ALICE)
    project = keystone_service.project_id(ALICE)
    stack_id = create_as(client, alice, project, "private", run_engine).json["stack"]["id"]
    bob = keystone_service.token(BOB)
    bobs_project = keystone_service.project_id(BOB)

    answer = client.get(
        f"/v1/{bobs_project}/stacks/private/{stack_id}/watch", headers={"X-Auth-Token": bob}
    )

    assert answer.status_code == 404
    assert answer.json["error"]["type"] == "EntityNotFound"


def test_the_stack_views_page_is_served_without_a_token(app: flask.Flask) -> None:
    client: FlaskClient = app.test_client()

    page = client.get("/stack-view/some-project/")
    script = client.get("/stack-view/some-project/stack-view.js")

    assert page.status_code == 200 and b'<script src="stack-view.js">' in page.data
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    assert client.get("/stack-view/some-project/secret").status_code == 404
