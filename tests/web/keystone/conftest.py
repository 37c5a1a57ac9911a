"""The native API and an in-process engine behind the real Keystone, for the tests that
follow a request from the token to the stored rows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import flask
import pytest
from oslo_config import cfg

from keel_app.common import config
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.settings import EngineSettings, from_conf
from keel_app.models.database import Database
from keel_app.rpc.client import EngineClient
from keel_app.rpc.local import LocalTransport
from keel_app.web import create_app, policy
from tests import databases
from tests.keystone import Keystone
from tests.models.api.factories import migrated_database


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
def settings(conf: cfg.ConfigOpts) -> EngineSettings:
    """The engine's settings as keel-api's and keel-worker's: with Heat's resource type
    policy from heat.conf."""
    return from_conf(
        conf, engine_id="engine-1", resource_type_policy=policy.resource_type_refusal(conf)
    )


@pytest.fixture
def queue(database: Database, settings: EngineSettings) -> LocalQueue:
    queue = LocalQueue()
    queue.handler = Worker(database, settings, queue).handle
    return queue


@pytest.fixture
def app(
    conf: cfg.ConfigOpts, database: Database, queue: LocalQueue, settings: EngineSettings
) -> flask.Flask:
    engine_client = EngineClient(LocalTransport(settings, database, queue))
    return create_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})


@pytest.fixture
def run_engine(queue: LocalQueue) -> Callable[[], Any]:
    return queue.run_until_idle
