from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine.convergence.harness import Engine, make_engine
from tests.models.api.factories import migrated_database


@pytest.fixture
def engine(empty_database_url: str) -> Iterator[Engine]:
    database = migrated_database(empty_database_url)
    yield make_engine(database)
    database.engine.dispose()
