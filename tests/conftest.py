from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import databases, keystone


@pytest.fixture(params=databases.BACKENDS)
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database on each engine in turn: SQLite, MariaDB, PostgreSQL."""
    with databases.fresh_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture(scope="session")
def keystone_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[keystone.Keystone]:
    """One real Keystone for the whole session (it takes half a minute to set up)."""
    with keystone.running(tmp_path_factory.mktemp("keystone")) as service:
        yield service
