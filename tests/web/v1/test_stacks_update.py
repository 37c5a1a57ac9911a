from __future__ import annotations

import copy
from typing import Any

from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import (
    NONE_TEMPLATE,
    VALUE_TEMPLATE,
    created,
    shown,
    stack_path,
)

ACCEPTED_TEXT = "202 Accepted\n\nThe request is accepted for processing.\n\n   "


def said(client: FlaskClient, identity: dict[str, str]) -> Any:
    outputs = {output["output_key"]: output for output in shown(client, identity)["outputs"]}
    return outputs["said"]["output_value"]


def test_put_replaces_the_template_and_answers_202(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "updated", VALUE_TEMPLATE)
    run_engine()
    template = copy.deepcopy(VALUE_TEMPLATE)
    template["parameters"]["greeting"]["default"] = "bonjour"

    response = client.put(stack_path(identity), headers=HEADERS, json={"template": template})
    run_engine()

    assert response.status_code == 202
    assert response.headers["Content-Type"] == "text/plain; charset=UTF-8"
    assert response.get_data(as_text=True) == ACCEPTED_TEXT
    assert shown(client, identity)["stack_status"] == "UPDATE_COMPLETE"
    assert said(client, identity) == "bonjour"


def test_patch_keeps_the_template_and_changes_a_parameter(
    client: FlaskClient, run_engine: Any
) -> None:
    identity = created(client, "patched", VALUE_TEMPLATE, parameters={"greeting": "hi"})
    run_engine()

    response = client.patch(
        stack_path(identity), headers=HEADERS, json={"parameters": {"greeting": "hey"}}
    )
    run_engine()

    assert response.status_code == 202
    assert said(client, identity) == "hey"
    template = client.get(stack_path(identity, "/template"), headers=HEADERS)
    assert template.get_json() == VALUE_TEMPLATE


def test_put_without_a_template_is_heats_400(client: FlaskClient) -> None:
    identity = created(client, "kept", NONE_TEMPLATE)

    response = client.put(stack_path(identity), headers=HEADERS, json={"parameters": {}})

    assert response.status_code == 400
    assert response.get_json()["error"]["message"] == "No template specified"


def test_preview_update_lists_the_resource_changes(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "previewed", NONE_TEMPLATE)
    run_engine()
    template = {
        **NONE_TEMPLATE,
        "resources": {"other": {"type": "OS::Heat::None"}},
    }

    response = client.put(
        stack_path(identity, "/preview"), headers=HEADERS, json={"template": template}
    )

    assert response.status_code == 200
    changes = response.get_json()["resource_changes"]
    assert sorted(changes) == ["added", "deleted", "replaced", "unchanged", "updated"]
    assert [change["resource_name"] for change in changes["added"]] == ["other"]
    assert [change["resource_name"] for change in changes["deleted"]] == ["placeholder"]
    assert shown(client, identity)["stack_status"] == "CREATE_COMPLETE"


def test_delete_answers_204_and_the_stack_goes(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "deleted", NONE_TEMPLATE)
    run_engine()

    response = client.delete(stack_path(identity), headers=HEADERS)
    run_engine()

    assert response.status_code == 204
    assert response.get_data() == b""
    assert "Content-Type" not in response.headers
    assert shown(client, identity)["stack_status"] == "DELETE_COMPLETE"
    assert client.get(v1("stacks/deleted"), headers=HEADERS).status_code == 404


def test_the_stored_template_environment_and_files(client: FlaskClient, run_engine: Any) -> None:
    identity = created(
        client,
        "stored",
        NONE_TEMPLATE,
        environment={"parameter_defaults": {"unused": 1}},
        files={"file.txt": "content"},
    )
    run_engine()

    template = client.get(stack_path(identity, "/template"), headers=HEADERS)
    environment = client.get(stack_path(identity, "/environment"), headers=HEADERS)
    files = client.get(stack_path(identity, "/files"), headers=HEADERS)

    assert template.get_json() == NONE_TEMPLATE
    assert environment.get_json() == {
        "parameters": {},
        "resource_registry": {"resources": {}},
        "parameter_defaults": {"unused": 1},
        "event_sinks": [],
        "encrypted_param_names": [],
    }
    assert files.get_json() == {"file.txt": "content"}


def test_outputs_are_listed_and_shown_one_by_one(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "outputs", VALUE_TEMPLATE)
    run_engine()

    listing = client.get(stack_path(identity, "/outputs"), headers=HEADERS)
    one = client.get(stack_path(identity, "/outputs/said"), headers=HEADERS)

    assert listing.get_json() == {
        "outputs": [
            {"output_key": "said", "description": "what was said"},
            {"output_key": "secret", "description": "No description given"},
        ]
    }
    assert one.get_json() == {
        "output": {"output_key": "said", "description": "what was said", "output_value": "hello"}
    }


def test_abandon_is_refused_unless_the_engine_allows_it(client: FlaskClient) -> None:
    identity = created(client, "kept", NONE_TEMPLATE)

    response = client.delete(stack_path(identity, "/abandon"), headers=HEADERS)

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "NotSupported",
        "traceback": None,
        "message": "Stack Abandon is not supported.",
    }
