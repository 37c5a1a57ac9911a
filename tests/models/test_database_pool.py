"""The pool hands out live connections without a round trip before each transaction."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from keel_app.models import database as database_module
from keel_app.models.database import Database
from tests import databases

SERVERS = {
    "mysql": ("SELECT CONNECTION_ID()", "KILL {}"),
    "postgresql": ("SELECT pg_backend_pid()", "SELECT pg_terminate_backend({})"),
}


@pytest.fixture(params=sorted(SERVERS))
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    # Only a server kills connections: SQLite has no part in these tests.
    with databases.fresh_database(request.param, tmp_path) as url:
        database = Database(url)
        yield database
        database.dispose()


def _connection_id(database: Database) -> int:
    query = SERVERS[database.url.get_backend_name()][0]
    with database.transaction() as session:
        return int(session.execute(sa.text(query)).scalar_one())


def _kill(database: Database, connection_id: int) -> None:
    killer = sa.create_engine(database.url, poolclass=sa.NullPool)
    with killer.connect() as connection:
        connection.execute(
            sa.text(SERVERS[database.url.get_backend_name()][1].format(connection_id))
        )
        connection.commit()
    killer.dispose()


def test_a_connection_in_use_a_moment_ago_is_not_pinged(database: Database) -> None:
    pings: list[object] = []
    original = database.engine.dialect.do_ping

    def counting_ping(dbapi_connection: object) -> bool:
        pings.append(dbapi_connection)
        return original(dbapi_connection)

    database.engine.dialect.do_ping = counting_ping  # type: ignore[method-assign]
    first = _connection_id(database)
    for _ in range(5):
        assert _connection_id(database) == first
    # Only the new connection's first checkout was pinged.
    assert len(pings) == 1


def test_a_connection_the_server_closed_while_idle_is_replaced(database: Database) -> None:
    first = _connection_id(database)
    _kill(database, first)
    time.sleep(database_module.PING_AFTER_IDLE + 0.2)
    second = _connection_id(database)
    assert second != first


@pytest.fixture
def mysql_database(tmp_path: Path) -> Iterator[Database]:
    with databases.fresh_database("mysql", tmp_path) as url:
        database = Database(url, pool_size=1)
        yield database
        database.dispose()


def _session_rollbacks(database: Database) -> int:
    """The rollbacks the server counted on the pool's one connection so far."""
    with database.transaction() as session:
        row = session.execute(sa.text("SHOW SESSION STATUS LIKE 'Com_rollback'")).one()
    return int(row[1])


def test_a_connection_whose_transaction_committed_goes_back_without_a_rollback(
    mysql_database: Database,
) -> None:
    connection_id = _connection_id(mysql_database)
    before = _session_rollbacks(mysql_database)
    for _ in range(3):
        assert _connection_id(mysql_database) == connection_id
    assert _session_rollbacks(mysql_database) == before


def test_a_connection_given_back_inside_a_transaction_is_rolled_back(
    mysql_database: Database,
) -> None:
    with mysql_database.engine.begin() as connection:
        connection.execute(sa.text("CREATE TABLE scratch (id INTEGER PRIMARY KEY)"))
    raw = mysql_database.engine.raw_connection()
    cursor = raw.cursor()
    cursor.execute("INSERT INTO scratch (id) VALUES (1)")
    cursor.close()
    # Given back with the insert neither committed nor rolled back.
    raw.close()
    with mysql_database.transaction() as session:
        assert session.execute(sa.text("SELECT COUNT(*) FROM scratch")).scalar_one() == 0


def test_a_session_given_back_after_an_error_is_rolled_back(mysql_database: Database) -> None:
    with mysql_database.engine.begin() as connection:
        connection.execute(sa.text("CREATE TABLE scratch (id INTEGER PRIMARY KEY)"))
    with pytest.raises(RuntimeError), mysql_database.transaction() as session:
        session.execute(sa.text("INSERT INTO scratch (id) VALUES (1)"))
        raise RuntimeError("the block failed")
    with mysql_database.transaction() as session:
        assert session.execute(sa.text("SELECT COUNT(*) FROM scratch")).scalar_one() == 0
