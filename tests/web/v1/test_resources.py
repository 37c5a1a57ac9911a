"""The resource routes over a real engine: listings, one resource, metadata, signals and
marking a resource unhealthy. Documents are checked against Heat's own ``format_resource``
applied (in the oracle) to what the engine answered."""

from __future__ import annotations

import json
from typing import Any

import flask
import pytest
from flask.testing import FlaskClient

from keel_app.web.v1 import resources
from tests import oracle
from tests.web.v1.conftest import HEADERS, PROJECT, v1

JSON_HEADERS = {**HEADERS, "Content-Type": "application/json"}
INNER = {
    "heat_template_version": "2018-08-31",
    "resources": {"deep": {"type": "OS::Heat::None"}},
}
TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "first": {"type": "OS::Heat::None"},
        "second": {"type": "OS::Heat::None", "depends_on": "first"},
        "inner": {"type": "inner.yaml"},
        "handle": {"type": "OS::Heat::WaitConditionHandle"},
    },
}

# Runs in the oracle: Heat's own format_resource on the engine's documents.
HEAT_FORMAT = """
import json, sys
import webob
from heat.api.openstack.v1 import resources
request = webob.Request.blank("/", base_url="http://localhost/v1")
documents = json.loads(sys.argv[1])
print(json.dumps([resources.format_resource(request, document) for document in documents]))
"""


def heat_format(documents: list[Any]) -> list[Any]:
    return oracle.run_json(HEAT_FORMAT, json.dumps(documents))


@pytest.fixture
def stack(make_stack: Any) -> dict[str, Any]:
    return make_stack("resourceful", TEMPLATE, files={"inner.yaml": json.dumps(INNER)})


def stack_path(identity: dict[str, Any], path: str = "") -> str:
    return v1(f"stacks/{identity['stack_name']}/{identity['stack_id']}{path}")


@pytest.mark.oracle
def test_a_listing_is_heats_form_of_the_engines_resources(
    client: FlaskClient, engine_client: Any, caller: Any, stack: dict[str, Any]
) -> None:
    response = client.get(stack_path(stack, "/resources?nested_depth=0"), headers=HEADERS)

    engine_answer = engine_client.list_stack_resources(caller, stack, 0, False)
    assert response.status_code == 200
    assert response.get_json() == {"resources": heat_format(engine_answer)}
    names = sorted(resource["resource_name"] for resource in response.get_json()["resources"])
    assert names == ["first", "handle", "inner", "second"]


@pytest.mark.oracle
def test_a_detailed_filtered_listing_is_heats_form(
    client: FlaskClient, engine_client: Any, caller: Any, stack: dict[str, Any]
) -> None:
    response = client.get(
        stack_path(stack, "/resources?with_detail=True&type=OS::Heat::None&name=second"),
        headers=HEADERS,
    )

    engine_answer = engine_client.list_stack_resources(
        caller, stack, 0, True, filters={"type": "OS::Heat::None", "name": "second"}
    )
    assert response.status_code == 200
    assert response.get_json() == {"resources": heat_format(engine_answer)}
    (second,) = response.get_json()["resources"]
    assert second["resource_name"] == "second"
    assert second["resource_status"] == "CREATE_COMPLETE"


@pytest.mark.oracle
def test_one_resource_is_heats_form_of_the_engines(
    client: FlaskClient, engine_client: Any, caller: Any, stack: dict[str, Any]
) -> None:
    response = client.get(stack_path(stack, "/resources/inner?with_attr=outputs"), headers=HEADERS)

    engine_answer = engine_client.describe_stack_resource(
        caller, stack, "inner", with_attr=["outputs"]
    )
    assert response.status_code == 200
    assert response.get_json() == {"resource": heat_format([engine_answer])[0]}
    links = response.get_json()["resource"]["links"]
    assert links[0] == {
        "href": f"http://localhost{stack_path(stack, '/resources/inner')}",
        "rel": "self",
    }


@pytest.mark.oracle
def test_a_nested_stack_is_linked_as_heat_links_it(app: flask.Flask) -> None:
    stack = {"tenant": PROJECT, "stack_name": "outer", "stack_id": "1", "path": ""}
    nested = {"tenant": PROJECT, "stack_name": "outer-inner-x", "stack_id": "2", "path": ""}
    document = {
        "resource_name": "inner",
        "resource_action": "CREATE",
        "resource_status": "COMPLETE",
        "resource_identity": {**stack, "path": "/resources/inner"},
        "stack_identity": stack,
        "stack_name": "outer",
        "nested_stack_id": nested,
        "metadata": {},
        "parent_resource": "group",
    }

    with app.test_request_context("/", base_url="http://localhost/v1"):
        ours = resources.format_resource(document)

    assert ours == heat_format([document])[0]
    assert [link["rel"] for link in ours["links"]] == ["self", "stack", "nested"]


def test_an_unknown_resource_is_not_found(client: FlaskClient, stack: dict[str, Any]) -> None:
    response = client.get(stack_path(stack, "/resources/missing"), headers=HEADERS)

    assert response.status_code == 404
    assert response.get_json()["error"] == {
        "type": "ResourceNotFound",
        "traceback": None,
        "message": "The Resource (missing) could not be found in Stack resourceful.",
    }


def test_a_signal_reaches_the_resource_and_shows_in_its_metadata(
    client: FlaskClient, stack: dict[str, Any]
) -> None:
    signal = {"status": "SUCCESS", "reason": "done", "data": "42", "id": "7"}

    response = client.post(
        stack_path(stack, "/resources/handle/signal"),
        headers=JSON_HEADERS,
        data=json.dumps(signal),
    )
    metadata = client.get(stack_path(stack, "/resources/handle/metadata"), headers=HEADERS)

    assert (response.status_code, response.get_data(as_text=True)) == (200, "null")
    assert response.headers["Content-Type"] == "application/json"
    assert metadata.status_code == 200
    assert metadata.get_json() == {
        "metadata": {"7": {"status": "SUCCESS", "reason": "done", "data": "42"}}
    }


def test_marking_a_resource_unhealthy_marks_its_state(
    client: FlaskClient, stack: dict[str, Any]
) -> None:
    response = client.patch(
        stack_path(stack, "/resources/first"),
        headers=JSON_HEADERS,
        data=json.dumps({"mark_unhealthy": "true", "resource_status_reason": "broken"}),
    )
    shown = client.get(stack_path(stack, "/resources/first"), headers=HEADERS).get_json()

    assert (response.status_code, response.get_data(as_text=True)) == (200, "null")
    assert shown["resource"]["resource_status"] == "CHECK_FAILED"
    assert shown["resource"]["resource_status_reason"] == "broken"


def test_a_stack_of_another_project_is_refused(client: FlaskClient) -> None:
    other = {"X-Auth-User": "bob", "X-Auth-Project": "project-b"}

    response = client.get(f"/v1/{PROJECT}/stacks/s/1/resources", headers=other)

    # noauth callers are admins, so the URL's project is replaced by their own: the
    # stack is looked for (and not found) in project-b.
    assert response.status_code == 404
