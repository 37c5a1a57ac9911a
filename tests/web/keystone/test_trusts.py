"""A stack's trust through the native API and the engine, with the real Keystone:
made at create (``deferred_auth_method = trusts``), kept encrypted, gone with the stack."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flask
import sqlalchemy as sa
from flask.testing import FlaskClient

from keel_app.models.database import Database
from keel_app.models.stack import Stack, UserCreds
from tests.keystone import ADMIN, ALICE, Keystone

NONE_TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {"placeholder": {"type": "OS::Heat::None"}},
}


def stored_creds(database: Database) -> list[tuple[Any, ...]]:
    with database.transaction() as session:
        rows = session.execute(
            sa.select(UserCreds.trust_id, UserCreds.trustor_user_id, UserCreds.password)
        ).all()
    return [tuple(row) for row in rows]


def trust_ids_of(keystone: Keystone, token: str, user_id: str) -> list[str]:
    status, body = keystone.request("GET", f"/OS-TRUST/trusts?trustor_user_id={user_id}", token)
    assert status == 200 and body is not None
    return [trust["id"] for trust in body["trusts"]]


def create_as(
    client: FlaskClient, token: str, project_id: str, name: str, run_engine: Callable[[], Any]
) -> Any:
    """POST a one-resource stack with ``token`` and run the engine: the answer."""
    created = client.post(
        f"/v1/{project_id}/stacks",
        headers={"X-Auth-Token": token},
        json={"stack_name": name, "template": NONE_TEMPLATE},
    )
    run_engine()
    return created


def test_a_stack_keeps_a_trust_of_its_owner_until_it_is_deleted(
    app: flask.Flask,
    keystone_service: Keystone,
    database: Database,
    run_engine: Callable[[], Any],
) -> None:
    client: FlaskClient = app.test_client()
    token = keystone_service.token(ALICE)
    alice_id = keystone_service.user_ids["alice"]
    project_a = keystone_service.project_id(ALICE)
    trusts_before = trust_ids_of(keystone_service, token, alice_id)

    created = create_as(client, token, project_a, "trusted", run_engine)
    new_trusts = [
        trust_id
        for trust_id in trust_ids_of(keystone_service, token, alice_id)
        if trust_id not in trusts_before
    ]
    creds_while_alive = stored_creds(database)

    assert created.status_code == 201
    assert len(new_trusts) == 1
    # The trust id is stored encrypted, beside its trustor, and no password at all.
    [(encrypted_trust, trustor, password)] = creds_while_alive
    assert (trustor, password) == (alice_id, None)
    assert encrypted_trust not in (None, new_trusts[0])

    stack_id = created.get_json()["stack"]["id"]
    deleted = client.delete(
        f"/v1/{project_a}/stacks/trusted/{stack_id}", headers={"X-Auth-Token": token}
    )
    run_engine()

    assert deleted.status_code == 204
    assert new_trusts[0] not in trust_ids_of(keystone_service, token, alice_id)
    assert stored_creds(database) == []
    with database.transaction() as session:
        stack = session.get(Stack, stack_id)
        assert stack is not None
        assert (stack.action, stack.status, stack.user_creds_id) == ("DELETE", "COMPLETE", None)


def stack_trustor(database: Database, stack_id: str) -> tuple[Any, Any]:
    with database.transaction() as session:
        stack = session.get(Stack, stack_id)
        assert stack is not None and stack.user_creds_id is not None
        creds = session.get(UserCreds, stack.user_creds_id)
        assert creds is not None
        return creds.trustor_user_id, creds.tenant_id


def test_another_user_updating_the_stack_takes_its_trust_over(
    app: flask.Flask,
    keystone_service: Keystone,
    database: Database,
    run_engine: Callable[[], Any],
) -> None:
    client: FlaskClient = app.test_client()
    alice_token, admin_token = keystone_service.token(ALICE), keystone_service.token(ADMIN)
    alice_id, admin_id = keystone_service.user_ids["alice"], keystone_service.user_ids["admin"]
    project_a = keystone_service.project_id(ALICE)
    alice_trusts_before = trust_ids_of(keystone_service, alice_token, alice_id)
    created = create_as(client, alice_token, project_a, "handed-over", run_engine)
    stack_id = created.get_json()["stack"]["id"]
    [alices_trust] = [
        trust_id
        for trust_id in trust_ids_of(keystone_service, alice_token, alice_id)
        if trust_id not in alice_trusts_before
    ]

    updated = client.patch(
        f"/v1/{project_a}/stacks/handed-over/{stack_id}",
        headers={"X-Auth-Token": admin_token},
        json={"parameters": {}},
    )
    run_engine()

    assert updated.status_code == 202
    assert stack_trustor(database, stack_id) == (admin_id, keystone_service.project_id(ADMIN))
    # The creator's trust is gone from Keystone; one row of credentials is left.
    assert alices_trust not in trust_ids_of(keystone_service, alice_token, alice_id)
    assert len(stored_creds(database)) == 1
    with database.transaction() as session:
        stack = session.get(Stack, stack_id)
        assert stack is not None
        assert (stack.action, stack.status) == ("UPDATE", "COMPLETE")


def test_the_owner_updating_keeps_the_same_trust(
    app: flask.Flask,
    keystone_service: Keystone,
    database: Database,
    run_engine: Callable[[], Any],
) -> None:
    client: FlaskClient = app.test_client()
    token = keystone_service.token(ALICE)
    project_a = keystone_service.project_id(ALICE)
    created = create_as(client, token, project_a, "kept", run_engine)
    stack_id = created.get_json()["stack"]["id"]
    before = stored_creds(database)

    client.patch(
        f"/v1/{project_a}/stacks/kept/{stack_id}",
        headers={"X-Auth-Token": token},
        json={"parameters": {}},
    )
    run_engine()

    assert stored_creds(database) == before


def test_an_admin_deleting_the_stack_leaves_no_trust_of_either_user(
    app: flask.Flask,
    keystone_service: Keystone,
    database: Database,
    run_engine: Callable[[], Any],
) -> None:
    client: FlaskClient = app.test_client()
    alice_token, admin_token = keystone_service.token(ALICE), keystone_service.token(ADMIN)
    alice_id, admin_id = keystone_service.user_ids["alice"], keystone_service.user_ids["admin"]
    project_a = keystone_service.project_id(ALICE)
    admin_trusts_before = trust_ids_of(keystone_service, admin_token, admin_id)
    alice_trusts_before = trust_ids_of(keystone_service, alice_token, alice_id)
    created = create_as(client, alice_token, project_a, "removed", run_engine)
    stack_id = created.get_json()["stack"]["id"]

    deleted = client.delete(
        f"/v1/{project_a}/stacks/removed/{stack_id}", headers={"X-Auth-Token": admin_token}
    )
    run_engine()

    assert deleted.status_code == 204
    assert trust_ids_of(keystone_service, alice_token, alice_id) == alice_trusts_before
    assert trust_ids_of(keystone_service, admin_token, admin_id) == admin_trusts_before
    assert stored_creds(database) == []
