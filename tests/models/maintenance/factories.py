"""Small builders of Heat rows for the maintenance tests, and a reader of what is left."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

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
    metadata,
    migration,
)
from keel_app.models.base import utcnow
from keel_app.models.database import Database

HOT_TEMPLATE = {"heat_template_version": "2021-04-16", "resources": {}}


def migrated_database(url: str) -> Database:
    database = Database(url)
    migration.db_sync(database.engine)
    return database


def ago(**delta: float) -> datetime.datetime:
    return utcnow() - datetime.timedelta(**delta)


def template(session: Session, files: RawTemplateFiles | None = None, **values: Any) -> RawTemplate:
    values.setdefault("template", HOT_TEMPLATE)
    values.setdefault("environment", {"parameters": {}})
    row = RawTemplate(files={}, files_id=files.id if files else None, **values)
    session.add(row)
    session.flush()
    return row


def files(session: Session) -> RawTemplateFiles:
    row = RawTemplateFiles(files={"nested.yaml": "heat_template_version: 2021-04-16"})
    session.add(row)
    session.flush()
    return row


def properties_data(session: Session, data: Any = None, encrypted: bool = False) -> int:
    row = ResourcePropertiesData(data={"size": 1} if data is None else data, encrypted=encrypted)
    session.add(row)
    session.flush()
    return row.id


def stack(
    session: Session,
    name: str,
    *,
    tenant: str = "project-1",
    deleted_at: datetime.datetime | None = None,
    raw_template: RawTemplate | None = None,
    **values: Any,
) -> Stack:
    raw_template = raw_template or template(session)
    row = Stack(
        name=name,
        tenant=tenant,
        raw_template_id=raw_template.id,
        disable_rollback=True,
        deleted_at=deleted_at,
        action=values.pop("action", "CREATE"),
        status=values.pop("status", "COMPLETE"),
        convergence=values.pop("convergence", True),
        **values,
    )
    session.add(row)
    session.flush()
    return row


def resource(session: Session, owner: Stack, name: str, **values: Any) -> Resource:
    row = Resource(
        name=name,
        stack_id=owner.id,
        action=values.pop("action", "CREATE"),
        status=values.pop("status", "COMPLETE"),
        current_template_id=owner.raw_template_id,
        **values,
    )
    session.add(row)
    session.flush()
    return row


def resource_data(session: Session, owner: Resource, key: str, value: str, **values: Any) -> None:
    values.setdefault("redact", False)
    session.add(ResourceData(resource_id=owner.id, key=key, value=value, **values))
    session.flush()


@dataclass
class StackTree:
    """A stack with one row in each table that hangs off a stack."""

    stack_id: str
    ids: dict[str, set[Any]]


def full_stack(
    session: Session,
    name: str,
    *,
    snapshot: bool = True,
    shared_files: RawTemplateFiles | None = None,
    **values: Any,
) -> StackTree:
    """A stack that was updated once: two templates, credentials, a tag, a lock, a
    resource with data and properties, an event, a sync point and (optionally) a snapshot."""
    previous = template(session, shared_files or files(session))
    current = template(session, shared_files)
    creds = UserCreds(username="demo", tenant_id=values.get("tenant", "project-1"))
    session.add(creds)
    session.flush()
    owner = stack(
        session,
        name,
        raw_template=current,
        prev_raw_template_id=previous.id,
        user_creds_id=creds.id,
        **values,
    )
    session.add(StackTag(tag=f"{name}-tag", stack_id=owner.id))
    session.add(StackLock(stack_id=owner.id, engine_id="engine-1"))
    server = resource(
        session,
        owner,
        "server",
        rsrc_prop_data_id=properties_data(session),
        attr_data_id=properties_data(session),
    )
    resource_data(session, server, "password", "secret")
    event = Event(
        stack_id=owner.id,
        resource_name="server",
        resource_action="CREATE",
        resource_status="COMPLETE",
        rsrc_prop_data_id=properties_data(session),
    )
    session.add(event)
    session.add(
        SyncPoint(
            entity_id=owner.id, traversal_id="t-1", is_update=True, atomic_key=0, stack_id=owner.id
        )
    )
    if snapshot:
        saved = Snapshot(stack_id=owner.id, name="snap", tenant=owner.tenant or "")
        session.add(saved)
        session.flush()
        session.add(ResourceSnapshot(snapshot_id=saved.id, resource_name="server", data={}))
    session.flush()
    return StackTree(owner.id, rows_of(session, owner.id))


def rows_of(session: Session, stack_id: str) -> dict[str, set[Any]]:
    """The primary keys of every row that belongs to one stack, by table."""
    owner = session.get(Stack, stack_id)
    assert owner is not None
    resource_ids = set(session.scalars(sa.select(Resource.id).where(Resource.stack_id == stack_id)))
    snapshot_ids = set(session.scalars(sa.select(Snapshot.id).where(Snapshot.stack_id == stack_id)))
    templates = {owner.raw_template_id, owner.prev_raw_template_id} - {None}
    by_stack = {
        "stack_tag": StackTag.id,
        "stack_lock": StackLock.stack_id,
        "event": Event.id,
        "sync_point": SyncPoint.entity_id,
    }
    ids: dict[str, set[Any]] = {
        table: set(session.scalars(sa.select(column).where(column.table.c.stack_id == stack_id)))
        for table, column in by_stack.items()
    }
    properties = set(
        session.scalars(sa.select(Event.rsrc_prop_data_id).where(Event.stack_id == stack_id))
    )
    for resource_row in session.scalars(sa.select(Resource).where(Resource.stack_id == stack_id)):
        properties |= {resource_row.rsrc_prop_data_id, resource_row.attr_data_id}
    ids.update(
        stack={stack_id},
        resource=resource_ids,
        resource_data=set(
            session.scalars(
                sa.select(ResourceData.id).where(ResourceData.resource_id.in_(resource_ids))
            )
        ),
        resource_properties_data=properties - {None},
        raw_template=templates,
        raw_template_files=set(
            session.scalars(sa.select(RawTemplate.files_id).where(RawTemplate.id.in_(templates)))
        )
        - {None},
        user_creds={owner.user_creds_id} - {None},
        snapshot=snapshot_ids,
        resource_snapshot=set(
            session.scalars(
                sa.select(ResourceSnapshot.id).where(ResourceSnapshot.snapshot_id.in_(snapshot_ids))
            )
        ),
    )
    return ids


def service(session: Session, engine_id: str, **values: Any) -> Service:
    row = Service(
        engine_id=engine_id,
        host="host",
        hostname=f"{engine_id}-hostname",
        binary="heat-engine",
        topic="engine",
        report_interval=values.pop("report_interval", 60),
        **values,
    )
    session.add(row)
    session.flush()
    return row


def all_rows(database: Database, skip: tuple[str, ...] = ()) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sorted, but for the ``skip`` columns: what two databases
    compare on."""
    with database.engine.connect() as connection:
        return {
            table.name: sorted(
                (
                    tuple(row)
                    for row in connection.execute(
                        sa.select(*(c for c in table.columns if c.name not in skip))
                    )
                ),
                key=repr,
            )
            for table in metadata.sorted_tables
        }


def primary_keys(database: Database) -> dict[str, set[Any]]:
    """The primary keys left in each table (the first key column of composite ones)."""
    with database.engine.connect() as connection:
        return {
            table.name: set(connection.scalars(sa.select(next(iter(table.primary_key.columns)))))
            for table in metadata.sorted_tables
        }
