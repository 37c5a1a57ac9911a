"""Engines are up while their heartbeat is at most two report intervals old."""

from __future__ import annotations

import sqlalchemy as sa

from keel_app.models import Service
from keel_app.models.database import Database
from keel_app.models.maintenance.services import clean_services, list_services
from tests.models.maintenance import factories
from tests.models.maintenance.factories import ago


def _engines(database: Database) -> None:
    with database.transaction() as session:
        factories.service(session, "beating", created_at=ago(days=3), updated_at=ago(seconds=30))
        factories.service(session, "late-once", created_at=ago(days=3), updated_at=ago(seconds=110))
        factories.service(session, "silent", created_at=ago(days=3), updated_at=ago(seconds=130))
        factories.service(session, "new", created_at=ago(seconds=5))
        factories.service(session, "never-reported", created_at=ago(hours=1))
        factories.service(session, "slow", report_interval=600, updated_at=ago(seconds=900))
        factories.service(session, "removed", updated_at=ago(days=1), deleted_at=ago(days=1))


def test_list_shows_each_live_engine_with_its_status(database: Database) -> None:
    _engines(database)

    statuses = {state.engine_id: state.status for state in list_services(database)}

    assert statuses == {
        "beating": "up",
        "late-once": "up",
        "silent": "down",
        "new": "up",
        "never-reported": "down",
        "slow": "up",
    }


def test_clean_soft_deletes_exactly_the_dead_engines(database: Database) -> None:
    _engines(database)

    removed = clean_services(database)

    with database.transaction() as session:
        rows = {row.engine_id: row for row in session.scalars(sa.select(Service))}
    assert {rows[name].id for name in ("silent", "never-reported")} == set(removed)
    deleted = {name for name, row in rows.items() if row.deleted_at is not None}
    assert deleted == {"silent", "never-reported", "removed"}
    # The soft delete is an update: the heartbeat column moves too, as in Heat.
    assert rows["silent"].updated_at is not None and rows["silent"].updated_at > ago(minutes=1)
    assert {state.engine_id for state in list_services(database)} == {
        "beating",
        "late-once",
        "new",
        "slow",
    }
