"""Resource rows and their lock: compare-and-swap on ``engine_id`` and ``atomic_key``.

A resource row is locked by the engine named in ``engine_id``. Every locked write names
the ``atomic_key`` it last read and moves it on by one, so a writer with a stale view
changes nothing and learns so from a False return.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from keel_app.common import exception
from keel_app.models.api.errors import is_foreign_key_violation
from keel_app.models.api.status_reason import truncate_status_reason
from keel_app.models.database import Database, retry_on_db_error
from keel_app.models.resource import Resource

LOG = logging.getLogger(__name__)


def next_atomic_key(atomic_key: int | None) -> int:
    """The key a successful write leaves: rows that were never locked start at 1."""
    return 1 if atomic_key is None else atomic_key + 1


def create_resource(database: Database, values: Mapping[str, Any]) -> Resource:
    values = truncate_status_reason(database, values)
    with database.transaction() as session:
        resource = Resource(**values)
        session.add(resource)
    return resource


def create_resources(database: Database, values: list[Mapping[str, Any]]) -> dict[str, int]:
    """Several new rows in one transaction (a traversal's new resources); their ids by name.

    One multi-row INSERT ... RETURNING rather than mapped objects: a large stack's
    thousand rows would otherwise be a thousand objects with their states at once.
    """
    if not values:
        return {}
    with database.transaction() as session:
        inserted = session.execute(
            sa.insert(Resource).returning(Resource.name, Resource.id, sort_by_parameter_order=True),
            [truncate_status_reason(database, item) for item in values],
        )
        return {str(name): row_id for name, row_id in inserted}


def get_resource(database: Database, resource_id: int) -> Resource:
    with database.transaction() as session:
        resource = session.get(Resource, resource_id)
    if resource is None:
        raise exception.NotFound(f"resource with id {resource_id} not found")
    return resource


def _update_resource(
    session: Session,
    database: Database,
    resource_id: int,
    values: Mapping[str, Any],
    atomic_key: int | None,
    expected_engine_id: str | None,
    new_atomic_key: int | None = None,
) -> bool:
    values = truncate_status_reason(database, values)
    values["atomic_key"] = next_atomic_key(atomic_key) if new_atomic_key is None else new_atomic_key
    statement = _cas_statement(tuple(values), expected_engine_id is None, atomic_key is None)
    parameters = {f"new_{name}": value for name, value in values.items()}
    parameters.update(
        expected_id=resource_id,
        expected_engine_id=expected_engine_id,
        expected_atomic_key=atomic_key,
    )
    # Run as Core on the session's connection: the ORM's bulk update path, and building
    # and keying a new statement each time, cost more than the round trip itself.
    result = session.connection().execute(statement, parameters)
    return bool(result.rowcount)


@functools.lru_cache(maxsize=256)
def _cas_statement(names: tuple[str, ...], engine_is_null: bool, key_is_null: bool) -> sa.Update:
    """The compare-and-swap UPDATE writing the attributes ``names``, built once per form."""
    table = Resource.__table__
    columns = sa.inspect(Resource).column_attrs

    def column(name: str) -> Any:
        return columns[name].columns[0]

    def expected(name: str, is_null: bool) -> sa.ColumnElement[bool]:
        # NULL never compares equal, so an expected NULL is matched with IS NULL.
        if is_null:
            return column(name).is_(None)
        return column(name) == sa.bindparam(f"expected_{name}", type_=column(name).type)

    return (
        sa.update(table)
        .where(
            column("id") == sa.bindparam("expected_id", type_=column("id").type),
            expected("engine_id", engine_is_null),
            expected("atomic_key", key_is_null),
        )
        .values(
            {column(name): sa.bindparam(f"new_{name}", type_=column(name).type) for name in names}
        )
    )


@retry_on_db_error
def update_resource(
    database: Database,
    resource_id: int,
    values: Mapping[str, Any],
    atomic_key: int | None,
    expected_engine_id: str | None = None,
    also: Callable[[Session], Any] | None = None,
    new_atomic_key: int | None = None,
) -> bool:
    """Write ``values`` if the row still has ``atomic_key`` and is held by ``expected_engine_id``.

    ``None`` for either means the row must have NULL there. On success the row's key is
    ``new_atomic_key`` (by default ``next_atomic_key(atomic_key)``) and ``also`` (the event
    of a state change, say) has written its rows in the same transaction; on False
    nothing changed.
    """
    with database.transaction() as session:
        updated = _update_resource(
            session, database, resource_id, values, atomic_key, expected_engine_id, new_atomic_key
        )
        if updated and also is not None:
            also(session)
        return updated


def acquire_resource_lock(
    database: Database,
    resource_id: int,
    engine_id: str,
    atomic_key: int | None,
    values: Mapping[str, Any] | None = None,
) -> bool:
    """Take an unlocked resource for ``engine_id`` (writing ``values`` with it)."""
    return update_resource(
        database, resource_id, {**(values or {}), "engine_id": engine_id}, atomic_key, None
    )


def release_resource_lock(
    database: Database,
    resource_id: int,
    engine_id: str,
    atomic_key: int | None,
    values: Mapping[str, Any] | None = None,
) -> bool:
    """Give back a resource that ``engine_id`` holds (writing ``values`` with it).

    ``atomic_key`` is the key the row got when the lock was taken.
    """
    return update_resource(
        database, resource_id, {**(values or {}), "engine_id": None}, atomic_key, engine_id
    )


def steal_resource_lock(
    database: Database,
    resource_id: int,
    dead_engine_id: str,
    values: Mapping[str, Any] | None = None,
) -> bool:
    """Clear the lock of an engine found dead, if it still holds the resource.

    As in Heat, the key is left where it is: the dead engine's own release, should it
    come back, fails on ``engine_id``, and the next acquire reads the key afresh. The
    condition on ``dead_engine_id`` keeps two engines that both found it dead from
    clearing a lock that a third has taken since.
    """
    values = truncate_status_reason(database, {**(values or {}), "engine_id": None})
    with database.transaction() as session:
        result = session.execute(
            sa.update(Resource)
            .where(Resource.id == resource_id, Resource.engine_id == dead_engine_id)
            .values(values)
            .execution_options(synchronize_session=False)
        )
        return bool(result.rowcount)


@retry_on_db_error
def create_replacement(
    database: Database,
    existing_id: int,
    new_values: Mapping[str, Any],
    atomic_key: int | None,
    engine_id: str | None = None,
) -> Resource | None:
    """Insert the replacement of a resource and point the old row at it, in one transaction.

    The old row is claimed with the same compare-and-swap as ``update_resource``; when it
    fails (the resource is locked or was changed) UpdateInProgress is raised and the new
    row is not kept. Returns None, inserting nothing, when the new row names a template
    that no longer exists.
    """
    try:
        with database.transaction() as session:
            replacement = Resource(**truncate_status_reason(database, new_values))
            session.add(replacement)
            session.flush()
            claimed = _update_resource(
                session,
                database,
                existing_id,
                {"replaced_by": replacement.id},
                atomic_key,
                engine_id,
            )
            if not claimed:
                if "name" in new_values:
                    raise exception.UpdateInProgress(resource_name=new_values["name"])
                raise exception.UpdateInProgress()
    except sa.exc.IntegrityError as error:
        if not is_foreign_key_violation(error):
            raise
        LOG.debug("Not creating replacement resource: %s", error)
        return None
    return replacement


def locked_by_engine(database: Database, stack_id: str, engine_id: str) -> list[Resource]:
    """The stack's resources whose lock ``engine_id`` holds."""
    with database.transaction() as session:
        return list(
            session.scalars(
                sa.select(Resource).where(
                    Resource.stack_id == stack_id, Resource.engine_id == engine_id
                )
            )
        )


def engines_holding_locks(database: Database, stack_id: str) -> set[str]:
    """The engines that hold a lock on some resource of the stack."""
    with database.transaction() as session:
        engine_ids = session.scalars(
            sa.select(Resource.engine_id)
            .where(Resource.stack_id == stack_id, Resource.engine_id.is_not(None))
            .distinct()
        ).all()
    return {engine_id for engine_id in engine_ids if engine_id is not None}
