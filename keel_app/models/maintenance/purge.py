"""``purge_deleted``: drop soft-deleted stacks, and everything only they used, for good.

Stacks go in batches, one transaction per batch, so a purge interrupted half-way leaves
whole stacks either purged or untouched. Shared rows (templates, files, credentials,
properties data) go only once nothing left in the database refers to them.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from keel_app.common.exception import Error
from keel_app.models import (
    Event,
    RawTemplate,
    RawTemplateFiles,
    Resource,
    ResourceData,
    ResourcePropertiesData,
    ResourceSnapshot,
    Service,
    Snapshot,
    Stack,
    StackLock,
    StackTag,
    SyncPoint,
    UserCreds,
)
from keel_app.models.base import utcnow
from keel_app.models.database import Database, retry_on_db_error

LOG = logging.getLogger(__name__)

SECONDS_PER_UNIT = {"days": 86400, "hours": 3600, "minutes": 60, "seconds": 1}


def purge_deleted(
    database: Database,
    age: int | str,
    granularity: str = "days",
    project_id: str | None = None,
    batch_size: int | str = 20,
) -> None:
    """Purge the services and stacks soft-deleted more than ``age`` ``granularity`` ago.

    ``project_id`` limits the stacks (not the services) to one project.
    """
    age = _non_negative_integer(age, "age")
    batch_size = _non_negative_integer(batch_size, "batch_size")
    if granularity not in SECONDS_PER_UNIT:
        raise Error("granularity should be days, hours, minutes, or seconds")
    cutoff = utcnow() - datetime.timedelta(seconds=age * SECONDS_PER_UNIT[granularity])

    with database.transaction() as session:
        _delete(session, Service, Service.deleted_at < cutoff)

    expired = sa.select(
        Stack.id,
        Stack.raw_template_id,
        Stack.prev_raw_template_id,
        Stack.user_creds_id,
        Stack.action,
        Stack.status,
        Stack.name,
    ).where(Stack.deleted_at < cutoff)
    if project_id:
        expired = expired.where(Stack.tenant == project_id)
    with database.transaction() as session:
        stacks = [tuple(row) for row in session.execute(expired)]

    # A batch size of 0 purges no stack at all, as Heat's does.
    if batch_size == 0:
        return
    for start in range(0, len(stacks), batch_size):
        _purge_stacks(database, stacks[start : start + batch_size])


def _non_negative_integer(value: int | str, name: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise Error(f"{name} should be an integer") from None
    if number < 0:
        raise Error(f"{name} should be a positive integer")
    return number


@retry_on_db_error
def _purge_stacks(database: Database, stacks: Sequence[tuple[Any, ...]]) -> None:
    """Purge one batch of ``(id, raw_template_id, prev_raw_template_id, user_creds_id, ...)``."""
    LOG.info("Purging stacks %s", ",".join(str(stack) for stack in stacks))
    stack_ids = [stack[0] for stack in stacks]
    with database.transaction() as session:
        _delete(session, StackLock, StackLock.stack_id.in_(stack_ids))
        _delete(session, StackTag, StackTag.stack_id.in_(stack_ids))
        resource_ids = sa.select(Resource.id).where(Resource.stack_id.in_(stack_ids))
        _delete(session, ResourceData, ResourceData.resource_id.in_(resource_ids))
        _delete(session, SyncPoint, SyncPoint.stack_id.in_(stack_ids))
        properties_data_ids = _properties_data_of(session, stack_ids)
        _delete(session, Event, Event.stack_id.in_(stack_ids))
        _delete(session, Resource, Resource.stack_id.in_(stack_ids))
        _delete_properties_data(session, properties_data_ids)
        _delete_snapshots(session, stack_ids)
        _delete(session, Stack, Stack.id.in_(stack_ids))
        template_ids = {stack[index] for stack in stacks for index in (1, 2)} - {None}
        _delete_templates(session, template_ids)
        _delete_user_creds(session, {stack[3] for stack in stacks} - {None})


def _delete(session: Session, model: type[Any], condition: sa.ColumnElement[bool]) -> None:
    # Nothing purged is loaded in the session, so there is nothing to synchronise.
    session.execute(
        sa.delete(model).where(condition), execution_options={"synchronize_session": False}
    )


def _properties_data_of(session: Session, stack_ids: list[str]) -> set[int]:
    queries = [
        sa.select(Resource.rsrc_prop_data_id).where(Resource.stack_id.in_(stack_ids)),
        sa.select(Resource.attr_data_id).where(Resource.stack_id.in_(stack_ids)),
        sa.select(Event.rsrc_prop_data_id).where(Event.stack_id.in_(stack_ids)),
    ]
    found = {value for query in queries for value in session.scalars(query)}
    return found - {None}


def _still_used(session: Session, ids: set[int], columns: Iterable[Any]) -> set[int]:
    used: set[int] = set()
    for column in columns:
        used.update(session.scalars(sa.select(column).where(column.in_(ids)).distinct()))
    return used


def _delete_properties_data(session: Session, ids: set[int]) -> None:
    if ids:
        # Events and resources of other stacks may share a row: keep it for them.
        referring = (Event.rsrc_prop_data_id, Resource.rsrc_prop_data_id, Resource.attr_data_id)
        ids = ids - _still_used(session, ids, referring)
    if ids:
        _delete(session, ResourcePropertiesData, ResourcePropertiesData.id.in_(ids))


def _delete_snapshots(session: Session, stack_ids: list[str]) -> None:
    # Heat 27 leaves a deleted stack's snapshots behind, so its purge then fails on their
    # foreign key half-way through; they go with their stack instead.
    snapshot_ids = sa.select(Snapshot.id).where(Snapshot.stack_id.in_(stack_ids))
    _delete(session, ResourceSnapshot, ResourceSnapshot.snapshot_id.in_(snapshot_ids))
    _delete(session, Snapshot, Snapshot.stack_id.in_(stack_ids))


def _delete_templates(session: Session, ids: set[int]) -> None:
    if ids:
        referring = (Stack.raw_template_id, Stack.prev_raw_template_id)
        ids = ids - _still_used(session, ids, referring)
    if not ids:
        return
    files_ids = set(
        session.scalars(sa.select(RawTemplate.files_id).where(RawTemplate.id.in_(ids)))
    ) - {None}
    _delete(session, RawTemplate, RawTemplate.id.in_(ids))
    if files_ids:
        files_ids = files_ids - _still_used(session, files_ids, [RawTemplate.files_id])
    if files_ids:
        _delete(session, RawTemplateFiles, RawTemplateFiles.id.in_(files_ids))


def _delete_user_creds(session: Session, ids: set[int]) -> None:
    if ids:
        ids = ids - _still_used(session, ids, [Stack.user_creds_id])
    if ids:
        _delete(session, UserCreds, UserCreds.id.in_(ids))
