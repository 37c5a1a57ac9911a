"""Events, and the pruning that keeps a stack's event count near ``max_events_per_stack``."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from keel_app.models.api.errors import is_foreign_key_violation
from keel_app.models.base import new_uuid, utcnow
from keel_app.models.database import Database, is_retriable, retry_on_db_error
from keel_app.models.event import Event, truncated_reason
from keel_app.models.resource import Resource, ResourcePropertiesData
from keel_app.models.stack import Stack

LOG = logging.getLogger(__name__)

BACKUP_SUFFIX = "*"


@retry_on_db_error
def create_event(
    database: Database,
    values: Mapping[str, Any],
    max_events_per_stack: int,
    purge_batch_size: int,
) -> Event:
    """Insert an event, first pruning the stack's oldest ``purge_batch_size`` events.

    As in Heat, the count is only checked on 2/``purge_batch_size`` of the calls (always
    when the batch is 1 or 2), and a failed prune is logged, never raised: the event is
    stored all the same.
    """
    with database.transaction() as session:
        event_id = add_event(session, values, max_events_per_stack, purge_batch_size)
        event = session.get(Event, event_id)
        assert event is not None
        return event


def add_event(
    session: Session, values: Mapping[str, Any], max_events_per_stack: int, purge_batch_size: int
) -> int:
    """``create_event`` inside a transaction of the caller's (the state change it records);
    returns the new event's id."""
    row = _event_row(session, values, max_events_per_stack, purge_batch_size)
    # A Core INSERT: every state change writes an event, and the ORM's flush of a new
    # object costs more than the statement.
    result = session.connection().execute(_INSERT_EVENT, row)
    return int(result.inserted_primary_key[0])


def add_events(
    session: Session,
    values: list[Mapping[str, Any]],
    max_events_per_stack: int,
    purge_batch_size: int,
) -> None:
    """Several events in one INSERT, stored in the order given (their ids ascending), each
    as ``add_event`` stores it (the pruning check included)."""
    rows = [_event_row(session, item, max_events_per_stack, purge_batch_size) for item in values]
    if len(rows) == 1:
        session.connection().execute(_INSERT_EVENT, rows[0])
    elif rows:
        session.connection().execute(_INSERT_EVENT, rows)


def _event_row(
    session: Session, values: Mapping[str, Any], max_events_per_stack: int, purge_batch_size: int
) -> dict[str, Any]:
    """The event's row as inserted, once the stack's oldest events are pruned if due."""
    stack_id = values.get("stack_id")
    if stack_id is not None and max_events_per_stack and _prune_now(purge_batch_size):
        _prune(session, stack_id, max_events_per_stack, purge_batch_size)
    row = {column: None for column in _EVENT_COLUMNS}
    row.update(values)
    row["resource_status_reason"] = truncated_reason(row["resource_status_reason"])
    if row["uuid"] is None:
        row["uuid"] = new_uuid()
    if row["created_at"] is None:
        row["created_at"] = utcnow()
    return row


_EVENT_COLUMNS = tuple(column.name for column in Event.__table__.c if column.name != "id")
_INSERT_EVENT = sa.insert(Event.__table__)


def _prune_now(purge_batch_size: int) -> bool:
    # Counting a stack's events on every insert costs more than an occasional overshoot.
    return (2.0 / purge_batch_size) > random.uniform(0, 1)


def _prune(session: Session, stack_id: str, max_events: int, batch_size: int) -> None:
    count = session.scalar(sa.select(sa.func.count(Event.id)).where(Event.stack_id == stack_id))
    if not count or count < max_events:
        return
    try:
        with session.begin_nested():
            _delete_oldest_events(session, stack_id, batch_size)
    except sa.exc.DBAPIError as error:
        if is_retriable(error):
            raise
        LOG.error("Failed to purge events: %s", error)


def _delete_oldest_events(session: Session, stack_id: str, limit: int) -> None:
    # The ids are fetched first because MySQL refuses LIMIT in an IN subquery.
    oldest = session.execute(
        sa.select(Event.id, Event.rsrc_prop_data_id)
        .where(Event.stack_id == stack_id)
        .order_by(Event.id)
        .limit(limit)
    ).all()
    if not oldest:
        return
    last_id = oldest[-1].id
    session.execute(
        sa.delete(Event)
        .where(Event.id <= last_id, Event.stack_id == stack_id)
        .execution_options(synchronize_session=False)
    )
    unreferenced = {row.rsrc_prop_data_id for row in oldest} - _properties_data_in_use(
        session, stack_id
    )
    unreferenced.discard(None)
    if not unreferenced:
        return
    try:
        with session.begin_nested():
            _delete_properties_data(session, unreferenced)
    except sa.exc.IntegrityError as error:
        if not is_foreign_key_violation(error):
            raise
        # A stack and its backup hand resources (and their properties data) back and forth.
        LOG.debug("Checking backup/stack pairs for RPD references")
        partners = list(_backup_partner_ids(session, stack_id))
        if not partners:
            LOG.debug("No backup/stack pairs found for %s", stack_id)
            raise
        for partner_id in partners:
            unreferenced -= _properties_data_in_use(session, partner_id)
        _delete_properties_data(session, unreferenced)


def _delete_properties_data(session: Session, ids: set[int | None]) -> None:
    if ids:
        session.execute(
            sa.delete(ResourcePropertiesData)
            .where(ResourcePropertiesData.id.in_(ids))
            .execution_options(synchronize_session=False)
        )


def _properties_data_in_use(session: Session, stack_id: str) -> set[int | None]:
    by_events = session.scalars(
        sa.select(Event.rsrc_prop_data_id).where(Event.stack_id == stack_id)
    ).all()
    by_resources = session.scalars(
        sa.select(Resource.rsrc_prop_data_id).where(Resource.stack_id == stack_id)
    ).all()
    return set(by_events) | set(by_resources)


def _backup_partner_ids(session: Session, stack_id: str) -> Iterator[str]:
    """The stacks paired with this one as main and backups, deleted ones included."""
    stack = session.get(Stack, stack_id)
    if stack is None:
        LOG.error("Stack %s not found", stack_id)
        return
    name = stack.name or ""
    if name.endswith(BACKUP_SUFFIX):
        main = session.get(Stack, stack.owner_id) if stack.owner_id else None
        if main is None:
            LOG.error('Main stack for backup "%s" %s not found', name, stack_id)
            return
        yield main.id
        for backup_id in _backup_partner_ids(session, main.id):
            if backup_id != stack_id:
                yield backup_id
        return
    # A backup is the stack's child named after it; owner_id already ties it to this
    # stack's project.
    yield from session.scalars(
        sa.select(Stack.id).where(Stack.owner_id == stack_id, Stack.name == name + BACKUP_SUFFIX)
    )
