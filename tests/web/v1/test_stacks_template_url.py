"""Stacks created from a ``template_url``, fetched from a loopback HTTP server."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import NONE_TEMPLATE, shown


@Request.application
def template_site(request: Request) -> Response:
    if request.path == "/none.json":
        return Response(json.dumps(NONE_TEMPLATE), content_type="application/json")
    if request.path == "/versionless.yaml":
        return Response("resources: {}\n")
    return Response("missing", status=404)


@pytest.fixture
def site() -> Iterator[str]:
    server = make_server("127.0.0.1", 0, template_site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def created_from(client: FlaskClient, url: str) -> Any:
    return client.post(
        v1("stacks"), headers=HEADERS, json={"stack_name": "fetched", "template_url": url}
    )


def test_a_stack_is_created_from_the_template_at_its_url(
    client: FlaskClient, run_engine: Any, site: str
) -> None:
    response = created_from(client, f"{site}/none.json")
    run_engine()

    identity = {"stack_name": "fetched", "stack_id": response.get_json()["stack"]["id"]}
    assert response.status_code == 201
    assert shown(client, identity)["stack_status"] == "CREATE_COMPLETE"
    template = client.get(v1(f"stacks/fetched/{identity['stack_id']}/template"), headers=HEADERS)
    assert template.get_json() == NONE_TEMPLATE


def test_a_template_that_cannot_be_fetched_is_heats_400(client: FlaskClient, site: str) -> None:
    response = created_from(client, f"{site}/gone.yaml")

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "HTTPBadRequest",
        "traceback": None,
        "message": "Could not retrieve template: "
        f"Failed to retrieve template from {site}/gone.yaml",
    }


def test_a_fetched_template_is_parsed_as_a_sent_one(client: FlaskClient, site: str) -> None:
    response = created_from(client, f"{site}/versionless.yaml")

    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == (
        "Template not in valid format: Template format version not found."
    )
