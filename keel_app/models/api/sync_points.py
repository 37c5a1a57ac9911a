"""Convergence sync points: created per traversal, merged into under a CAS on ``atomic_key``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

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


# Rows a statement inserts: a large traversal's sync points go in batches of this many,
# so that the parameters of thousands of rows are never all in memory at once.
INSERT_BATCH = 200


@retry_on_db_error
def create_sync_points(
    database: Database, keys: Sequence[tuple[Any, bool]], values: Mapping[str, Any]
) -> None:
    """A traversal's sync points, all in one transaction: one per (entity id, is_update)
    of ``keys``, each with the other columns' ``values``."""
    with database.transaction() as session:
        for start in range(0, len(keys), INSERT_BATCH):
            batch = [
                {**values, "entity_id": str(entity_id), "is_update": is_update}
                for entity_id, is_update in keys[start : start + INSERT_BATCH]
            ]
            session.execute(sa.insert(SyncPoint), batch)


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


Merge = Callable[[Any, Any], tuple[Any, Any]]


@retry_on_db_error
def merge_sync_point(
    database: Database,
    entity_id: str | int,
    traversal_id: str,
    is_update: bool,
    merge: Merge,
    expect_first: bool = False,
    expect_stored: tuple[int, Any] | None = None,
) -> tuple[Any, Any] | None:
    """Read, merge and store a sync point's data under its row lock; None if it is gone.

    ``merge(input_data, extra_data)`` returns the values to store. The row lock makes
    concurrent merges wait for each other instead of failing a compare-and-swap and
    retrying; ``atomic_key`` still moves on, so an engine that merges by Heat's
    compare-and-swap on the same row sees the change.

    ``expect_first``: the caller is likely the first to merge (the sync point of a node
    with one predecessor). The merge into the sync point as created (no inputs, no extra
    data, ``atomic_key`` 0) is then written by a compare-and-swap on that key, with no
    read; only when another merge came first is the row read and merged.

    ``expect_stored``: the (``atomic_key``, ``input_data``) the caller expects to find,
    with no extra data (what the other predecessors are known to have written). The merge
    into that is written by a compare-and-swap on the key and the stored inputs, with no
    read; a sync point found otherwise is read and merged.
    """
    key = {
        "key_entity_id": str(entity_id),
        "key_traversal_id": traversal_id,
        "key_is_update": is_update,
    }
    with database.transaction() as session:
        # Core statements built once: merges are a step's most frequent write, and the
        # ORM's load and flush of the row cost more than the statements themselves.
        connection = session.connection()
        if expect_first:
            input_data, extra_data = merge({}, None)
            values = {**key, "new_input_data": input_data, "new_atomic_key": 1}
            if extra_data is None:
                claimed = connection.execute(_FIRST_MERGE_WRITE, values).rowcount
            else:
                values["new_extra_data"] = extra_data
                claimed = connection.execute(_FIRST_MERGE_WRITE_EXTRA, values).rowcount
            if claimed:
                return input_data, extra_data
        elif expect_stored is not None:
            expected_key, expected_input = expect_stored
            input_data, extra_data = merge(expected_input, None)
            if extra_data is None:
                values = {
                    **key,
                    "new_input_data": input_data,
                    "new_atomic_key": expected_key + 1,
                    "expected_atomic_key": expected_key,
                    "expected_input_data": expected_input,
                }
                if connection.execute(_EXPECTED_MERGE_WRITE, values).rowcount:
                    return input_data, extra_data
        sync_point = connection.execute(_MERGE_READ, key).one_or_none()
        if sync_point is None:
            return None
        input_data, extra_data = merge(sync_point.input_data, sync_point.extra_data)
        values = {"new_input_data": input_data, "new_atomic_key": (sync_point.atomic_key or 0) + 1}
        if extra_data is None:
            connection.execute(_MERGE_WRITE, {**key, **values})
        else:
            connection.execute(_MERGE_WRITE_EXTRA, {**key, **values, "new_extra_data": extra_data})
        return input_data, extra_data


def _sync_point_key() -> sa.ColumnElement[bool]:
    table = SyncPoint.__table__.c
    return sa.and_(
        table.entity_id == sa.bindparam("key_entity_id"),
        table.traversal_id == sa.bindparam("key_traversal_id"),
        table.is_update == sa.bindparam("key_is_update", type_=sa.Boolean()),
    )


def _merge_write(*names: str) -> sa.Update:
    table = SyncPoint.__table__
    values = {
        table.c[name]: sa.bindparam(f"new_{name}", type_=table.c[name].type) for name in names
    }
    return sa.update(table).where(_sync_point_key()).values(values)


