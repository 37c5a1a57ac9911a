from __future__ import annotations

from collections.abc import Iterator

import pytest

from keel_app.models.database import Database
from tests.models.maintenance.factories import migrated_database


@pytest.fixture
def database(empty_database_url: str) -> Iterator[Database]:
    """A database at head on each engine in turn, no rows yet."""
    database = migrated_database(empty_database_url)
    yield database
    database.dispose()
