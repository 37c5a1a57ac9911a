"""SQLite, the embedded default: write-ahead logging, synced at checkpoints, and a
commit that outlives the process that made it even when that process is killed."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa

from keel_app.models.database import Database

WRITER = """
import sys, time
import sqlalchemy as sa
from keel_app.models.database import Database
database = Database(sys.argv[1])
with database.engine.begin() as connection:
    connection.exec_driver_sql("CREATE TABLE IF NOT EXISTS kept (value TEXT)")
with database.transaction() as session:
    session.execute(sa.text("INSERT INTO kept VALUES ('committed')"))
print("committed", flush=True)
time.sleep(60)
"""


def pragmas(database: Database) -> tuple[str, int]:
    with database.engine.connect() as connection:
        journal = connection.exec_driver_sql("PRAGMA journal_mode").scalar_one()
        synchronous = connection.exec_driver_sql("PRAGMA synchronous").scalar_one()
    return journal, synchronous


def test_a_synchronous_database_logs_ahead_and_syncs_at_checkpoints(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'keel.sqlite'}")
    try:
        assert pragmas(database) == ("wal", 1)  # NORMAL
    finally:
        database.dispose()


def test_sqlite_synchronous_false_turns_syncing_off(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'keel.sqlite'}", sqlite_synchronous=False)
    try:
        assert pragmas(database) == ("wal", 0)  # OFF
    finally:
        database.dispose()


def test_a_commit_outlives_its_process_killed_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'keel.sqlite'}"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, url], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    assert writer.stdout.readline().strip() == "committed"

    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    writer.stdout.close()

    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            kept = connection.exec_driver_sql("SELECT value FROM kept").scalars().all()
    finally:
        engine.dispose()
    assert kept == ["committed"]
