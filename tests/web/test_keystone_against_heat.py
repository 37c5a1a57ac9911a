"""The keystone flavor beside Heat 27.0.1's own heat-api (its paste pipeline, flavor
``default``), both validating tokens with the same real Keystone.

Only requests Heat answers before its engine are compared: refused ones (401, 403) and
the request context its middleware builds from a token.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import flask
import pytest

from keel_app.common import config
from keel_app.web import create_app
from tests import oracle
from tests.keystone import ALICE, BOB, CAROL, Keystone
from tests.web.conftest import probe_blueprint
from tests.web.heat_api import PASTE_CONFIG, REPLAY

pytestmark = pytest.mark.oracle

NONE_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"placeholder": {"type": "OS::Heat::None"}},
}

# Heat's own middleware in front of a view that hands back the context it was given.
HEAT_CONTEXT = """
import json, sys
conf_path, token = sys.argv[1:3]
from oslo_config import cfg
from heat.common import config
cfg.CONF(["--config-file", conf_path], project="heat")
import webob, webob.dec
from keystonemiddleware import auth_token
from heat.common import auth_url, context
captured = []
@webob.dec.wsgify
def capture(request):
    captured.append(request.context.to_dict())
    return webob.Response()
pipeline = auth_url.filter_factory({})(
    auth_token.filter_factory({})(context.ContextMiddleware(capture, {})))
request = webob.Request.blank("/", headers={"X-Auth-Token": token})
request.environ["openstack.request_id"] = "req-fixed"
request.get_response(pipeline)
print(json.dumps(captured[0]))
"""

COMPARED_HEADERS = ("content-type", "www-authenticate")


def write_conf(keystone: Keystone, directory: Path, extra: str = "") -> Path:
    path = directory / "heat.conf"
    path.write_text(keystone.heat_conf() + extra)
    return path


@pytest.fixture
def our_app(keystone_service: Keystone, tmp_path: Path) -> flask.Flask:
    conf = config.load(["--config-file", str(write_conf(keystone_service, tmp_path))])
    app = create_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": object()})
    app.register_blueprint(probe_blueprint())
    return app


def answers_of_heat(
    keystone: Keystone, directory: Path, requests: list[dict[str, Any]], extra: str = ""
) -> list[dict[str, Any]]:
    conf_path = write_conf(
        keystone, directory, f"[paste_deploy]\napi_paste_config = {PASTE_CONFIG}\n{extra}"
    )
    requests_path = directory / "requests.json"
    requests_path.write_text(json.dumps(requests))
    answers_path = directory / "answers.json"
    oracle.run(REPLAY, str(conf_path), str(requests_path), str(answers_path))
    return [comparable(answer) for answer in json.loads(answers_path.read_text())]


def answer_of_ours(app: flask.Flask, request: dict[str, Any]) -> dict[str, Any]:
    response = app.test_client().open(
        request["path"],
        method=request["method"],
        headers=request["headers"],
        data=request["body"],
    )
    return comparable(
        {
            "status": response.status_code,
            "headers": dict(response.headers),
            "body": response.get_data(as_text=True),
        }
    )


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    headers = {name.lower(): value for name, value in answer["headers"].items()}
    body: Any = answer["body"]
    if headers.get("content-type", "").startswith("application/json"):
        body = json.loads(body)
        # A fault's traceback names the code that raised it: not a contract.
        if isinstance(body.get("error"), dict):
            body["error"].pop("traceback", None)
    return {
        "status": answer["status"],
        "headers": {name: headers.get(name) for name in COMPARED_HEADERS},
        "body": body,
    }


def test_refusals_are_heats(
    our_app: flask.Flask, keystone_service: Keystone, tmp_path: Path
) -> None:
    project_a = keystone_service.project_id(ALICE)
    stacks = f"/v1/{project_a}/stacks"
    create_body = json.dumps({"stack_name": "refused", "template": NONE_TEMPLATE})
    json_type = {"Content-Type": "application/json"}
    requests: list[dict[str, Any]] = [
        {"method": "GET", "path": stacks, "headers": {}, "body": None},
        {"method": "GET", "path": stacks, "headers": {"X-Auth-Token": "bad"}, "body": None},
        {
            "method": "GET",
            "path": stacks,
            "headers": {"X-Auth-Token": keystone_service.token(BOB)},
            "body": None,
        },
        {
            "method": "POST",
            "path": stacks,
            "headers": {"X-Auth-Token": keystone_service.token(CAROL), **json_type},
            "body": create_body,
        },
        {
            "method": "GET",
            "path": f"/v1/{project_a}/build_info",
            "headers": {"X-Auth-Token": keystone_service.token(BOB)},
            "body": None,
        },
    ]

    heat_answers = answers_of_heat(keystone_service, tmp_path, requests)
    our_answers = [answer_of_ours(our_app, request) for request in requests]

    assert [answer["status"] for answer in heat_answers] == [401, 401, 403, 403, 403]
    assert our_answers == heat_answers


def test_the_context_from_a_token_is_heats(
    our_app: flask.Flask, keystone_service: Keystone, tmp_path: Path
) -> None:
    token = keystone_service.token(ALICE)
    project_a = keystone_service.project_id(ALICE)
    conf_path = write_conf(keystone_service, tmp_path)

    heat_context = json.loads(oracle.run(HEAT_CONTEXT, str(conf_path), token).splitlines()[-1])
    response = our_app.test_client().get(f"/v1/{project_a}/probe", headers={"X-Auth-Token": token})
    our_context = response.get_json()["context"]
    our_context["request_id"] = "req-fixed"

    assert our_context == heat_context


def test_multi_cloud_auth_urls_are_judged_as_heat_does(
    keystone_service: Keystone, tmp_path: Path
) -> None:
    extra = (
        f"[auth_password]\nmulti_cloud = true\nallowed_auth_uris = {keystone_service.auth_url}\n"
    )
    conf = config.load(["--config-file", str(write_conf(keystone_service, tmp_path, extra))])
    app = create_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": object()})
    app.register_blueprint(probe_blueprint())
    token = keystone_service.token(ALICE)
    probe = f"/v1/{keystone_service.project_id(ALICE)}/probe"
    requests: list[dict[str, Any]] = [
        {"method": "GET", "path": probe, "headers": {"X-Auth-Token": token}, "body": None},
        {
            "method": "GET",
            "path": probe,
            "headers": {"X-Auth-Token": token, "X-Auth-Url": "http://elsewhere/v3"},
            "body": None,
        },
        {
            "method": "GET",
            "path": probe,
            "headers": {"X-Auth-Url": "http://elsewhere/v3", "Accept": "application/json"},
            "body": None,
        },
    ]
    heat_directory = tmp_path / "heat"
    heat_directory.mkdir()
    heat_answers = answers_of_heat(keystone_service, heat_directory, requests, extra)
    our_answers = [answer_of_ours(app, request) for request in requests]

    assert [answer["status"] for answer in heat_answers] == [400, 401, 401]
    assert our_answers == heat_answers
    allowed = app.test_client().get(
        probe, headers={"X-Auth-Token": token, "X-Auth-Url": keystone_service.auth_url}
    )
    assert allowed.get_json()["context"]["auth_url"] == keystone_service.auth_url
