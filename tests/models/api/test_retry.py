"""``retry_on_db_error`` under real contention: deadlocks on the servers, a held lock on SQLite."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa

from keel_app.models import Resource, ResourcePropertiesData, Stack
from keel_app.models.api import resources
from keel_app.models.database import Database
from tests.models.api import factories

WAITING_TRANSACTIONS = {
    "mysql": "SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'",
    "postgresql": "SELECT COUNT(*) FROM pg_locks WHERE NOT granted",
}


@pytest.fixture
def old_resource(database: Database) -> Resource:
    return factories.resource(database, factories.stack(database).id, atomic_key=1)


def _in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # handed to the test thread to fail there
            outcome.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def _replace(database: Database, old: Resource) -> Callable[[], Resource | None]:
    return lambda: resources.create_replacement(
        database, old.id, {"stack_id": old.stack_id, "name": "server", "replaces": old.id}, 1
    )


def _wait_until_blocked(observer: sa.Connection, backend: str) -> None:
    deadline = time.monotonic() + 10
    while observer.execute(sa.text(WAITING_TRANSACTIONS[backend])).scalar_one() == 0:
        assert time.monotonic() < deadline, "the replacement never waited for the lock"
        # MariaDB refreshes innodb_trx only when it was not read in the last 0.1 s.
        time.sleep(0.15)


def _replace_through_a_deadlock(database: Database, old: Resource) -> Any:
    """Hold the old row, let the replacement wait for it, then wait for the replacement."""
    backend = database.url.get_backend_name()
    other = sa.create_engine(database.url, poolclass=sa.NullPool)
    with other.connect() as holder, other.connect() as observer:
        holder.begin()
        # Enough written rows that MariaDB picks the replacement as the deadlock victim.
        holder.execute(sa.insert(ResourcePropertiesData), [{"data": None}] * 200)
        holder.execute(sa.update(Resource).where(Resource.id == old.id).values(name="held"))
        thread, outcome = _in_thread(_replace(database, old))
        observer.execution_options(isolation_level="AUTOCOMMIT")
        _wait_until_blocked(observer, backend)
        # The replacement's insert holds a shared lock on its stack row: close the cycle.
        holder.execute(sa.select(Stack.id).where(Stack.id == old.stack_id).with_for_update())
        holder.commit()
        thread.join(30)
    other.dispose()
    assert not thread.is_alive(), "the replacement is still waiting"
    return outcome[0]


def _replace_behind_a_write_lock(database: Database, old: Resource) -> Any:
    """Hold SQLite's write lock for half a second from another connection.

    The replacement's connections give up on a busy file after 20 ms instead of the usual
    30 s, so its first tries fail with "database is locked" while the lock is held.
    """
    impatient = Database(database.url.render_as_string(hide_password=False), retry=database.retry)
    sa.event.listen(
        impatient.engine,
        "connect",
        lambda dbapi_connection, _record: dbapi_connection.execute("PRAGMA busy_timeout = 20"),
    )
    holder = sqlite3.connect(database.url.database, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.5, lambda: holder.execute("COMMIT"))
    release.start()
    try:
        return _replace(impatient, old)()
    finally:
        release.join()
        holder.close()
        impatient.dispose()


def test_retry_on_db_error_outlasts_a_deadlock_or_a_held_lock(
    database: Database,
    old_resource: Resource,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Another test of the same process may have configured logging (Alembic's fileConfig
    # disables the loggers that exist): the retry's warning must reach caplog.
    monkeypatch.setattr(logging.getLogger("keel_app.models.database"), "disabled", False)
    caplog.set_level(logging.WARNING, logger="keel_app.models.database")
    if database.url.get_backend_name() == "sqlite":
        replacement = _replace_behind_a_write_lock(database, old_resource)
    else:
        replacement = _replace_through_a_deadlock(database, old_resource)

    assert isinstance(replacement, Resource)
    assert factories.row(database, Resource, old_resource.id).replaced_by == replacement.id
    retries = [r.getMessage() for r in caplog.records if "retrying" in r.getMessage()]
    assert retries and all(m.startswith("retrying create_replacement") for m in retries)
