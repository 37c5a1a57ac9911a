"""Who counts as an admin is the ``context_is_admin`` rule, which a policy file may redefine."""

from __future__ import annotations

from pathlib import Path

import flask
from flask.testing import FlaskClient

from keel_app.rpc.client import EngineClient
from keel_app.web import create_app
from tests.web.conftest import heat_conf
from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import NONE_TEMPLATE, created

OTHER_PROJECT = {"X-Auth-User": "bob", "X-Auth-Project": "project-b"}


def app_with_policy(tmp_path: Path, engine_client: EngineClient, policy: str) -> flask.Flask:
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text(policy)
    conf = heat_conf(tmp_path, extra=f"[oslo_policy]\npolicy_file = {policy_file}\n")
    return create_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})


def test_by_default_the_admin_role_sees_each_stacks_project(client: FlaskClient) -> None:
    created(client, "listed", NONE_TEMPLATE)

    [stack] = client.get(v1("stacks"), headers=HEADERS).get_json()["stacks"]

    assert stack["project"] == "project-a"


def test_a_redefined_rule_takes_admin_away_from_the_admin_role(
    tmp_path: Path, engine_client: EngineClient
) -> None:
    app = app_with_policy(tmp_path, engine_client, '"context_is_admin": "role:cloud_admin"\n')
    client = app.test_client()
    created(client, "listed", NONE_TEMPLATE)

    [stack] = client.get(v1("stacks"), headers=HEADERS).get_json()["stacks"]

    assert "project" not in stack


def other_projects_view(client: FlaskClient) -> int:
    identity = created(client, "private", NONE_TEMPLATE)
    path = f"/v1/project-b/stacks/private/{identity['stack_id']}"
    return client.get(path, headers=OTHER_PROJECT).status_code


def test_an_admin_of_another_project_reaches_the_stack(client: FlaskClient) -> None:
    assert other_projects_view(client) == 200


def test_without_admin_another_projects_stack_is_out_of_reach(
    tmp_path: Path, engine_client: EngineClient
) -> None:
    app = app_with_policy(tmp_path, engine_client, '"context_is_admin": "role:cloud_admin"\n')

    assert other_projects_view(app.test_client()) == 404
