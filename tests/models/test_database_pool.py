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
