"""OpenKeel's migrations build exactly the schema Heat 27.0.1's migrations build."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

import keel_app.models
from keel_app.models import migration
from tests import databases
from tests.models.heat_migrated import heat_db_sync
from tests.models.schema_inspection import describe


@pytest.fixture
def heat_database_url(empty_database_url: str, tmp_path: Path) -> Iterator[str]:
    """A second empty database on the same engine as ``empty_database_url``."""
    backend = sa.make_url(empty_database_url).get_backend_name()
    with databases.fresh_database(backend, tmp_path) as url:
        yield url


def _keel_db_sync(url: str, version: str | None = None) -> None:
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        migration.db_sync(engine, version)
    finally:
        engine.dispose()


def test_head_schema_equals_heats(
    empty_database_url: str, heat_database_url: str, tmp_path: Path
) -> None:
    heat_db_sync(heat_database_url, tmp_path)
    _keel_db_sync(empty_database_url)

    assert describe(empty_database_url) == describe(heat_database_url)


@pytest.mark.parametrize("revision", ["c6214ca60943", "d2db381e3324", "88be64598c0f"])
def test_each_revision_schema_equals_heats(
    empty_database_url: str, heat_database_url: str, tmp_path: Path, revision: str
) -> None:
    heat_db_sync(heat_database_url, tmp_path, revision)
    _keel_db_sync(empty_database_url, revision)

    assert describe(empty_database_url) == describe(heat_database_url)


def test_models_match_the_migrated_schema(empty_database_url: str) -> None:
    _keel_db_sync(empty_database_url)
    engine = sa.create_engine(empty_database_url, poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"compare_type": True, "compare_server_default": True}
            )
            differences = compare_metadata(context, keel_app.models.metadata)
    finally:
        engine.dispose()

    assert differences == []


def test_revision_history_is_heats() -> None:
    assert migration.revisions() == [
        "c6214ca60943",
        "d2db381e3324",
        "88be64598c0f",
        "97b2a986f922",
    ]


def _insert_a_snapshot(url: str) -> None:
    """A stack with one snapshot, written in the columns every revision has."""
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        with engine.begin() as connection:
            connection.execute(sa.text("INSERT INTO raw_template (id, template) VALUES (1, '{}')"))
            connection.execute(
                sa.text(
                    "INSERT INTO stack (id, name, raw_template_id, disable_rollback, tenant) "
                    "VALUES ('s-1', 'legacy', 1, :false, 'p')"
                ),
                {"false": False},
            )
            connection.execute(
                sa.text(
                    "INSERT INTO snapshot (id, stack_id, name, status, tenant) "
                    "VALUES ('snap-1', 's-1', 'before', 'COMPLETE', 'p')"
                )
            )
    finally:
        engine.dispose()


def _snapshot_action(url: str) -> str | None:
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            return connection.execute(
                sa.text("SELECT action FROM snapshot WHERE id = 'snap-1'")
            ).scalar_one()
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    "revision", ["c6214ca60943", "d2db381e3324", "88be64598c0f", "97b2a986f922"]
)
def test_a_heat_database_at_each_revision_is_taken_over_to_heats_head(
    empty_database_url: str, heat_database_url: str, tmp_path: Path, revision: str
) -> None:
    heat_db_sync(empty_database_url, tmp_path, revision)
    if revision != migration.HEAD_REVISION:
        _insert_a_snapshot(empty_database_url)
    heat_db_sync(heat_database_url, tmp_path)

    _keel_db_sync(empty_database_url)

    assert describe(empty_database_url) == describe(heat_database_url)
    if revision != migration.HEAD_REVISION:
        # Snapshots from before 97b2a986f922 were all creations.
        assert _snapshot_action(empty_database_url) == "CREATE"
