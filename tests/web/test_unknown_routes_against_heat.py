"""OPTIONS and HEAD where the native API has no route, beside Heat's own heat-api.

Heat's CORS filter turns every OPTIONS answer that is not a success into a bare 200
(no body, no type, no request id); webob answers HEAD for an unknown URL with its bare
404, typed HTML whatever the Accept header. A route's own OPTIONS answer stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import flask
import pytest

from tests.web.heat_api import MAX_JSON_BODY_SIZE, replay

pytestmark = pytest.mark.oracle

JSON = {"Accept": "application/json"}
TEXT = {"Accept": "text/plain"}
TOO_LARGE = "{" + " " * MAX_JSON_BODY_SIZE + "}"
STACK = "/v1/admin/stacks/s1/0f7f3b43-7b9a-4b8e-9e36-1c5c2f0d3a11"

# (name, method, path, headers, body)
CASES: list[tuple[str, str, str, dict[str, str], str | None]] = [
    ("options unknown", "OPTIONS", "/v1/t/nothing", {}, None),
    ("options unknown json", "OPTIONS", "/v1/t/nothing", JSON, None),
    ("options unknown text", "OPTIONS", "/v1/t/nothing", TEXT, None),
    ("options unversioned", "OPTIONS", "/t/nothing", {}, None),
    ("options below a stack", "OPTIONS", STACK + "/nothing/x", JSON, None),
    ("options below an event", "OPTIONS", STACK + "/resources/r/events/e/x", {}, None),
    ("options v1 root", "OPTIONS", "/v1/", {}, None),
    ("options root", "OPTIONS", "/", {}, None),
    ("options versions", "OPTIONS", "/versions", JSON, None),
    ("options other version", "OPTIONS", "/v2/t/stacks", {}, None),
    ("options route", "OPTIONS", "/v1/t/stacks", {}, None),
    ("options route json", "OPTIONS", "/v1/t/stacks", JSON, None),
    (
        "options route too large",
        "OPTIONS",
        "/v1/t/stacks",
        {"Content-Type": "application/json"},
        TOO_LARGE,
    ),
    ("options healthcheck", "OPTIONS", "/healthcheck", {}, None),
    ("head unknown", "HEAD", "/v1/t/nothing", {}, None),
    ("head unknown json", "HEAD", "/v1/t/nothing", JSON, None),
    ("head unknown text", "HEAD", "/v1/t/nothing", TEXT, None),
    ("head unversioned", "HEAD", "/t/nothing", JSON, None),
    ("head below a stack", "HEAD", STACK + "/nothing/x", {}, None),
    ("head v1 root", "HEAD", "/v1/", TEXT, None),
    ("head root", "HEAD", "/", {}, None),
    ("head other version", "HEAD", "/v2/t/stacks", {}, None),
    ("get unknown", "GET", "/v1/t/nothing", JSON, None),
]

COMPARED_HEADERS = ("content-type", "content-length", "allow", "location")
REQUEST_ID = re.compile(r"^req-[0-9a-f-]{36}$")


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    requests = [
        {"method": method, "path": path, "headers": headers, "body": body}
        for _, method, path, headers, body in CASES
    ]
    return replay(tmp_path_factory.mktemp("heat-api-unknown-routes"), requests, debug=False)


def comparable(status: int, headers: dict[str, str], body: str) -> dict[str, Any]:
    lowered = {name.lower(): value for name, value in headers.items()}
    return {
        "status": status,
        "headers": {name: lowered.get(name) for name in COMPARED_HEADERS},
        "body": body,
        "request id": bool(REQUEST_ID.match(lowered.get("x-openstack-request-id", ""))),
    }


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_answer_is_heats(
    make_app: Callable[..., flask.Flask],
    heat_answers: list[dict[str, Any]],
    case: tuple[str, str, str, dict[str, str], str | None],
) -> None:
    _, method, path, headers, body = case
    heat = heat_answers[CASES.index(case)]

    client = make_app().test_client()
    ours = client.open(
        path,
        method=method,
        headers=headers,
        data=body.encode("latin-1") if body is not None else None,
    )

    assert comparable(ours.status_code, dict(ours.headers), ours.get_data(as_text=True)) == (
        comparable(heat["status"], heat["headers"], heat["body"])
    )


def test_options_for_an_unknown_url_is_a_bare_success(
    make_app: Callable[..., flask.Flask],
) -> None:
    answer = make_app().test_client().options("/v1/t/nothing", headers=JSON)

    assert (answer.status, dict(answer.headers), answer.get_data()) == (
        "200 OK",
        {"Content-Length": "0"},
        b"",
    )


def test_head_for_an_unknown_url_is_an_empty_html_404(
    make_app: Callable[..., flask.Flask],
) -> None:
    answer = make_app().test_client().head("/v1/t/nothing", headers=JSON)

    assert (answer.status_code, answer.headers["Content-Type"], answer.get_data()) == (
        404,
        "text/html; charset=UTF-8",
        b"",
    )
    assert answer.headers["Content-Length"] == "0"
