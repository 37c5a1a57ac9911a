from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from keel_app.models.database import Database
from tests.models.maintenance.factories import migrated_database

ENCRYPTION_KEY = "0123456789abcdef0123456789abcdef"


def write_heat_conf(directory: Path, url: str, name: str = "heat.conf") -> Path:
    path = directory / name
    path.write_text(
        f"[DEFAULT]\nauth_encryption_key = {ENCRYPTION_KEY}\n[database]\nconnection = {url}\n"
    )
    return path


@pytest.fixture
def database(empty_database_url: str) -> Iterator[Database]:
    """A database at head on each engine in turn, no rows yet."""
    database = migrated_database(empty_database_url)
    yield database
    database.dispose()


@pytest.fixture
def heat_conf(empty_database_url: str, tmp_path: Path) -> Path:
    """A heat.conf pointing at ``empty_database_url``, with an encryption key of its own."""
    return write_heat_conf(tmp_path, empty_database_url)
