"""The stack routes under an operator's policy file, which overrides Heat's defaults."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flask
import pytest
from flask.testing import FlaskClient

from keel_app.rpc.client import EngineClient
from keel_app.web import create_app
from tests.web.conftest import heat_conf
from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import NONE_TEMPLATE, created, stack_path

POLICY = '"stacks:global_index": ""\n"stacks:update_patch": "!"\n'


@pytest.fixture
def app(tmp_path: Path, engine_client: EngineClient) -> flask.Flask:
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text(POLICY)
    conf = heat_conf(tmp_path, extra=f"[oslo_policy]\npolicy_file = {policy_file}\n")
    return create_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})


def test_global_tenant_lists_every_projects_stacks(client: FlaskClient) -> None:
    created(client, "mine", NONE_TEMPLATE)
    other_caller = {"X-Auth-User": "bob", "X-Auth-Project": "project-b"}
    client.post(
        "/v1/project-b/stacks",
        headers=other_caller,
        json={"stack_name": "theirs", "template": NONE_TEMPLATE},
    )

    response = client.get(v1("stacks?global_tenant=True&sort_keys=name"), headers=HEADERS)

    stacks = response.get_json()["stacks"]
    assert response.status_code == 200
    assert sorted((stack["stack_name"], stack["project"]) for stack in stacks) == [
        ("mine", "project-a"),
        ("theirs", "project-b"),
    ]


def test_a_patch_body_is_judged_before_the_patch_policy(client: FlaskClient) -> None:
    identity = created(client, "guarded", NONE_TEMPLATE)

    faulty = client.patch(
        stack_path(identity), headers=HEADERS, json={"environment": {"nonsense": {}}}
    )
    refused = client.patch(stack_path(identity), headers=HEADERS, json={"parameters": {}})

    assert (faulty.status_code, faulty.get_json()["error"]["message"]) == (
        400,
        'Environment not in valid format: environment has wrong section "nonsense"',
    )
    assert refused.status_code == 403
    assert refused.get_json()["error"] == {
        "type": "Forbidden",
        "traceback": None,
        "message": "You are not authorized to use stacks:update_patch.",
    }


def test_a_put_is_not_governed_by_the_patch_policy(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "open", NONE_TEMPLATE)
    run_engine()

    response = client.put(stack_path(identity), headers=HEADERS, json={"template": NONE_TEMPLATE})

    assert response.status_code == 202
