"""Fixtures of the engine tests that work on a database: a migrated database on each
engine, engine settings, and a non-admin caller."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from keel_app.common.context import RequestContext
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from tests.models.api.factories import migrated_database

PROJECT = "project-a"


@pytest.fixture
def database(empty_database_url: str) -> Iterator[Database]:
    database = migrated_database(empty_database_url)
    yield database
    database.dispose()


@pytest.fixture
def settings() -> EngineSettings:
    return EngineSettings(host="engine-host", engine_id="engine-1")


@pytest.fixture
def context() -> RequestContext:
    return RequestContext(
        user_id="user-1",
        username="alice",
        password="secret",
        project_id=PROJECT,
        project_name="demo",
        roles=["member"],
        is_admin=False,
        auth_url="http://keystone:5000/v3",
    )
