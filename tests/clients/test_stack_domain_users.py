"""The stack-user domain with a real Keystone: the domain admin makes a stack's project,
its users (with the heat_stack_user role there), their EC2 keypairs and tokens, and
deletes them again; what is already gone is deleted quietly."""

from __future__ import annotations

import dataclasses
import json
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
from keystoneclient.contrib.ec2.utils import Ec2Signer

from keel_app.clients import stack_domain_users
from keel_app.clients.ec2_signature import sign_v2
from keel_app.clients.engine_clients import OpenStackClients
from keel_app.common import config
from keel_app.common.context import RequestContext
from keel_app.common.exception import AuthorizationFailure, Error
from keel_app.engine.settings import EngineSettings
from keel_app.engine.settings import from_conf as engine_settings
from tests.clients.test_keystone_trusts import caller
from tests.keystone import ADMIN, ALICE, Keystone


def settings_of(keystone: Keystone, directory: Path, extra: str = "") -> EngineSettings:
    path = directory / "heat.conf"
    path.write_text(keystone.heat_conf() + extra)
    return engine_settings(config.load(["--config-file", str(path)]))


@pytest.fixture
def stack_id() -> str:
    # A stack of its own for each test: the project's name is made from it, and a
    # project left behind by a failed test must not collide with the next test's.
    return str(uuid.uuid4())


@pytest.fixture
def settings(keystone_service: Keystone, tmp_path: Path) -> EngineSettings:
    return settings_of(keystone_service, tmp_path)


@pytest.fixture
def alice(keystone_service: Keystone) -> RequestContext:
    return caller(keystone_service, ALICE)


@pytest.fixture
def client(settings: EngineSettings, alice: RequestContext) -> Any:
    return OpenStackClients(alice, settings).client("keystone")


