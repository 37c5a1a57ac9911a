"""The noauth flavor and the request context it leads to, beside Heat's own middleware."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import flask
import pytest

from keel_app.common import config
from keel_app.web import create_app
from tests import oracle
from tests.web.conftest import heat_conf, probe_blueprint

FIXED_REQUEST_ID = "req-00000000-0000-0000-0000-000000000000"

HEAT_CONTEXTS = """
import json, sys
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.common import context, noauth
import webob, webob.dec
captured = []
@webob.dec.wsgify
def capture(request):
    captured.append(request.context.to_dict())
    return webob.Response()
pipeline = noauth.NoAuthProtocol(context.ContextMiddleware(capture, {}), {})
for headers in json.loads(sys.argv[1]):
    request = webob.Request.blank("/", headers=headers)
    request.environ["openstack.request_id"] = sys.argv[2]
    request.get_response(pipeline)
print(json.dumps(captured))
"""

HEADER_SETS: list[dict[str, str]] = [
    {},
    {"X-Auth-User": "alice", "X-Auth-Project": "p1", "X-Region-Name": "r1"},
    {"X-Auth-Project": "p2", "X-Auth-Token": "a-token", "X-Roles": "ignored"},
]


def our_context(app: flask.Flask, headers: dict[str, str]) -> dict[str, Any]:
    response = app.test_client().get("/v1/tenant/probe", headers=headers)
    assert response.status_code == 200
    return response.get_json()["context"]


def test_without_headers_the_caller_is_admin_in_the_admin_project(app: flask.Flask) -> None:
    context = our_context(app, {})
    assert (context["user"], context["project_id"], context["roles"]) == (
        "admin",
        "admin",
        ["admin", "member", "reader"],
    )
    assert context["is_admin"] is True


def test_the_headers_name_the_user_and_project(app: flask.Flask) -> None:
    context = our_context(app, {"X-Auth-User": "alice", "X-Auth-Project": "p1"})
    assert (context["user"], context["username"], context["project_id"]) == (
        "alice",
        "alice",
        "p1",
    )
    assert context["project_name"] == "p1"


def test_the_context_carries_the_request_ids(app: flask.Flask) -> None:
    global_id = "req-11111111-2222-3333-4444-555555555555"
    response = app.test_client().get(
        "/v1/tenant/probe", headers={"X-OpenStack-Request-ID": global_id}
    )
    context = response.get_json()["context"]
    assert context["request_id"] == response.headers["x-openstack-request-id"]
    assert context["request_id"] != global_id
    assert context["global_request_id"] == global_id


def test_a_malformed_global_request_id_is_ignored(app: flask.Flask) -> None:
    context = our_context(app, {"X-OpenStack-Request-ID": "req-not-an-id"})
    assert context["global_request_id"] is None


def test_the_token_response_file_becomes_the_token_info(tmp_path: Path) -> None:
    token_file = tmp_path / "token.json"
    token_file.write_text(json.dumps({"token": {"methods": ["password"]}}))
    conf = heat_conf(tmp_path, extra=f"[noauth]\ntoken_response = {token_file}\n")
    app = create_app({"HEAT_CONF": conf})
    app.register_blueprint(probe_blueprint())
    assert our_context(app, {})["auth_token_info"] == {"token": {"methods": ["password"]}}


def test_the_default_flavor_asks_for_a_keystone_token(tmp_path: Path) -> None:
    # No token: keystonemiddleware refuses before it would ever ask Keystone anything.
    path = tmp_path / "keystone.conf"
    path.write_text("[keystone_authtoken]\nwww_authenticate_uri = http://keystone.invalid/v3\n")
    app = create_app({"HEAT_CONF": config.load(["--config-file", str(path)])})
    app.register_blueprint(probe_blueprint())

    response = app.test_client().get("/v1/tenant/probe", headers={"X-Auth-User": "alice"})

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Keystone uri="http://keystone.invalid/v3"'
    assert response.get_json() == {
        "error": {
            "code": 401,
            "title": "Unauthorized",
            "message": "The request you have made requires authentication.",
        }
    }


@pytest.mark.oracle
def test_contexts_are_heats(app: flask.Flask) -> None:
    heat_contexts = oracle.run_json(HEAT_CONTEXTS, json.dumps(HEADER_SETS), FIXED_REQUEST_ID)
    ours = []
    for headers in HEADER_SETS:
        context = our_context(app, headers)
        context["request_id"] = FIXED_REQUEST_ID
        ours.append(context)
    # The one difference: the roles admin implies (docs/divergences.md).
    for context in heat_contexts:
        assert context["roles"] == ["admin"]
        context["roles"] = ["admin", "member", "reader"]
    assert ours == heat_contexts
