"""Fixtures of the Celery edge: a private broker vhost, a migrated database on MariaDB
and PostgreSQL, and the ``keel-worker`` fleet that serves them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from keel_app.common.context import RequestContext
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.tasks.dispatcher import CeleryDispatcher
from tests import databases, fleet
from tests.models.api.factories import migrated_database


@pytest.fixture(scope="module")
def vhost_url() -> Iterator[str]:
    with fleet.rabbit_vhost() as url, fleet.broker(url):
        yield url


@pytest.fixture(params=["mysql", "postgresql"])
def fleet_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with databases.fresh_database(request.param, tmp_path) as url:
        migrated_database(url).dispose()
        yield url


@pytest.fixture
def fleet_database(fleet_database_url: str) -> Iterator[Database]:
    database = Database(fleet_database_url)
    yield database
    database.dispose()


@pytest.fixture
def workers(vhost_url: str, fleet_database_url: str, tmp_path: Path) -> Iterator[fleet.Fleet]:
    conf_path = fleet.write_heat_conf(tmp_path, fleet_database_url)
    workers = fleet.Fleet(conf_path, vhost_url, tmp_path)
    yield workers
    workers.stop()


@pytest.fixture
def api_settings() -> EngineSettings:
    """The sending side's settings: the fleet's encryption key, an engine id of its own."""
    return EngineSettings(auth_encryption_key=fleet.ENCRYPTION_KEY, engine_id="api-process")


@pytest.fixture
def dispatcher(api_settings: EngineSettings, fleet_database: Database) -> CeleryDispatcher:
    return CeleryDispatcher(api_settings, fleet_database)


@pytest.fixture
def context() -> RequestContext:
    return RequestContext(
        user_id="user-1",
        username="alice",
        auth_token="token-of-alice",
        project_id="project-a",
        roles=["member"],
        is_admin=False,
    )
