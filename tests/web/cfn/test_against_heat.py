"""The CFN API beside Heat's own heat-api-cfn, for requests that need no engine: bad or
missing parameters, unknown actions and URLs, refused policies, the XML and JSON forms
of errors and answers. Heat authenticates these callers by their identity headers
(its standalone pipeline), ours by the noauth flavor; both see the same policy file."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import flask
import pytest

from keel_app.rpc.client import EngineClient
from keel_app.web.cfn import create_cfn_app
from tests.web.cfn import wsgi_environ
from tests.web.cfn.heat_cfn_api import replay, write_policy
from tests.web.conftest import heat_conf

pytestmark = pytest.mark.oracle

IDENTITY = {
    "X-Auth-User": "alice",
    "X-Auth-Project": "project-a",
    "X-User-Id": "alice",
    "X-Project-Id": "project-a",
    "X-Roles": "member,reader",
}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
NO_VERSION = '{"Resources": {}}'
JSON = {"ContentType": "JSON"}


def query(**parameters: str) -> str:
    return urlencode(parameters)


# (name, method, path, query string, extra headers, body)
CASES: list[tuple[str, str, str, str, dict[str, str], str | None]] = [
    ("estimate", "GET", "/v1/", query(Action="EstimateTemplateCost"), {}, None),
    ("estimate json", "GET", "/v1/", query(Action="EstimateTemplateCost", **JSON), {}, None),
    (
        "estimate by form",
        "POST",
        "/v1/",
        "",
        FORM,
        query(Action="EstimateTemplateCost", ContentType="JSON"),
    ),
    ("estimate by HEAD", "HEAD", "/v1/", query(Action="EstimateTemplateCost"), {}, None),
    ("unknown action", "GET", "/v1/", query(Action="Frobnicate"), {}, None),
    ("unknown action json", "GET", "/v1/", query(Action="Frobnicate", **JSON), {}, None),
    ("no action", "GET", "/v1/", "", {}, None),
    ("no action by POST", "POST", "/v1/", "", {}, None),
    ("versions", "GET", "/", "", {}, None),
    ("v1 without slash", "GET", "/v1", query(Action="ListStacks"), {}, None),
    ("unknown url", "GET", "/v1/nothing", "", {}, None),
    ("unknown url json", "GET", "/v1/nothing", "", {"Accept": "application/json"}, None),
    ("healthcheck", "GET", "/healthcheck", "", {}, None),
    (
        "create without template",
        "GET",
        "/v1/",
        query(Action="CreateStack", StackName="s"),
        {},
        None,
    ),
    (
        "create without template json",
        "GET",
        "/v1/",
        query(Action="CreateStack", StackName="s", **JSON),
        {},
        None,
    ),
    (
        "create with a list template",
        "GET",
        "/v1/",
        query(Action="CreateStack", StackName="s", TemplateBody="[1]"),
        {},
        None,
    ),
    (
        "create without a version",
        "POST",
        "/v1/",
        "",
        FORM,
        query(Action="CreateStack", StackName="s", TemplateBody=NO_VERSION),
    ),
    (
        "create with bad yaml json",
        "GET",
        "/v1/",
        query(Action="CreateStack", StackName="s", TemplateBody="a: [", **JSON),
        {},
        None,
    ),
    (
        "rollback and on failure",
        "GET",
        "/v1/",
        query(Action="CreateStack", StackName="s", DisableRollback="true", OnFailure="DELETE"),
        {},
        None,
    ),
    (
        "rollback and on failure json",
        "GET",
        "/v1/",
        query(Action="UpdateStack", DisableRollback="true", OnFailure="DO_NOTHING", **JSON),
        {},
        None,
    ),
    (
        "update without template",
        "GET",
        "/v1/",
        query(Action="UpdateStack", StackName="s"),
        {},
        None,
    ),
    ("validate without template", "GET", "/v1/", query(Action="ValidateTemplate"), {}, None),
    (
        "validate a scalar",
        "GET",
        "/v1/",
        query(Action="ValidateTemplate", TemplateBody="just text", **JSON),
        {},
        None,
    ),
    (
        "validate by TemplateURL (not Heat's spelling)",
        "GET",
        "/v1/",
        query(Action="ValidateTemplate", TemplateURL="http://example.com/t"),
        {},
        None,
    ),
    (
        "resources by stack and physical id",
        "GET",
        "/v1/",
        query(Action="DescribeStackResources", StackName="s", PhysicalResourceId="p"),
        {},
        None,
    ),
    (
        "resources by stack and physical id json",
        "GET",
        "/v1/",
        query(Action="DescribeStackResources", StackName="s", PhysicalResourceId="p", **JSON),
        {},
        None,
    ),
    (
        "refused by policy",
        "GET",
        "/v1/",
        query(Action="CancelUpdateStack", StackName="s"),
        {},
        None,
    ),
    (
        "refused by policy json",
        "GET",
        "/v1/",
        query(Action="CancelUpdateStack", StackName="s", **JSON),
        {},
        None,
    ),
    ("stacks index", "GET", "/v1/stacks", "", {}, None),
    ("stacks create", "POST", "/v1/stacks", query(StackName="s"), {}, None),
    ("stacks detail", "GET", "/v1/stacks/detail", "", {}, None),
    ("stacks new", "GET", "/v1/stacks/new", "", {}, None),
    ("stacks show", "GET", "/v1/stacks/abc", "", {}, None),
    ("stacks edit", "GET", "/v1/stacks/abc/edit", "", {}, None),
    ("stacks delete collection", "DELETE", "/v1/stacks", "", {}, None),
    ("stacks index with a format", "GET", "/v1/stacks.json", "", {}, None),
    ("stacks create with a format", "POST", "/v1/stacks.xml", "", {}, None),
    ("stacks detail with a format", "GET", "/v1/stacks/detail.json", "", {}, None),
    ("stacks edit with a format", "GET", "/v1/stacks/abc/edit.json", "", {}, None),
    ("stacks with a slash", "GET", "/v1/stacks/", "", {}, None),
    ("stacks new by POST", "POST", "/v1/stacks/new", "", {}, None),
    ("below a stack", "GET", "/v1/stacks/abc/more", "", {}, None),
    ("options on the root", "OPTIONS", "/v1/", "", {}, None),
    ("options on stacks", "OPTIONS", "/v1/stacks", "", {}, None),
    ("head on stacks", "HEAD", "/v1/stacks", "", {}, None),
    ("head without a path", "HEAD", "/v1", "", {}, None),
    ("options on a signal", "OPTIONS", "/v1/signal/arn", "", {}, None),
    ("an unknown method", "FROB", "/v1/", query(Action="EstimateTemplateCost"), {}, None),
    ("wait condition by POST", "POST", "/v1/waitcondition/arn", "", {}, None),
    ("signal by GET", "GET", "/v1/signal/arn", "", {}, None),
]

COMPARED_HEADERS = ("Content-Type", "Content-Length")
REQUEST_ID = re.compile(r"^req-[0-9a-f-]{36}$")


def spec(case: tuple[str, str, str, str, dict[str, str], str | None]) -> dict[str, Any]:
    _, method, path, query_string, headers, body = case
    return {
        "method": method,
        "path": path,
        "query": query_string,
        "headers": {**IDENTITY, **headers},
        "body": body,
    }


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return replay(tmp_path_factory.mktemp("heat-api-cfn"), [spec(case) for case in CASES])


@pytest.fixture
def app(tmp_path: Path, engine_client: EngineClient) -> flask.Flask:
    policy_file = write_policy(tmp_path)
    conf = heat_conf(tmp_path, extra=f"[oslo_policy]\npolicy_file = {policy_file}\n")
    return create_cfn_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    headers = {name.lower(): value for name, value in answer["headers"].items()}
    return {
        "status": answer["status"],
        "headers": {name: headers.get(name.lower()) for name in COMPARED_HEADERS},
        "body": answer["body"],
        "request id": bool(REQUEST_ID.match(headers.get("x-openstack-request-id", ""))),
    }


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_answer_is_heats(
    app: flask.Flask,
    heat_answers: list[dict[str, Any]],
    case: tuple[str, str, str, str, dict[str, str], str | None],
) -> None:
    heat = heat_answers[CASES.index(case)]
    ours = wsgi_environ.call(app, spec(case))
    assert comparable(ours) == comparable(heat)
