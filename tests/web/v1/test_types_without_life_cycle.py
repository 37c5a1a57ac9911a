"""A template using a resource type OpenKeel knows by name only is refused before anything
is stored: never a stack that reaches CREATE_COMPLETE having made nothing
(docs/divergences.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from keel_app.web import create_app
from tests.web.conftest import heat_conf
from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.test_catalog import _full_catalog_token

# The types a new user tried first, with the properties they gave (one of them bogus).
TYPES = [
    ("AWS::ElasticLoadBalancing::LoadBalancer", {"AvailabilityZones": [], "Bogus": 1}, "nova"),
    ("OS::Nova::FloatingIP", {"pool": "public"}, "nova"),
]


def _template(type_name: str, properties: dict) -> dict:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"thing": {"type": type_name, "properties": properties}},
    }


@pytest.fixture
def client(tmp_path: Path, engine_client: Any) -> FlaskClient:
    """The API for a caller whose catalog has every service: Heat would go on."""
    token = tmp_path / "token.json"
    token.write_text(json.dumps(_full_catalog_token()))
    conf = heat_conf(tmp_path, extra=f"[noauth]\ntoken_response = {token}\n")
    app = create_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})
    return app.test_client()


@pytest.mark.parametrize(("type_name", "properties", "service"), TYPES)
def test_a_create_is_refused_as_unavailable_and_stores_nothing(
    client: FlaskClient, type_name: str, properties: dict, service: str
) -> None:
    body = {"stack_name": "first", "template": _template(type_name, properties)}

    response = client.post(v1("stacks"), headers=HEADERS, json=body)

    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["type"] == "ResourceTypeUnavailable"
    assert error["message"] == (
        "HEAT-E99001 "
        f"Service {service} is not available for resource type {type_name}, "
        "reason: OpenKeel has no life cycle for this resource type yet."
    )
    assert client.get(v1("stacks"), headers=HEADERS).get_json() == {"stacks": []}


def test_validate_refuses_it_too(client: FlaskClient) -> None:
    body = {"template": _template("AWS::ElasticLoadBalancing::LoadBalancer", {"Listeners": []})}

    response = client.post(v1("validate"), headers=HEADERS, json=body)

    assert response.status_code == 400
    assert response.get_json()["error"]["type"] == "ResourceTypeUnavailable"
