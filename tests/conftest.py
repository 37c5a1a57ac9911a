from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import cloud as test_cloud
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


@pytest.fixture(scope="session")
def cloud(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[test_cloud.Cloud]:
    """A real OpenStack cloud: the one ``tools/test-cloud up`` started if
    ``$KEEL_TEST_CLOUD`` names its state file, else one of this session's own."""
    state_file = os.environ.get("KEEL_TEST_CLOUD")
    if state_file:
        yield test_cloud.Cloud.load(Path(state_file))
        return
    identity = request.getfixturevalue("keystone_service")
    with test_cloud.running(tmp_path_factory.mktemp("cloud"), identity) as service:
        yield service
