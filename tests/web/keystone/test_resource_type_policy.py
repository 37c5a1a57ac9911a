"""Heat's resource type policy at work on stacks, behind the real Keystone: a member may
not create, preview or update a stack using an admin-only type (OS::Keystone::*,
OS::Nova::Flavor ...), and is told so before anything is validated or stored."""

from __future__ import annotations

from typing import Any

import flask

from tests.keystone import ADMIN, ALICE, Account, Keystone

FORBIDDEN_PROJECT = {
    "type": "Forbidden",
    "traceback": None,
    "message": "You are not authorized to use OS::Keystone::Project.",
}


def template(*types: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {f"r{index}": {"type": name} for index, name in enumerate(types)},
    }


def call(
    app: flask.Flask, keystone: Keystone, account: Account, method: str, path: str, body: Any
) -> Any:
    project = keystone.project_id(account)
    headers = {"X-Auth-Token": keystone.token(account)}
    return app.test_client().open(f"/v1/{project}{path}", method=method, headers=headers, json=body)


def test_a_member_may_not_create_a_stack_with_an_admin_only_type(
    app: flask.Flask, keystone_service: Keystone
) -> None:
    body = {"stack_name": "projects", "template": template("OS::Keystone::Project")}

    response = call(app, keystone_service, ALICE, "POST", "/stacks", body)

    assert response.status_code == 403
    assert response.get_json()["error"] == FORBIDDEN_PROJECT
    listed = call(app, keystone_service, ALICE, "GET", "/stacks", None).get_json()["stacks"]
    assert listed == []


def test_a_member_may_not_preview_one_either(app: flask.Flask, keystone_service: Keystone) -> None:
    body = {"stack_name": "projects", "template": template("OS::Keystone::Project")}

    response = call(app, keystone_service, ALICE, "POST", "/stacks/preview", body)

    assert response.status_code == 403
    assert response.get_json()["error"] == FORBIDDEN_PROJECT


def test_an_update_bringing_in_an_admin_only_type_is_forbidden(
    app: flask.Flask, keystone_service: Keystone, run_engine: Any
) -> None:
    created = call(
        app,
        keystone_service,
        ALICE,
        "POST",
        "/stacks",
        {"stack_name": "growing", "template": template("OS::Heat::None")},
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    run_engine()
    stack_id = created.get_json()["stack"]["id"]

    response = call(
        app,
        keystone_service,
        ALICE,
        "PUT",
        f"/stacks/growing/{stack_id}",
        {"template": template("OS::Heat::None", "OS::Nova::Flavor")},
    )

    assert response.status_code == 403
    # The type's own rule refused it: Heat names the rule (a namespace's names the type).
    assert response.get_json()["error"]["message"] == (
        "You are not authorized to use resource_types:OS::Nova::Flavor."
    )


def test_an_admin_may_preview_it(app: flask.Flask, keystone_service: Keystone) -> None:
    body = {"stack_name": "projects", "template": template("OS::Keystone::Project")}

    response = call(app, keystone_service, ADMIN, "POST", "/stacks/preview", body)

    assert response.status_code == 200, response.get_data(as_text=True)