def validate(keystone: Keystone, token: str) -> dict[str, Any]:
    """Keystone's description of ``token`` (GET /v3/auth/tokens as the admin)."""
    request = urllib.request.Request(
        keystone.auth_url + "/auth/tokens",
        headers={"X-Auth-Token": keystone.token(ADMIN), "X-Subject-Token": token},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        body: dict[str, Any] = json.loads(response.read())
    return body


def admin_get(keystone: Keystone, path: str) -> tuple[int, dict[str, Any] | None]:
    return keystone.request("GET", path, keystone.token(ADMIN))


def test_the_settings_name_the_domain_and_its_admin(
    settings: EngineSettings, keystone_service: Keystone
) -> None:
    assert settings.stack_domain == stack_domain_users.StackDomainSettings(
        domain_id=keystone_service.stack_user_domain_id,
        domain_name=None,
        admin_user="heat_domain_admin",
        admin_password="heat-domain-secret",
        stack_user_role="heat_stack_user",
    )
    assert "heat-domain-secret" not in repr(settings.stack_domain)


def test_a_stack_project_is_made_in_the_domain_and_deleted(
    client: Any, keystone_service: Keystone, alice: RequestContext, stack_id: str
) -> None:
    project_id = client.create_stack_domain_project(stack_id)

    status, found = admin_get(keystone_service, f"/projects/{project_id}")
    assert status == 200 and found is not None
    project = found["project"]
    assert (project["name"], project["domain_id"], project["description"]) == (
        f"{alice.project_id}-{stack_id}"[:64],
        keystone_service.stack_user_domain_id,
        "Heat stack user project",
    )

    client.delete_stack_domain_project(project_id)
    assert admin_get(keystone_service, f"/projects/{project_id}")[0] == 404
    # Gone already: nothing to do, no error.
    client.delete_stack_domain_project(project_id)


def test_a_project_outside_the_domain_is_never_deleted(
    client: Any, keystone_service: Keystone
) -> None:
    project_a = keystone_service.project_id(ALICE)

    client.delete_stack_domain_project(project_a)

    assert admin_get(keystone_service, f"/projects/{project_a}")[0] == 200


def test_a_user_gets_the_stack_user_role_a_keypair_and_a_token(
    client: Any, keystone_service: Keystone, stack_id: str
) -> None:
    project_id = client.create_stack_domain_project(stack_id)
    user_id = client.create_stack_domain_user(
        "stack-policy-abcdef", project_id, password="Pa55word!x"
    )

    status, found = admin_get(keystone_service, f"/users/{user_id}")
    assert status == 200 and found is not None
    user = found["user"]
    assert (user["name"], user["domain_id"], user["default_project_id"], user["enabled"]) == (
        "stack-policy-abcdef",
        keystone_service.stack_user_domain_id,
        project_id,
        True,
    )
    status, assignments = admin_get(
        keystone_service, f"/role_assignments?user.id={user_id}&include_names=true"
    )
    assert assignments is not None
    assert [
        (entry["role"]["name"], entry["scope"]["project"]["id"])
        for entry in assignments["role_assignments"]
    ] == [("heat_stack_user", project_id)]

    keypair = client.create_stack_domain_user_keypair(user_id, project_id, secret="s3cret")
    status, credential = admin_get(keystone_service, f"/credentials/{keypair.id}")
    assert credential is not None
    assert (credential["credential"]["type"], credential["credential"]["user_id"]) == (
        "ec2",
        user_id,
    )
    assert keypair.secret == "s3cret" and len(keypair.access) == 32

    token = client.stack_domain_user_token(user_id, project_id, "Pa55word!x")
    validated = validate(keystone_service, token)["token"]
    assert (validated["user"]["id"], validated["project"]["id"]) == (user_id, project_id)
    assert [role["name"] for role in validated["roles"]] == ["heat_stack_user"]

    client.delete_stack_domain_user_keypair(user_id, project_id, keypair.id)
    assert admin_get(keystone_service, f"/credentials/{keypair.id}")[0] == 404
    client.delete_stack_domain_user(user_id, project_id)
    assert admin_get(keystone_service, f"/users/{user_id}")[0] == 404
    # Deleting again is quiet, as Heat ignores NotFound.
    client.delete_stack_domain_user_keypair(user_id, project_id, keypair.id)
    client.delete_stack_domain_user(user_id, project_id)
    client.delete_stack_domain_project(project_id)


def test_a_disabled_user_gets_no_token_until_enabled(
    client: Any, keystone_service: Keystone, stack_id: str
) -> None:
    project_id = client.create_stack_domain_project(stack_id)
    user_id = client.create_stack_domain_user("stack-handle-1", project_id, password="Pa55word!y")
    try:
        client.disable_stack_domain_user(user_id, project_id)
        assert admin_get(keystone_service, f"/users/{user_id}")[1]["user"]["enabled"] is False
        with pytest.raises(Exception, match="disabled|401|authenticate"):
            client.stack_domain_user_token(user_id, project_id, "Pa55word!y")

        client.enable_stack_domain_user(user_id, project_id)
        assert client.stack_domain_user_token(user_id, project_id, "Pa55word!y")
    finally:
        client.delete_stack_domain_user(user_id, project_id)
        client.delete_stack_domain_project(project_id)


def test_a_user_of_another_project_is_not_touched(
    client: Any, keystone_service: Keystone, stack_id: str
) -> None:
    project_id = client.create_stack_domain_project(stack_id)
    user_id = client.create_stack_domain_user("stack-other", project_id)
    try:
        with pytest.raises(ValueError, match="^User delete in invalid project$"):
            client.delete_stack_domain_user(user_id, "some-other-project")
        assert admin_get(keystone_service, f"/users/{user_id}")[0] == 200
    finally:
        client.delete_stack_domain_user(user_id, project_id)
        client.delete_stack_domain_project(project_id)


def test_long_user_names_keep_their_last_255_characters() -> None:
    assert stack_domain_users.username_for("x" * 10 + "y" * 255) == "y" * 255


def test_a_missing_role_is_heats_error(
    keystone_service: Keystone, tmp_path: Path, alice: RequestContext
) -> None:
    settings = settings_of(keystone_service, tmp_path, "")
    domain = stack_domain_users.StackDomainSettings(
        **{**settings.stack_domain.__dict__, "stack_user_role": "no_such_role"}
    )
    client = OpenStackClients(alice, dataclasses.replace(settings, stack_domain=domain)).client(
        "keystone"
    )

    with pytest.raises(Error, match="^Can't find role no_such_role$"):
        client.create_stack_domain_user("anyone", "some-project")


def test_a_wrong_domain_admin_password_is_an_authorization_failure(
    keystone_service: Keystone, tmp_path: Path, alice: RequestContext, stack_id: str
) -> None:
    settings = settings_of(keystone_service, tmp_path, "")
    domain = stack_domain_users.StackDomainSettings(
        **{**settings.stack_domain.__dict__, "admin_password": "wrong"}
    )
    client = OpenStackClients(alice, dataclasses.replace(settings, stack_domain=domain)).client(
        "keystone"
    )

    with pytest.raises(AuthorizationFailure):
        client.create_stack_domain_project(stack_id)


def test_the_signature_is_keystoneclients() -> None:
    params = {
        "SignatureMethod": "HmacSHA256",
        "SignatureVersion": "2",
        "AWSAccessKeyId": "4567",
        "Timestamp": "2026-12-01T12:00:00Z",
    }
    request = {
        "host": "127.0.0.1:8000",
        "verb": "POST",
        "path": "/v1/signal/arn:openstack:heat::p:stacks/s/1/resources/policy",
        "params": params,
    }
    assert sign_v2("sekrit ~!", "POST", request["host"], request["path"], params) == Ec2Signer(
        "sekrit ~!"
    ).generate(request)
