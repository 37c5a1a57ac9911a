"""Templates and helpers the stack route tests share: no-cloud resources only."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS, v1

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
BASE_URL = "http://localhost/v1/project-a/stacks"

NONE_TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "description": "one placeholder",
    "resources": {"placeholder": {"type": "OS::Heat::None"}},
}

VALUE_TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "parameters": {"greeting": {"type": "string", "default": "hello"}},
    "resources": {
        "value": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "greeting"}}},
        "secret": {"type": "OS::Heat::RandomString", "properties": {"length": 12}},
    },
    "outputs": {
        "said": {"description": "what was said", "value": {"get_attr": ["value", "value"]}},
        "secret": {"value": {"get_attr": ["secret", "value"]}},
    },
}


def stack_url(identity: dict[str, str]) -> str:
    return f"{BASE_URL}/{identity['stack_name']}/{identity['stack_id']}"


def stack_path(identity: dict[str, str], below: str = "") -> str:
    return v1(f"stacks/{identity['stack_name']}/{identity['stack_id']}{below}")


def created(client: FlaskClient, name: str, template: dict[str, Any], **body: Any) -> Any:
    """POST a stack; its identity as the engine names it."""
    response = client.post(
        v1("stacks"), headers=HEADERS, json={"stack_name": name, "template": template, **body}
    )
    assert response.status_code == 201, response.get_data(as_text=True)
    stack_id = response.get_json()["stack"]["id"]
    return {"stack_name": name, "stack_id": stack_id, "tenant": "project-a", "path": ""}


def shown(client: FlaskClient, identity: dict[str, str], query: str = "") -> Any:
    response = client.get(stack_path(identity, query), headers=HEADERS)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()["stack"]


def timestamps_of(document: dict[str, Any]) -> dict[str, Any]:
    """The document's timestamps checked for their form, so that a test can compare the
    rest of it whole."""
    for key in ("creation_time", "updated_time", "deletion_time"):
        value = document.get(key)
        assert value is None or TIMESTAMP.match(value), (key, value)
    return {key: document.get(key) for key in ("creation_time", "updated_time", "deletion_time")}
