"""The state of a whole deployment in a few numbers, read from its database on demand.

One read answers a metrics scrape: live stacks by action and status, the actions in
flight and the age of the oldest of each, resource locks held past a threshold, and the
sizes of the two tables that grow with use (events and raw templates).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import sqlalchemy as sa

from keel_app.models import Event, RawTemplate, Resource, Stack
from keel_app.models.database import Database

IN_PROGRESS = "IN_PROGRESS"


@dataclass(frozen=True)
class DeploymentGauges:
    stacks: dict[tuple[str, str], int]
    in_flight: dict[str, tuple[int, float]]
    long_held_locks: int
    event_rows: int
    raw_template_rows: int


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


def read(database: Database, lock_age_seconds: float) -> DeploymentGauges:
    """The numbers as the database holds them now (timestamps are naive UTC, as Heat's)."""
    now = _now()
    live = Stack.deleted_at.is_(None)
    changed = sa.func.coalesce(Stack.updated_at, Stack.created_at)
    with database.transaction() as session:
        by_state = session.execute(
            sa.select(Stack.action, Stack.status, sa.func.count())
            .where(live)
            .group_by(Stack.action, Stack.status)
        ).all()
        in_flight = session.execute(
            sa.select(Stack.action, sa.func.count(), sa.func.min(changed))
            .where(live, Stack.status == IN_PROGRESS)
            .group_by(Stack.action)
        ).all()
        lock_cutoff = now - datetime.timedelta(seconds=lock_age_seconds)
        long_held = session.scalar(
            sa.select(sa.func.count())
            .select_from(Resource)
            .where(
                Resource.engine_id.is_not(None),
                sa.func.coalesce(Resource.updated_at, Resource.created_at) < lock_cutoff,
            )
        )
        events = session.scalar(sa.select(sa.func.count()).select_from(Event))
        templates = session.scalar(sa.select(sa.func.count()).select_from(RawTemplate))
    return DeploymentGauges(
        stacks={(action or "", status or ""): count for action, status, count in by_state},
        in_flight={
            action or "": (count, max((now - oldest).total_seconds(), 0.0) if oldest else 0.0)
            for action, count, oldest in in_flight
        },
        long_held_locks=int(long_held or 0),
        event_rows=int(events or 0),
        raw_template_rows=int(templates or 0),
    )
