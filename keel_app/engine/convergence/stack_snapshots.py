"""A stack's snapshots on the database: ``snapshot`` rows and their ``resource_snapshot`` rows.

A convergence snapshot is a SNAPSHOT traversal whose id is the snapshot's id: the row is
written IN_PROGRESS with the stack's data (template, environment, files, no resources),
each resource adds its own ``resource_snapshot`` row as its snapshot completes, and the
traversal's end records the outcome. Shown, a snapshot's ``data["resources"]`` is made of
its resource snapshots, by resource name (Heat's ``load_rsrc_snapshot``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine import api_format
from keel_app.models.database import Database
from keel_app.models.snapshot import ResourceSnapshot, Snapshot
from keel_app.models.stack import StackTag

CREATE, DELETE = "CREATE", "DELETE"
IN_PROGRESS, FAILED, COMPLETE = "IN_PROGRESS", "FAILED", "COMPLETE"
REASON_LENGTH = 255


def stack_data(stack: Any) -> dict[str, Any]:
    """The stack as a snapshot keeps it (``prepare_abandon`` without resources)."""
    with stack.database.transaction() as session:
        tags = list(
            session.scalars(
                sa.select(StackTag.tag).where(StackTag.stack_id == stack.id).order_by(StackTag.id)
            ).all()
        )
    return {
        "name": stack.name,
        "id": stack.id,
        "action": stack.action,
        "environment": stack.env.user_env_as_dict(),
        "files": dict(stack.t.files),
        "status": stack.status,
        "template": stack.t.t,
        "resources": {},
        "project_id": stack.tenant_id,
        "stack_user_project_id": stack.stack_user_project_id,
        "tags": tags,
    }


def record_outcome(stack: Any, reason: str, status: str) -> None:
    """The end of a SNAPSHOT traversal, written on its snapshot (the traversal's id)."""
    data = stack_data(stack)
    data["status"] = status
    update(
        stack.database,
        stack.current_traversal,
        {"data": data, "action": CREATE, "status": status, "status_reason": reason},
    )


# Rows


def create(database: Database, values: Mapping[str, Any]) -> Snapshot:
    with database.transaction() as session:
        row = Snapshot(**values)
        session.add(row)
        session.flush()
        session.refresh(row)
        session.expunge(row)
        return row


def update(database: Database, snapshot_id: str, values: Mapping[str, Any]) -> None:
    values = dict(values)
    if isinstance(values.get("status_reason"), str):
        values["status_reason"] = values["status_reason"][:REASON_LENGTH]
    with database.transaction() as session:
        row = session.get(Snapshot, snapshot_id)
        if row is None:
            raise exception.NotFound(f"Snapshot with id {snapshot_id} not found")
        for name, value in values.items():
            setattr(row, name, value)


def get(database: Database, context: Any, snapshot_id: str) -> Snapshot:
    """The snapshot, if it belongs to the context's project (Heat's ``snapshot_get``)."""
    with database.transaction() as session:
        row = session.get(Snapshot, snapshot_id)
        if row is not None:
            session.expunge(row)
    if row is not None and context is not None and context.project_id != row.tenant:
        row = None
    if row is None:
        raise exception.NotFound(f"Snapshot with id {snapshot_id} not found")
    return row


def get_by_stack(database: Database, context: Any, snapshot_id: str, stack: Any) -> Snapshot:
    row = get(database, context, snapshot_id)
    if row.stack_id != stack.id:
        raise exception.SnapshotNotFound(snapshot=snapshot_id, stack=stack.name)
    return row


def list_for_stack(database: Database, context: Any, stack_id: str) -> list[Snapshot]:
    """The stack's snapshots in the context's project, oldest first."""
    statement = (
        sa.select(Snapshot)
        .where(Snapshot.stack_id == stack_id, Snapshot.tenant == context.project_id)
        .order_by(Snapshot.created_at, Snapshot.id)
    )
    with database.transaction() as session:
        rows = list(session.scalars(statement).all())
        session.expunge_all()
        return rows


def count_for_stack(database: Database, context: Any, stack_id: str) -> int:
    return len(list_for_stack(database, context, stack_id))


def snapshot_ids(database: Database, stack_id: str) -> list[str]:
    """Every snapshot of the stack, whoever took it: a stack's delete deletes them all."""
    statement = (
        sa.select(Snapshot.id)
        .where(Snapshot.stack_id == stack_id)
        .order_by(Snapshot.created_at, Snapshot.id)
    )
    with database.transaction() as session:
        return [str(snapshot_id) for snapshot_id in session.scalars(statement).all()]


def resource_snapshots(database: Database, snapshot_id: str) -> dict[str, Any]:
    """The data of each resource snapshot, by resource name."""
    statement = (
        sa.select(ResourceSnapshot)
        .where(ResourceSnapshot.snapshot_id == snapshot_id)
        .order_by(ResourceSnapshot.created_at, ResourceSnapshot.id)
    )
    with database.transaction() as session:
        return {row.resource_name: row.data for row in session.scalars(statement).all()}


def data_with_resources(database: Database, row: Snapshot) -> Any:
    """The snapshot's data, its resources made of its resource snapshots when it has any."""
    data = row.data
    resources = resource_snapshots(database, row.id)
    if resources and isinstance(data, dict):
        data = {**data, "resources": resources}
    return data


def delete_with_resources(database: Database, snapshot_id: str) -> None:
    """Remove the snapshot and its resource snapshots together."""
    with database.transaction() as session:
        session.execute(
            sa.delete(ResourceSnapshot).where(ResourceSnapshot.snapshot_id == snapshot_id)
        )
        session.execute(sa.delete(Snapshot).where(Snapshot.id == snapshot_id))


def format_snapshot(row: Snapshot, data: Any) -> dict[str, Any]:
    """The snapshot as the engine API answers it (Heat's ``format_snapshot``)."""
    return {
        "id": row.id,
        "name": row.name,
        "action": row.action,
        "status": row.status,
        "status_reason": row.status_reason,
        "data": data,
        "creation_time": api_format.isotime(row.created_at),
    }
