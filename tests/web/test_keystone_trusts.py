"""A stack's trust through the native API and the engine, with the real Keystone:
made at create (``deferred_auth_method = trusts``), kept encrypted, gone with the stack."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import flask
import pytest
import sqlalchemy as sa
from flask.testing import FlaskClient
from oslo_config import cfg

from keel_app.common import config
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.settings import from_conf
from keel_app.models.database import Database
from keel_app.models.stack import Stack, UserCreds
from keel_app.rpc.client import EngineClient
from keel_app.rpc.local import LocalTransport
from keel_app.web import create_app
from tests import databases
from tests.keystone import ALICE, Keystone
from tests.models.api.factories import migrated_database

NONE_TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {"placeholder": {"type": "OS::Heat::None"}},
}


@pytest.fixture
def conf(keystone_service: Keystone, tmp_path: Path) -> cfg.ConfigOpts:
    path = tmp_path / "heat.conf"
    path.write_text(keystone_service.heat_conf())
    return config.load(["--config-file", str(path)])


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    with databases.fresh_database("sqlite", tmp_path) as url:
        database = migrated_database(url)
        yield database
        database.dispose()


@pytest.fixture
def queue(database: Database, conf: cfg.ConfigOpts) -> LocalQueue:
    queue = LocalQueue()
    queue.handler = Worker(database, from_conf(conf, engine_id="engine-1"), queue).handle
    return queue


@pytest.fixture
def app(conf: cfg.ConfigOpts, database: Database, queue: LocalQueue) -> flask.Flask:
    settings = from_conf(conf, engine_id="engine-1")
    engine_client = EngineClient(LocalTransport(settings, database, queue))
    return create_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})


@pytest.fixture
def run_engine(queue: LocalQueue) -> Callable[[], Any]:
    return queue.run_until_idle


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

    created = client.post(
        f"/v1/{project_a}/stacks",
        headers={"X-Auth-Token": token},
        json={"stack_name": "trusted", "template": NONE_TEMPLATE},
    )
    run_engine()
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
