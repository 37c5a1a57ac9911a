"""The native API beside Heat's own heat-api for requests that never reach an engine.

Heat answers for its stack collection (GET and POST); ours for the probe route, which
declares the same methods, so every answer before a view runs must be the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import flask
import pytest

from tests.web.heat_api import MAX_JSON_BODY_SIZE, replay

pytestmark = pytest.mark.oracle

JSON = {"Content-Type": "application/json"}
TOO_LARGE = "{" + " " * MAX_JSON_BODY_SIZE + "}"

# (name, method, Heat's path, our path, headers, body)
CASES: list[tuple[str, str, str, str, dict[str, str], str | None]] = [
    ("root", "GET", "/", "/", {}, None),
    ("root as json", "GET", "/", "/", {"Accept": "application/json"}, None),
    ("root by host", "GET", "/", "/", {"Host": "heat.example.com:8004"}, None),
    ("versions", "GET", "/versions", "/versions", {}, None),
    ("versions below", "GET", "/versions/v1", "/versions/v1", {}, None),
    ("other version", "GET", "/v2/t/stacks", "/v2/t/stacks", {}, None),
    ("other minor version", "GET", "/v1.1/t/stacks", "/v1.1/t/stacks", {}, None),
    ("unversioned", "GET", "/t/stacks", "/t/stacks", {}, None),
    ("unversioned json", "GET", "/t/stacks", "/t/stacks", {"Accept": "application/json"}, None),
    ("unversioned any", "GET", "/t/stacks", "/t/stacks", {"Accept": "*/*"}, None),
    ("unversioned html", "GET", "/t/stacks", "/t/stacks", {"Accept": "text/html"}, None),
    ("unversioned text", "GET", "/t/stacks", "/t/stacks", {"Accept": "text/plain"}, None),
    (
        "unversioned weighted",
        "GET",
        "/x",
        "/x",
        {"Accept": "text/html;q=0.5, application/json"},
        None,
    ),
    (
        "media type other version",
        "GET",
        "/t/stacks",
        "/t/stacks",
        {"Accept": "application/vnd.openstack.orchestration-v2.0"},
        None,
    ),
    (
        "media type unknown route",
        "GET",
        "/t/nothing",
        "/t/nothing",
        {"Accept": "application/vnd.openstack.orchestration-v1.0"},
        None,
    ),
    ("v1 root", "GET", "/v1/", "/v1/", {}, None),
    ("v1 unknown", "GET", "/v1/t/nothing", "/v1/t/nothing", {"Accept": "application/json"}, None),
    ("v1 prefix", "GET", "/v1x/t/nothing", "/v1x/t/nothing", {}, None),
    ("healthcheck", "GET", "/healthcheck", "/healthcheck", {}, None),
    ("healthcheck head", "HEAD", "/healthcheck", "/healthcheck", {}, None),
    ("healthcheck post", "POST", "/healthcheck/x", "/healthcheck/x", {}, None),
    (
        "healthcheck json",
        "GET",
        "/healthcheck",
        "/healthcheck",
        {"Accept": "application/json"},
        None,
    ),
    ("healthcheck html", "GET", "/healthcheck", "/healthcheck", {"Accept": "text/html"}, None),
    ("healthcheck any", "GET", "/healthcheck", "/healthcheck", {"Accept": "*/*"}, None),
    ("healthcheck none", "GET", "/healthcheck", "/healthcheck", {"Accept": "image/png"}, None),
    ("not healthcheck", "GET", "/healthcheckx", "/healthcheckx", {}, None),
    ("unknown method", "FOO", "/v1/t/stacks", "/v1/t/probe", {}, None),
    ("method not allowed", "DELETE", "/v1/t/stacks", "/v1/t/probe", {}, None),
    ("head not allowed", "HEAD", "/v1/t/stacks", "/v1/t/probe", {}, None),
    ("options", "OPTIONS", "/v1/t/stacks", "/v1/t/probe", {}, None),
    (
        "xml error",
        "DELETE",
        "/v1/t/stacks",
        "/v1/t/probe",
        {"Content-Type": "application/xml"},
        None,
    ),
    ("bad json", "POST", "/v1/t/stacks", "/v1/t/probe", JSON, "{bad"),
    ("bad json before 405", "PATCH", "/v1/t/stacks", "/v1/t/probe", JSON, '{"a": }'),
    ("bad utf-8", "POST", "/v1/t/stacks", "/v1/t/probe", JSON, '{"\xff": 1}'),
    ("trailing data", "POST", "/v1/t/stacks", "/v1/t/probe", JSON, '{"a": 1} x'),
    ("too large", "POST", "/v1/t/stacks", "/v1/t/probe", JSON, TOO_LARGE),
    (
        "too large plain text",
        "PUT",
        "/v1/t/stacks",
        "/v1/t/probe",
        {"Content-Type": "text/plain"},
        TOO_LARGE,
    ),
    ("too large, not an object", "DELETE", "/v1/t/stacks", "/v1/t/probe", JSON, "[" + TOO_LARGE),
]

COMPARED_HEADERS = ("Content-Type", "Content-Length", "Allow", "Location")
REQUEST_ID = re.compile(r"^req-[0-9a-f-]{36}$")


def heat_requests() -> list[dict[str, Any]]:
    return [
        {"method": method, "path": path, "headers": headers, "body": body}
        for _, method, path, _, headers, body in CASES
    ]


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, list[dict[str, Any]]]:
    directory = tmp_path_factory.mktemp("heat-api")
    return {debug: replay(directory, heat_requests(), debug=debug) for debug in (False, True)}


def our_answer(
    app: flask.Flask, method: str, path: str, headers: dict[str, str], body: str | None
) -> dict[str, Any]:
    data = body.encode("latin-1") if body is not None else None
    response = app.test_client().open(path, method=method, headers=headers, data=data)
    return {
        "status": response.status_code,
        "headers": dict(response.headers),
        "body": response.get_data().decode("latin-1"),
    }


def comparable(answer: dict[str, Any], debug: bool) -> dict[str, Any]:
    headers = {name.lower(): value for name, value in answer["headers"].items()}
    compared = {name: headers.get(name.lower()) for name in COMPARED_HEADERS}
    body: Any = answer["body"]
    is_fault = headers.get("content-type") == "application/json" and '"code": "' not in body
    if debug and is_fault and answer["status"] >= 400:
        # Tracebacks name each implementation's own files: only their presence compares,
        # and the length they give the body not at all.
        del compared["Content-Length"]
        if body:
            body = json.loads(body)
            body["error"]["traceback"] = body["error"]["traceback"] is not None
    return {
        "status": answer["status"],
        "headers": compared,
        "body": body,
        "request id": bool(REQUEST_ID.match(headers.get("x-openstack-request-id", ""))),
    }


@pytest.mark.parametrize("debug", [False, True], ids=["quiet", "debug"])
@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_answer_is_heats(
    make_app: Callable[..., flask.Flask],
    heat_answers: dict[bool, list[dict[str, Any]]],
    case: tuple[str, str, str, str, dict[str, str], str | None],
    debug: bool,
) -> None:
    _, method, _, our_path, headers, body = case
    heat = heat_answers[debug][CASES.index(case)]
    ours = our_answer(make_app(debug=debug), method, our_path, headers, body)
    assert comparable(ours, debug) == comparable(heat, debug)
