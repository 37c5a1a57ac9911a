from __future__ import annotations

from collections.abc import Iterator

import pytest

from keel_app.models.database import Database
from tests.models.api import factories


@pytest.fixture
def database(empty_database_url: str) -> Iterator[Database]:
    """A migrated database on each engine in turn, with quick retries."""
    database = factories.migrated_database(empty_database_url)
    yield database
    database.dispose()
