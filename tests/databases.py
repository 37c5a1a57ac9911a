"""Real, empty databases on the machine's SQLite, MariaDB and PostgreSQL, made per test.

Each database gets a unique name and is dropped afterwards, so tests never share rows.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa

BACKENDS = ("sqlite", "mysql", "postgresql")

MYSQL_SERVER = os.environ.get("KEEL_TEST_MYSQL", "mysql+pymysql://root@127.0.0.1:3306")
POSTGRESQL_SERVER = os.environ.get(
    "KEEL_TEST_POSTGRESQL", "postgresql+psycopg2://postgres@127.0.0.1:5432"
)


def _server_engine(backend: str) -> sa.Engine:
    if backend == "mysql":
        return sa.create_engine(f"{MYSQL_SERVER}/?charset=utf8mb4", poolclass=sa.NullPool)
    return sa.create_engine(
        f"{POSTGRESQL_SERVER}/postgres", poolclass=sa.NullPool, isolation_level="AUTOCOMMIT"
    )


@contextlib.contextmanager
def fresh_database(backend: str, directory: Path) -> Iterator[str]:
    """Create an empty database on ``backend`` and yield its SQLAlchemy URL."""
    if backend == "sqlite":
        path = directory / f"keel-{uuid.uuid4().hex[:8]}.sqlite"
        yield f"sqlite:///{path}"
        path.unlink(missing_ok=True)
        return
    name = f"keel_test_{uuid.uuid4().hex[:12]}"
    server = _server_engine(backend)
    with server.connect() as connection:
        if backend == "mysql":
            connection.execute(sa.text(f"CREATE DATABASE {name} CHARACTER SET utf8mb4"))
        else:
            connection.execute(sa.text(f"CREATE DATABASE {name}"))
    try:
        if backend == "mysql":
            yield f"{MYSQL_SERVER}/{name}?charset=utf8mb4"
        else:
            yield f"{POSTGRESQL_SERVER}/{name}"
    finally:
        with server.connect() as connection:
            if backend == "postgresql":
                connection.execute(
                    sa.text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = :name AND pid <> pg_backend_pid()"
                    ),
                    {"name": name},
                )
            connection.execute(sa.text(f"DROP DATABASE IF EXISTS {name}"))
        server.dispose()
