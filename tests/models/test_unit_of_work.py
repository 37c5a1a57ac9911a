"""A unit of work joins a thread's transactions into one commit, on every database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from keel_app.models.database import Database, retry_on_db_error
from keel_app.models.migration import db_sync
from keel_app.models.template import RawTemplate
from keel_app.models.unit_of_work import UnitBroken


@pytest.fixture
def database(empty_database_url: str) -> Iterator[Database]:
    database = Database(empty_database_url)
    db_sync(database.engine)
    yield database
    database.dispose()


def _store_template(database: Database, name: str) -> int:
    with database.transaction() as session:
        row = RawTemplate(template={"name": name}, files={}, environment={})
        session.add(row)
        session.flush()
        return row.id


def _names(database: Database) -> list[str]:
    """The names of the templates another connection sees committed."""
    engine = sa.create_engine(database.url, poolclass=sa.NullPool)
    table = RawTemplate.__table__
    try:
        with engine.connect() as connection:
            documents = connection.execute(sa.select(table.c.template).order_by(table.c.id))
            return [document["name"] for document in documents.scalars()]
    finally:
        engine.dispose()


def test_transactions_in_a_unit_commit_together_at_its_end(database: Database) -> None:
    seen_inside = []
    with database.unit_of_work():
        _store_template(database, "first")
        _store_template(database, "second")
        seen_inside = _names(database)
    assert seen_inside == []
    assert _names(database) == ["first", "second"]


def test_a_block_of_a_unit_reads_what_an_earlier_block_wrote(database: Database) -> None:
    with database.unit_of_work():
        template_id = _store_template(database, "first")
        with database.transaction() as session:
            row = session.get(RawTemplate, template_id)
            assert row is not None
            assert row.template == {"name": "first"}


def test_callbacks_after_commit_run_once_the_unit_committed(database: Database) -> None:
    calls: list[list[str]] = []
    with database.unit_of_work():
        _store_template(database, "first")
        database.after_commit(lambda: calls.append(_names(database)))
        assert calls == []
    assert calls == [["first"]]


def test_callbacks_after_commit_run_at_once_outside_a_unit(database: Database) -> None:
    calls: list[str] = []
    database.after_commit(lambda: calls.append("sent"))
    assert calls == ["sent"]


def test_a_block_that_raised_breaks_the_unit_and_nothing_commits(database: Database) -> None:
    calls: list[str] = []
    with pytest.raises(UnitBroken):
        with database.unit_of_work():
            _store_template(database, "kept by the step")
            database.after_commit(lambda: calls.append("sent"))
            try:
                with database.transaction() as session:
                    session.add(RawTemplate(template={"name": "undone"}, files={}, environment={}))
                    session.flush()
                    raise LookupError("the block fails after writing")
            except LookupError:
                pass
    assert _names(database) == []
    assert calls == []


def test_an_error_out_of_the_unit_rolls_it_back(database: Database) -> None:
    with pytest.raises(KeyError):
        with database.unit_of_work():
            _store_template(database, "first")
            raise KeyError("step failed")
    assert _names(database) == []


def test_a_checkpoint_commits_the_unit_and_later_blocks_commit_alone(database: Database) -> None:
    calls: list[list[str]] = []
    seen_after_second = []
    with database.unit_of_work():
        _store_template(database, "first")
        database.after_commit(lambda: calls.append(_names(database)))
        database.checkpoint()
        assert calls == [["first"]]
        assert not database.in_unit_of_work()
        _store_template(database, "second")
        seen_after_second = _names(database)
    assert seen_after_second == ["first", "second"]


def test_a_joined_read_sees_rows_committed_after_the_unit_began(database: Database) -> None:
    other = Database(str(database.url))
    try:
        with database.unit_of_work():
            assert _count(database) == 0
            if database.url.get_backend_name() != "sqlite":
                # SQLite runs one writer at a time: nobody commits inside our unit there.
                _store_template(other, "committed meanwhile")
                assert _count(database) == 1
    finally:
        other.dispose()


def _count(database: Database) -> int:
    with database.transaction() as session:
        return int(session.scalar(sa.select(sa.func.count()).select_from(RawTemplate)) or 0)


def test_db_writers_are_not_retried_inside_a_unit(database: Database) -> None:
    calls = []
    deadlock = sa.exc.OperationalError("UPDATE", {}, Exception(1213, "Deadlock found"))

    @retry_on_db_error
    def deadlocking_writer(database: Database) -> None:
        calls.append(1)
        raise deadlock

    with pytest.raises(sa.exc.OperationalError):
        with database.unit_of_work():
            deadlocking_writer(database)
    assert calls == [1]
