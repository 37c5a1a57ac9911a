"""Reading what the service stored: rows by model, a stack's tags and its own events."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from keel_app.models import Event, RawTemplate, StackTag, SyncPoint
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow
from keel_app.models.database import Database


def all_rows(database: Database, model: Any, **where: Any) -> list[Any]:
    with database.transaction() as session:
        statement = sa.select(model)
        for column, value in where.items():
            statement = statement.where(getattr(model, column) == value)
        order = model.entity_id if model is SyncPoint else model.id
        return list(session.scalars(statement.order_by(order)).all())


def stack_row(database: Database, stack_id: str) -> StackRow:
    with database.transaction() as session:
        row = session.get(StackRow, stack_id)
        assert row is not None
        return row


def template_row(database: Database, template_id: int) -> RawTemplate:
    with database.transaction() as session:
        row = session.get(RawTemplate, template_id)
        assert row is not None
        return row


def tags(database: Database, stack_id: str) -> list[str]:
    return [row.tag for row in all_rows(database, StackTag, stack_id=stack_id)]


def states(database: Database, stack_id: str) -> dict[str, tuple[str, str]]:
    """The state of each live resource row, by name (the newest row of a name wins)."""
    return {
        row.name: (row.action, row.status)
        for row in all_rows(database, ResourceRow, stack_id=stack_id)
    }


def stack_events(database: Database, stack_id: str) -> list[tuple[str, str, str]]:
    return [
        (event.resource_action, event.resource_status, event.resource_status_reason)
        for event in all_rows(database, Event, stack_id=stack_id, resource_type="OS::Heat::Stack")
    ]


def set_state(database: Database, stack_id: str, action: str, status: str) -> None:
    with database.transaction() as session:
        row = session.get(StackRow, stack_id)
        assert row is not None
        row.action, row.status = action, status
