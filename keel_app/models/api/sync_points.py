"""Convergence sync points: created per traversal, merged into under a CAS on ``atomic_key``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.models.database import Database, retry_on_db_error
from keel_app.models.sync_point import SyncPoint


@retry_on_db_error
def create_sync_point(database: Database, values: Mapping[str, Any]) -> SyncPoint:
    # Resource ids and stack ids share the column: integers are stored as text.
    values = {**values, "entity_id": str(values["entity_id"])}
    with database.transaction() as session:
        sync_point = SyncPoint(**values)
        session.add(sync_point)
    return sync_point


def get_sync_point(
    database: Database, entity_id: str | int, traversal_id: str, is_update: bool
) -> SyncPoint | None:
    with database.transaction() as session:
        return session.get(SyncPoint, (str(entity_id), traversal_id, is_update))


@retry_on_db_error
def update_sync_point_input(
    database: Database,
    entity_id: str | int,
    traversal_id: str,
    is_update: bool,
    atomic_key: int,
    input_data: Any,
    extra_data: Any = None,
) -> bool:
    """Store the merged inputs if the sync point still has ``atomic_key``; None keeps a field.

    False means another predecessor merged first: read the sync point again and retry.
    """
    values: dict[str, Any] = {"atomic_key": atomic_key + 1}
    if input_data is not None:
        values["input_data"] = input_data
    if extra_data is not None:
        values["extra_data"] = extra_data
    with database.transaction() as session:
        result = session.execute(
            sa.update(SyncPoint)
            .where(
                SyncPoint.entity_id == str(entity_id),
                SyncPoint.traversal_id == traversal_id,
                SyncPoint.is_update == is_update,
                SyncPoint.atomic_key == atomic_key,
            )
            .values(values)
            .execution_options(synchronize_session=False)
        )
        return bool(result.rowcount)


def delete_sync_points(database: Database, stack_id: str, traversal_id: str) -> int:
    """Delete a traversal's sync points of one stack; returns how many there were."""
    with database.transaction() as session:
        result = session.execute(
            sa.delete(SyncPoint)
            .where(SyncPoint.stack_id == stack_id, SyncPoint.traversal_id == traversal_id)
            .execution_options(synchronize_session=False)
        )
        return result.rowcount