_MERGE_READ = (
    sa.select(
        SyncPoint.__table__.c.input_data,
        SyncPoint.__table__.c.extra_data,
        SyncPoint.__table__.c.atomic_key,
    )
    .where(_sync_point_key())
    .with_for_update()
)
_MERGE_WRITE = _merge_write("input_data", "atomic_key")
_MERGE_WRITE_EXTRA = _merge_write("input_data", "extra_data", "atomic_key")
# The first merge: the sync point as it was created, which no merge has changed yet.
_FIRST_MERGE_WRITE = _MERGE_WRITE.where(SyncPoint.__table__.c.atomic_key == 0)
_FIRST_MERGE_WRITE_EXTRA = _MERGE_WRITE_EXTRA.where(SyncPoint.__table__.c.atomic_key == 0)
# A merge into what the caller expects to be stored (the text of the inputs compared as
# written: both engines write it with json.dumps and its default separators).
_EXPECTED_MERGE_WRITE = _MERGE_WRITE.where(
    SyncPoint.__table__.c.atomic_key == sa.bindparam("expected_atomic_key"),
    SyncPoint.__table__.c.input_data
    == sa.bindparam("expected_input_data", type_=SyncPoint.__table__.c.input_data.type),
    SyncPoint.__table__.c.extra_data.is_(None),
)
_COUNT_WRITE = _merge_write("atomic_key")


def delete_sync_points(database: Database, stack_id: str, traversal_id: str) -> int:
    """Delete a traversal's sync points of one stack; returns how many there were."""
    with database.transaction() as session:
        result = session.execute(
            sa.delete(SyncPoint)
            .where(SyncPoint.stack_id == stack_id, SyncPoint.traversal_id == traversal_id)
            .execution_options(synchronize_session=False)
        )
        return result.rowcount


@retry_on_db_error
def count_root_report(
    database: Database,
    stack_id: str,
    traversal_id: str,
    record: Mapping[str, Any],
    roots: int,
    complete: Callable[[list[Any]], tuple[Any, Any]],
) -> int | None:
    """Store one root's completion ``record`` (a sync point row of its own) and count it
    on the stack's sync point, in one transaction.

    Returns how many roots have reported, the stack's ``atomic_key``; 0 when the record
    existed already (the root reported before: nothing is counted twice); None when the
    stack's sync point is gone. The report that brings the count to ``roots`` also stores
    ``complete(extra data of every record)`` as the stack sync point's (input, extra)
    data, under the same row lock.
    """
    row = {**record, "entity_id": str(record["entity_id"])}
    with database.transaction() as session:
        # The record first: the stack's sync point is the traversal's hot row, locked
        # here only for the last two statements before the commit.
        connection = session.connection()
        inserted = connection.execute(_insert_if_absent(database.engine.dialect.name), row).rowcount
        key = {"key_entity_id": stack_id, "key_traversal_id": traversal_id, "key_is_update": True}
        stack_point = connection.execute(_MERGE_READ, key).one_or_none()
        if stack_point is None:
            if inserted:
                connection.execute(
                    sa.delete(SyncPoint).where(
                        SyncPoint.entity_id == row["entity_id"],
                        SyncPoint.traversal_id == traversal_id,
                        SyncPoint.is_update == row["is_update"],
                    )
                )
            return None
        if not inserted:
            return 0
        count = (stack_point.atomic_key or 0) + 1
        values = {**key, "new_atomic_key": count}
        if count != roots:
            connection.execute(_COUNT_WRITE, values)
            return count
        extras = session.scalars(
            sa.select(SyncPoint.extra_data).where(
                SyncPoint.stack_id == stack_id,
                SyncPoint.traversal_id == traversal_id,
                SyncPoint.entity_id.like(f"{RECORD_PREFIX}%"),
            )
        ).all()
        input_data, extra_data = complete([extra for extra in extras if extra])
        values["new_input_data"] = input_data
        if extra_data is None:
            connection.execute(_MERGE_WRITE, values)
        else:
            connection.execute(_MERGE_WRITE_EXTRA, {**values, "new_extra_data": extra_data})
        return count


@functools.cache
def _insert_if_absent(dialect: str) -> Any:
    """An INSERT of a sync point row that does nothing when its key exists (rowcount 0),
    built once per dialect: every root of a large traversal reports with it."""
    if dialect == "mysql":
        return sa.insert(SyncPoint).prefix_with("IGNORE")
    if dialect == "postgresql":
        return postgresql.insert(SyncPoint).on_conflict_do_nothing()
    return sqlite.insert(SyncPoint).on_conflict_do_nothing()


# Completion records are keyed by the root's id behind this prefix, which no resource id
# (an integer) nor stack or snapshot id (a UUID) starts with.
RECORD_PREFIX = "-"
