"""The legacy (non-convergence) stack lock: one ``stack_lock`` row names the holding engine."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from keel_app.models.api.errors import is_duplicate_entry
from keel_app.models.api.status_reason import truncate_status_reason
from keel_app.models.database import Database, RetryPolicy, is_retriable
from keel_app.models.stack import Stack, StackLock

LOG = logging.getLogger(__name__)

# Heat retries taking the lock on its own short schedule, not [database]/db_max_retries.
CREATE_RETRY = RetryPolicy(max_retries=3, retry_interval=0.5, inc_retry_interval=True)


def _create_once(database: Database, stack_id: str, engine_id: str) -> str | None:
    with database.transaction() as session:
        lock = session.get(StackLock, stack_id)
        if lock is not None:
            return lock.engine_id
        session.add(StackLock(stack_id=stack_id, engine_id=engine_id))
    return None


def create_stack_lock(database: Database, stack_id: str, engine_id: str) -> str | None:
    """Take the stack's lock for ``engine_id``: None when taken, else the holder's engine id."""
    waits = CREATE_RETRY.waits()
    while True:
        try:
            return _create_once(database, stack_id, engine_id)
        except sa.exc.DBAPIError as error:
            duplicate = is_duplicate_entry(error)
            if not duplicate and not is_retriable(error):
                raise
            wait = next(waits, None)
            if wait is None:
                raise
            # A duplicate key means the other engine's row is committed (the insert
            # waited for it), so reading again at once finds the holder.
            if not duplicate:
                time.sleep(wait)


def get_stack_lock_engine(database: Database, stack_id: str) -> str | None:
    """The engine holding the stack's lock, None when nobody does."""
    with database.transaction() as session:
        lock = session.get(StackLock, stack_id)
        return lock.engine_id if lock is not None else None


def steal_stack_lock(
    database: Database, stack_id: str, old_engine_id: str, new_engine_id: str
) -> bool:
    """Move the lock from ``old_engine_id`` (found dead) to ``new_engine_id``.

    False when ``old_engine_id`` no longer holds it: it was released, or stolen first by
    another engine (``get_stack_lock_engine`` tells which).
    """
    with database.transaction() as session:
        result = session.execute(
            sa.update(StackLock)
            .where(StackLock.stack_id == stack_id, StackLock.engine_id == old_engine_id)
            .values(engine_id=new_engine_id)
            .execution_options(synchronize_session=False)
        )
        return bool(result.rowcount)


def release_stack_lock(database: Database, stack_id: str, engine_id: str) -> bool:
    """Drop the lock if ``engine_id`` holds it; False when it did not."""
    with database.transaction() as session:
        return _delete_lock(session, stack_id, engine_id)


def persist_state_and_release_lock(
    database: Database, stack_id: str, engine_id: str, values: Mapping[str, Any]
) -> bool:
    """Write the stack's final state and drop ``engine_id``'s lock in one transaction.

    Returns whether the lock was released: False when the stack row is missing or
    ``engine_id`` did not hold the lock (the state is written all the same). Unlike
    Heat, an over-long status reason is cut for MySQL here too, so that the write that
    ends the operation cannot fail and leave the stack locked.
    """
    values = truncate_status_reason(database, values)
    with database.transaction() as session:
        result = session.execute(
            sa.update(Stack)
            .where(Stack.id == stack_id)
            .values(values)
            .execution_options(synchronize_session=False)
        )
        if not result.rowcount:
            return False
        return _delete_lock(session, stack_id, engine_id)


def _delete_lock(session: Session, stack_id: str, engine_id: str) -> bool:
    result = session.execute(
        sa.delete(StackLock)
        .where(StackLock.stack_id == stack_id, StackLock.engine_id == engine_id)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)
