"""The stack and action routes beside Heat's own heat-api, for requests Heat answers
before it calls its engine: bad query strings and bodies, lookups by ARN, OPTIONS.

Heat's noauth identity has the admin role alone, which Heat 27's new policy defaults
refuse; both APIs run with the old defaults so that the views are reached.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web import heat_api

pytestmark = pytest.mark.oracle

JSON = {"Content-Type": "application/json"}
HOT = "heat_template_version: 2018-08-31\n"
LONG_TAG = "t" * 81
STACK = "/v1/admin/stacks/s1/0f7f3b43-7b9a-4b8e-9e36-1c5c2f0d3a11"
ARN = "/v1/admin/stacks/arn:openstack:heat::admin:stacks/s1/0f7f3b43"


def body(value: Any) -> str:
    return json.dumps(value)


# (name, method, path, headers, body)
CASES: list[tuple[str, str, str, dict[str, str], str | None]] = [
    ("limit not an integer", "GET", "/v1/admin/stacks?limit=abc", {}, None),
    ("limit negative", "GET", "/v1/admin/stacks?limit=-1", {}, None),
    ("limit signed", "GET", "/v1/admin/stacks?limit=%2B5", {}, None),
    ("limit repeated, the last bad", "GET", "/v1/admin/stacks?limit=5&limit=x", {}, None),
    (
        "show_deleted repeated, the last bad",
        "GET",
        "/v1/admin/stacks?show_deleted=true&show_deleted=maybe",
        {},
        None,
    ),
    (
        "with_count repeated, the last bad",
        "GET",
        "/v1/admin/stacks?with_count=true&with_count=no",
        {},
        None,
    ),
    ("show_deleted not a boolean", "GET", "/v1/admin/stacks?show_deleted=maybe", {}, None),
    ("show_nested not a boolean", "GET", "/v1/admin/stacks?show_nested=1", {}, None),
    ("show_hidden not a boolean", "GET", "/v1/admin/stacks?show_hidden=yes", {}, None),
    ("tag too long", "GET", f"/v1/admin/stacks?tags=a,{LONG_TAG}", {}, None),
    ("not_tags_any too long", "GET", f"/v1/admin/stacks?not_tags_any={LONG_TAG}", {}, None),
    ("with_count not a boolean", "GET", "/v1/admin/stacks?with_count=2", {}, None),
    ("global_tenant denied", "GET", "/v1/admin/stacks?global_tenant=True", {}, None),
    ("global_tenant empty", "GET", "/v1/admin/stacks?global_tenant=", {}, None),
    ("index with a body", "GET", "/v1/admin/stacks", JSON, "{}"),
    ("detail with a body", "GET", "/v1/admin/stacks/detail", JSON, "{}"),
    ("create without a body", "POST", "/v1/admin/stacks", {}, None),
    ("create without a name", "POST", "/v1/admin/stacks", JSON, "{}"),
    ("create without a template", "POST", "/v1/admin/stacks", JSON, body({"stack_name": "s"})),
    (
        "create with a null template",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": None}),
    ),
    (
        "template not YAML",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": "a: [b"}),
    ),
    (
        "template not a mapping",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": "- a"}),
    ),
    (
        "template without a version",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": "resources: {}"}),
    ),
    (
        "template a number",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": 5}),
    ),
    (
        "template_url of another scheme",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template_url": "ftp://example.com/t.yaml"}),
    ),
    (
        "environment with a wrong section",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "environment": {"nope": {}}}),
    ),
    (
        "environment text with a wrong section",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "environment": "parameters: {}\nfoo: {}\n"}),
    ),
    (
        "environment JSON text with a wrong section",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "environment": '{"foo": {}}'}),
    ),
    (
        "preview with an environment text with a wrong section",
        "POST",
        "/v1/admin/stacks/preview",
        JSON,
        body({"stack_name": "s", "template": HOT, "environment": "foo: {}\n"}),
    ),
    (
        "validate with an environment text with a wrong section",
        "POST",
        "/v1/admin/validate",
        JSON,
        body({"template": HOT, "environment": "foo: {}\n"}),
    ),
    (
        "update with an environment text with a wrong section",
        "PUT",
        STACK,
        JSON,
        body({"template": HOT, "environment": "foo: {}\n"}),
    ),
    (
        "preview patch with an environment text with a wrong section",
        "PATCH",
        STACK + "/preview",
        JSON,
        body({"environment": "foo: {}\n"}),
    ),
    (
        "environment not YAML",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "environment": "a: [b"}),
    ),
    (
        "environment with an empty section",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "environment": "parameters:\n"}),
    ),
    (
        "parameters a string",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "parameters": "abc"}),
    ),
    (
        "timeout not an integer",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "timeout_mins": "soon"}),
    ),
    (
        "timeout a boolean",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "timeout_mins": True}),
    ),
    (
        "tags too long",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "tags": f"a,{LONG_TAG}"}),
    ),
    (
        "tags a list",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "tags": ["a"]}),
    ),
    (
        "converge on create",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "template": HOT, "converge": True}),
    ),
    (
        "adopt data not a mapping",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "adopt_stack_data": "[1]"}),
    ),
    (
        "adopt data without a template",
        "POST",
        "/v1/admin/stacks",
        JSON,
        body({"stack_name": "s", "adopt_stack_data": "{}"}),
    ),
    ("preview without a name", "POST", "/v1/admin/stacks/preview", JSON, "{}"),
    ("preview without a body", "POST", "/v1/admin/stacks/preview", {}, None),
    ("update without a template", "PUT", STACK, JSON, "{}"),
    ("update without a body", "PUT", STACK, {}, None),
    ("update timeout negative", "PUT", STACK, JSON, body({"timeout_mins": -3})),
    (
        "patch with a bad environment",
        "PATCH",
        STACK,
        JSON,
        body({"environment": {"resource_registry": None}}),
    ),
    ("patch timeout not an integer", "PATCH", STACK, JSON, body({"timeout_mins": "x"})),
    ("patch without a body", "PATCH", STACK, {}, None),
    ("preview update without a template", "PUT", STACK + "/preview", JSON, "{}"),
    (
        "preview patch show_nested not a boolean",
        "PATCH",
        STACK + "/preview?show_nested=no",
        JSON,
        body({"parameters": {}}),
    ),
    ("show resolve_outputs not a boolean", "GET", STACK + "?resolve_outputs=maybe", {}, None),
    ("show resolve_outputs empty", "GET", STACK + "?resolve_outputs=", {}, None),
    ("show with a body", "GET", STACK, JSON, "{}"),
    ("delete with a body", "DELETE", STACK, JSON, "{}"),
    ("template with a body", "GET", STACK + "/template", JSON, "{}"),
    ("snapshot without a body", "POST", STACK + "/snapshots", {}, None),
    ("restore with a body", "POST", STACK + "/snapshots/x/restore", JSON, "{}"),
    ("output with a body", "GET", STACK + "/outputs/o", JSON, "{}"),
    ("action without a body", "POST", STACK + "/actions", {}, None),
    ("action empty", "POST", STACK + "/actions", JSON, "{}"),
    ("two actions", "POST", STACK + "/actions", JSON, body({"suspend": None, "resume": None})),
    ("unknown action", "POST", STACK + "/actions", JSON, body({"pause": None})),
    ("lookup by ARN", "GET", ARN, {}, None),
    ("lookup by ARN as JSON", "GET", ARN, {"Accept": "application/json"}, None),
    ("lookup by ARN as HTML", "GET", ARN + "?a=1&b=%3C%26&a=2", {"Accept": "text/html"}, None),
    ("lookup by ARN with a path", "GET", ARN + "/resources/r1", {}, None),
    ("lookup by ARN, DELETE", "DELETE", ARN, {}, None),
    ("lookup by ARN, POST with a body", "POST", ARN, JSON, "{}"),
    ("options of a stack", "OPTIONS", STACK, {}, None),
    ("options of a lookup", "OPTIONS", "/v1/admin/stacks/s1", {}, None),
    ("options of a lookup path", "OPTIONS", "/v1/admin/stacks/s1/template", {}, None),
    ("options of snapshots", "OPTIONS", STACK + "/snapshots", {}, None),
    ("options of a snapshot", "OPTIONS", STACK + "/snapshots/x", {}, None),
    ("options of preview", "OPTIONS", "/v1/admin/stacks/preview", {}, None),
    ("options of actions", "OPTIONS", STACK + "/actions", {}, None),
    ("options of the stack preview", "OPTIONS", STACK + "/preview", {}, None),
    ("post to a stack", "POST", STACK, {}, None),
    ("head of preview", "HEAD", "/v1/admin/stacks/preview", {}, None),
    ("get abandon", "GET", STACK + "/abandon", {}, None),
    ("put actions", "PUT", STACK + "/actions", {}, None),
]


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return heat_api.replay_cases(tmp_path_factory.mktemp("heat-api-stacks"), CASES)


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_answer_is_heats(
    client: FlaskClient,
    heat_answers: list[dict[str, Any]],
    case: tuple[str, str, str, dict[str, str], str | None],
) -> None:
    _, method, path, headers, data = case
    heat = heat_answers[CASES.index(case)]
    ours = client.open(
        path, method=method, headers=headers, data=data.encode() if data is not None else None
    )

    assert heat_api.comparable(
        ours.status_code, dict(ours.headers), ours.get_data(as_text=True)
    ) == heat_api.comparable(heat["status"], heat["headers"], heat["body"])
