"""``migrate_convergence_1``: a legacy (pre-convergence) stack tree of a taken-over
database moved to convergence, as Heat's engine does it for ``heat-manage``.

The root must be a complete top-level stack, and every stack below it complete. With
the lock of every stack of the tree held (nested stacks first), each legacy stack's
resource rows get the stack's template as theirs and the ids of the rows they require
in the template's dependency graph; the stack gets a traversal of its own and loses its
previous template. The same function serves the RPC call and ``keel-manage``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack import Stack
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow
from keel_app.models.api import stack_locks
from keel_app.models.api import stacks as stack_rows
from keel_app.models.database import Database
from keel_app.models.maintenance.convergence_migration import (
    StackMigration,
    needs_convergence_migration,
    stacks_to_migrate,
    write_migrations,
)

LOG = logging.getLogger(__name__)


def _acquire_lock(
    database: Database, stack_id: str, engine_id: str, engine_alive: Callable[[str], bool]
) -> None:
    """Heat's ``StackLock.acquire``: a lock held by a live engine (or by this one) is
    ActionInProgress; one held by a dead engine is taken over."""
    while True:
        holder = stack_locks.create_stack_lock(database, stack_id, engine_id)
        if holder is None:
            return
        if holder == engine_id or engine_alive(holder):
            with database.transaction() as session:
                row = session.get(StackRow, stack_id)
                assert row is not None
                raise exception.ActionInProgress(stack_name=row.name, action=row.action)
        LOG.info("Stale lock detected on stack %s. Engine %s will steal it", stack_id, engine_id)
        if stack_locks.steal_stack_lock(database, stack_id, holder, engine_id):
            return


def _active_resource_ids(database: Database, stack_id: str) -> list[int]:
    """The stack's resource rows but the deleted ones (DELETE COMPLETE)."""
    deleted = sa.select(ResourceRow.id).where(
        ResourceRow.stack_id == stack_id,
        ResourceRow.action == "DELETE",
        ResourceRow.status == "COMPLETE",
    )
    with database.transaction() as session:
        return list(
            session.scalars(
                sa.select(ResourceRow.id)
                .where(ResourceRow.stack_id == stack_id, ResourceRow.id.not_in(deleted))
                .order_by(ResourceRow.id)
            ).all()
        )


def _migration_of(stack: Stack) -> StackMigration:
    """What moving ``stack`` writes: each active row's requirements in the template's
    graph. A row the template has no node for makes Heat's engine fail the whole
    migration (KeyError) before anything is written, and so it does here."""
    by_row = stack.dependencies.translate(lambda resource: resource.id)
    requires = {
        row_id: [required for required in by_row.requires(row_id) if required is not None]
        for row_id in _active_resource_ids(stack.database, str(stack.id))
    }
    assert stack.t.id is not None
    return StackMigration(str(stack.id), int(stack.t.id), requires)


def migrate_stack_tree(
    context: Any,
    settings: EngineSettings,
    database: Database,
    stack_id: str,
    engine_alive: Callable[[str], bool],
) -> None:
    """Move the legacy stack ``stack_id`` and every stack below it to convergence;
    nothing for a stack already there. ``engine_alive`` tells whether the engine holding
    a stack's lock still runs."""
    if stack_rows.get_stack(database, context, stack_id) is None:
        raise exception.NotFound(f'No stack exists with id "{stack_id}"')
    if not needs_convergence_migration(database, stack_id):
        return
    stack_ids = stacks_to_migrate(database, stack_id)
    held: list[str] = []
    try:
        for each in stack_ids:
            _acquire_lock(database, each, settings.engine_id, engine_alive)
            held.append(each)
        stacks = [Stack.load(context, database, settings, stack_id=each) for each in stack_ids]
        write_migrations(
            database, [_migration_of(stack) for stack in stacks if not stack.convergence]
        )
    finally:
        for each in held:
            stack_locks.release_stack_lock(database, each, settings.engine_id)


def migrate_convergence_1(
    context: Any, settings: EngineSettings, database: Database, dispatcher: Any, *, stack_id: str
) -> None:
    """The RPC call: ``migrate_stack_tree`` with the fleet's view of which engines live."""
    migrate_stack_tree(
        context,
        settings,
        database,
        stack_id,
        lambda engine_id: bool(dispatcher.is_engine_alive(context, engine_id)),
    )
