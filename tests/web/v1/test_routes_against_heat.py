"""The resource, event, catalog, software config and deployment and service routes beside
Heat's own heat-api, for requests Heat answers before it calls its engine: bad query
strings, missing, unwanted or wrong bodies, OPTIONS and refused methods.

Heat's noauth identity has the admin role alone, which Heat 27's new policy defaults
refuse; Heat runs with the old defaults so that its views are reached.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web import heat_api

pytestmark = pytest.mark.oracle

JSON = {"Content-Type": "application/json"}
STACK = "/v1/admin/stacks/s1/0f7f3b43-7b9a-4b8e-9e36-1c5c2f0d3a11"
RESOURCES = STACK + "/resources"
TYPES = "/v1/admin/resource_types"
CONFIGS = "/v1/admin/software_configs"
DEPLOYMENTS = "/v1/admin/software_deployments"
TEMPLATE = {"heat_template_version": "2018-08-31"}


def body(value: Any) -> str:
    return json.dumps(value)


# (name, method, path, headers, body)
CASES: list[tuple[str, str, str, dict[str, str], str | None]] = [
    ("resources with a body", "GET", RESOURCES, JSON, "{}"),
    ("resources unknown filter", "GET", RESOURCES + "?colour=red", {}, None),
    ("resources nested_depth", "GET", RESOURCES + "?nested_depth=deep", {}, None),
    ("resources nested_depth negative", "GET", RESOURCES + "?nested_depth=-1", {}, None),
    ("resources with_detail", "GET", RESOURCES + "?with_detail=yes", {}, None),
    ("resources repeated depth", "GET", RESOURCES + "?nested_depth=1&nested_depth=x", {}, None),
    ("resource with a body", "GET", RESOURCES + "/r1", JSON, "{}"),
    ("metadata with a body", "GET", RESOURCES + "/r1/metadata", JSON, "{}"),
    ("mark unhealthy without a body", "PATCH", RESOURCES + "/r1", {}, None),
    ("mark unhealthy unknown key", "PATCH", RESOURCES + "/r1", JSON, body({"colour": 1})),
    ("mark unhealthy empty", "PATCH", RESOURCES + "/r1", JSON, "{}"),
    (
        "mark unhealthy not a boolean",
        "PATCH",
        RESOURCES + "/r1",
        JSON,
        body({"mark_unhealthy": "perhaps"}),
    ),
    ("resource options", "OPTIONS", RESOURCES + "/r1", {}, None),
    ("resource put", "PUT", RESOURCES + "/r1", {}, None),
    ("signal get", "GET", RESOURCES + "/r1/signal", {}, None),
    ("signal options", "OPTIONS", RESOURCES + "/r1/signal", {}, None),
    ("events limit", "GET", STACK + "/events?limit=many", {}, None),
    ("events limit negative", "GET", STACK + "/events?limit=-2", {}, None),
    ("events nested_depth", "GET", STACK + "/events?nested_depth=x", {}, None),
    ("events with a body", "GET", STACK + "/events", JSON, "{}"),
    ("resource events limit", "GET", RESOURCES + "/r1/events?limit=x", {}, None),
    ("event with a body", "GET", RESOURCES + "/r1/events/e1", JSON, "{}"),
    ("event options", "OPTIONS", RESOURCES + "/r1/events/e1", {}, None),
    ("events post", "POST", STACK + "/events", {}, None),
    ("types with_description", "GET", TYPES + "?with_description=maybe", {}, None),
    ("types with a body", "GET", TYPES, JSON, "{}"),
    ("schema with a body", "GET", TYPES + "/OS::Heat::None", JSON, "{}"),
    ("template type", "GET", TYPES + "/OS::Heat::None/template?template_type=xml", {}, None),
    ("template type empty", "GET", TYPES + "/OS::Heat::None/template?template_type=", {}, None),
    ("types delete", "DELETE", TYPES, {}, None),
    ("versions with a body", "GET", "/v1/admin/template_versions", JSON, "{}"),
    (
        "functions with_condition_func",
        "GET",
        "/v1/admin/template_versions/v/functions?with_condition_func=2",
        {},
        None,
    ),
    ("validate without a body", "POST", "/v1/admin/validate", {}, None),
    ("validate without a template", "POST", "/v1/admin/validate", JSON, "{}"),
    (
        "validate show_nested",
        "POST",
        "/v1/admin/validate?show_nested=maybe",
        JSON,
        body({"template": TEMPLATE}),
    ),
    (
        "validate template not YAML",
        "POST",
        "/v1/admin/validate",
        JSON,
        body({"template": "a: [b"}),
    ),
    (
        "validate environment not YAML",
        "POST",
        "/v1/admin/validate",
        JSON,
        body({"template": TEMPLATE, "environment": "a: [b"}),
    ),
    (
        "validate environment unknown section",
        "POST",
        "/v1/admin/validate",
        JSON,
        body({"template": TEMPLATE, "environment": {"colours": {}}}),
    ),
    ("validate get", "GET", "/v1/admin/validate", {}, None),
    ("configs limit", "GET", CONFIGS + "?limit=x", {}, None),
    ("configs global_tenant", "GET", CONFIGS + "?global_tenant=maybe", {}, None),
    ("configs global_tenant denied", "GET", CONFIGS + "?global_tenant=true", {}, None),
    (
        "configs global_tenant repeated",
        "GET",
        CONFIGS + "?global_tenant=false&global_tenant=x",
        {},
        None,
    ),
    ("configs with a body", "GET", CONFIGS, JSON, "{}"),
    ("config create without a body", "POST", CONFIGS, {}, None),
    ("config with a body", "GET", CONFIGS + "/c1", JSON, "{}"),
    ("config delete with a body", "DELETE", CONFIGS + "/c1", JSON, "{}"),
    ("config put", "PUT", CONFIGS + "/c1", {}, None),
    ("configs options", "OPTIONS", CONFIGS, {}, None),
    ("deployments with a body", "GET", DEPLOYMENTS, JSON, "{}"),
    ("deployment create without a body", "POST", DEPLOYMENTS, {}, None),
    ("deployment update without a body", "PUT", DEPLOYMENTS + "/d1", {}, None),
    ("deployment with a body", "GET", DEPLOYMENTS + "/d1", JSON, "{}"),
    ("deployment options", "OPTIONS", DEPLOYMENTS + "/d1", {}, None),
    ("deployment metadata options", "OPTIONS", DEPLOYMENTS + "/metadata/s1", {}, None),
    ("deployment patch", "PATCH", DEPLOYMENTS + "/d1", {}, None),
    ("services with a body", "GET", "/v1/admin/services", JSON, "{}"),
    ("services post", "POST", "/v1/admin/services", {}, None),
    ("services delete", "DELETE", "/v1/admin/services", {"Accept": "application/json"}, None),
]


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return heat_api.replay_cases(tmp_path_factory.mktemp("heat-api-routes"), CASES)


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
