from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import (
    BASE_URL,
    NONE_TEMPLATE,
    UUID,
    VALUE_TEMPLATE,
    created,
    shown,
    stack_url,
    timestamps_of,
)


def test_create_answers_201_with_the_stack_link_and_location(client: FlaskClient) -> None:
    response = client.post(
        v1("stacks"), headers=HEADERS, json={"stack_name": "one", "template": NONE_TEMPLATE}
    )

    stack_id = response.get_json()["stack"]["id"]
    href = f"{BASE_URL}/one/{stack_id}"
    assert UUID.match(stack_id)
    assert response.status_code == 201
    assert response.headers["Location"] == href
    assert response.headers["Content-Type"] == "application/json"
    assert response.get_json() == {
        "stack": {"id": stack_id, "links": [{"href": href, "rel": "self"}]}
    }


def test_a_created_stack_shows_its_complete_state_and_outputs(
    client: FlaskClient, run_engine: object
) -> None:
    identity = created(client, "valued", VALUE_TEMPLATE, parameters={"greeting": "hi"})
    run_engine()  # type: ignore[operator]

    stack = shown(client, identity)

    secret = stack["outputs"][1]["output_value"]
    assert re.match("^[A-Za-z0-9]{12}$", secret)
    assert stack == {
        "stack_name": "valued",
        "id": identity["stack_id"],
        "links": [{"href": stack_url(identity), "rel": "self"}],
        **timestamps_of(stack),
        "notification_topics": [],
        "parameters": {
            "OS::stack_id": identity["stack_id"],
            "OS::project_id": "project-a",
            "OS::stack_name": "valued",
            "greeting": "hi",
        },
        "description": "No description",
        "template_description": "No description",
        "capabilities": [],
        "disable_rollback": True,
        "timeout_mins": None,
        "stack_owner": "alice",
        "parent": None,
        "stack_user_project_id": None,
        "tags": [],
        "stack_status": "CREATE_COMPLETE",
        "stack_status_reason": "Stack CREATE completed successfully",
        "outputs": [
            {"output_key": "said", "description": "what was said", "output_value": "hi"},
            {"output_key": "secret", "description": "No description given", "output_value": secret},
        ],
    }


def test_show_without_resolving_outputs_leaves_them_out(
    client: FlaskClient, run_engine: object
) -> None:
    identity = created(client, "valued", VALUE_TEMPLATE)
    run_engine()  # type: ignore[operator]

    stack = shown(client, identity, "?resolve_outputs=False")

    assert "outputs" not in stack
    assert stack["stack_status"] == "CREATE_COMPLETE"


def test_create_takes_the_options_of_the_body(client: FlaskClient, run_engine: object) -> None:
    identity = created(
        client,
        "options",
        NONE_TEMPLATE,
        timeout_mins="7",
        disable_rollback=False,
        tags="blue,green",
    )
    run_engine()  # type: ignore[operator]

    stack = shown(client, identity)

    assert (stack["timeout_mins"], stack["disable_rollback"], stack["tags"]) == (
        7,
        False,
        ["blue", "green"],
    )
    assert stack["description"] == "one placeholder"


def test_create_reads_a_yaml_template_and_an_environment_text(
    client: FlaskClient, run_engine: object
) -> None:
    template = (
        "heat_template_version: 2018-08-31\n"
        "parameters:\n  greeting: {type: string}\n"
        "resources:\n  value:\n    type: OS::Heat::Value\n"
        "    properties: {value: {get_param: greeting}}\n"
        "outputs:\n  said: {value: {get_attr: [value, value]}}\n"
    )
    identity = created(
        client, "yaml", template, environment="parameter_defaults:\n  greeting: from env\n"
    )
    run_engine()  # type: ignore[operator]

    stack = shown(client, identity)

    assert stack["outputs"] == [
        {"output_key": "said", "description": "No description given", "output_value": "from env"}
    ]


def test_create_of_a_taken_name_is_a_conflict(client: FlaskClient) -> None:
    created(client, "twice", NONE_TEMPLATE)

    response = client.post(
        v1("stacks"), headers=HEADERS, json={"stack_name": "twice", "template": NONE_TEMPLATE}
    )

    assert response.status_code == 409
    assert response.get_json()["error"] == {
        "type": "StackExists",
        "traceback": None,
        "message": "The Stack (twice) already exists.",
    }


def test_create_with_a_missing_parameter_is_refused(client: FlaskClient) -> None:
    template = {**VALUE_TEMPLATE, "parameters": {"greeting": {"type": "string"}}}

    response = client.post(
        v1("stacks"), headers=HEADERS, json={"stack_name": "bare", "template": template}
    )

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "UserParameterMissing",
        "traceback": None,
        "message": "The Parameter (greeting) was not provided.",
    }


def test_create_without_a_template_is_heats_400(client: FlaskClient) -> None:
    response = client.post(v1("stacks"), headers=HEADERS, json={"stack_name": "bare"})

    assert response.status_code == 400
    assert response.get_json() == {
        "code": 400,
        "title": "Bad Request",
        "explanation": "The server could not comply with the request since it is either "
        "malformed or otherwise incorrect.",
        "error": {"type": "HTTPBadRequest", "traceback": None, "message": "No template specified"},
    }


def test_preview_shows_the_stack_to_be_with_its_resources(client: FlaskClient) -> None:
    response = client.post(
        v1("stacks/preview"),
        headers=HEADERS,
        json={"stack_name": "maybe", "template": NONE_TEMPLATE},
    )

    assert response.status_code == 200
    stack = response.get_json()["stack"]
    assert stack["stack_name"] == "maybe"
    assert "stack_status" not in stack
    assert [resource["resource_name"] for resource in stack["resources"]] == ["placeholder"]
    listing = client.get(v1("stacks"), headers=HEADERS)
    assert listing.get_json() == {"stacks": []}
