"""The database side of ``migrate_convergence_1``: which stacks of a legacy (pre-convergence)
tree move, and the rows that moving them writes.

What each resource requires comes from the dependency graph of its stack's template,
which is the engine's to compute (``keel_app.engine.service.convergence_migration``);
here are the checks Heat's engine makes first and the writes it makes, in one
transaction for the whole tree.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from keel_app.common.exception import ActionNotComplete, NotFound, NotSupported
from keel_app.models import RawTemplate, Resource, Stack
from keel_app.models.database import Database
from keel_app.models.template import RawTemplateFiles

LOG = logging.getLogger(__name__)


def needs_convergence_migration(database: Database, stack_id: str) -> bool:
    """False for a stack already on convergence; True for a legacy one that may move.

    Raises NotFound for a missing or deleted stack, NotSupported for a nested one and
    ActionNotComplete for one whose last action did not complete.
    """
    with database.transaction() as session:
        stack = session.get(Stack, stack_id)
        if stack is None or stack.deleted_at is not None:
            # Heat's engine fails to load the stack with this message.
            raise NotFound(f'No stack exists with id "{stack_id}"')
        if stack.owner_id is not None:
            raise NotSupported(feature=f"Migration of nested stack {stack_id}")
        if stack.convergence:
            LOG.info("Convergence was already enabled for stack %s", stack_id)
            return False
        if stack.status != "COMPLETE":
            raise ActionNotComplete(stack_name=stack.name, action=stack.action)
        return True


def _nested(session: Session, owner_id: str) -> Iterator[Stack]:
    """The live stacks below ``owner_id``, each followed by its own, as Heat walks them."""
    children = session.scalars(
        sa.select(Stack).where(
            Stack.owner_id == owner_id, Stack.backup == sa.false(), Stack.deleted_at.is_(None)
        )
    ).all()
    for child in children:
        yield child
        yield from _nested(session, child.id)


def stacks_to_migrate(database: Database, root_id: str) -> list[str]:
    """The ids of the root's nested stacks, then the root's: the order their locks are
    taken in. Raises ActionNotComplete for a nested stack whose last action did not
    complete."""
    with database.transaction() as session:
        nested = list(_nested(session, root_id))
        for stack in nested:
            if stack.status != "COMPLETE":
                raise ActionNotComplete(stack_name=stack.name, action=stack.action)
        return [*(str(stack.id) for stack in nested), root_id]


@dataclass(frozen=True)
class StackMigration:
    """The rows one legacy stack's move to convergence writes."""

    stack_id: str
    # The stack's template, which every resource row now names as its own.
    template_id: int
    # Resource row id -> the ids of the rows it requires.
    requires: Mapping[int, Sequence[int]]


def _delete_template(session: Session, template_id: int) -> None:
    """Heat's ``raw_template_delete``: the row, and its files' row when no other template
    shares it."""
    template = session.get(RawTemplate, template_id)
    if template is None:
        return
    files_id = template.files_id
    session.delete(template)
    session.flush()
    if files_id is None:
        return
    shared = session.scalars(
        sa.select(RawTemplate.id).where(RawTemplate.files_id == files_id)
    ).first()
    if shared is None:
        session.execute(sa.delete(RawTemplateFiles).where(RawTemplateFiles.id == files_id))


def write_migrations(database: Database, migrations: Sequence[StackMigration]) -> None:
    """Move each stack to convergence, all in one transaction: its resource rows get the
    stack's template and what they require (in descending id order, as Heat stores
    them), the stack a new traversal and no previous template, which is deleted."""
    with database.transaction() as session:
        for migration in migrations:
            for resource_id, required in migration.requires.items():
                session.execute(
                    sa.update(Resource)
                    .where(Resource.id == resource_id)
                    .values(
                        current_template_id=migration.template_id,
                        requires=sorted(required, reverse=True),
                    )
                    .execution_options(synchronize_session=False)
                )
            previous = session.scalar(
                sa.select(Stack.prev_raw_template_id).where(Stack.id == migration.stack_id)
            )
            session.execute(
                sa.update(Stack)
                .where(Stack.id == migration.stack_id)
                .values(
                    convergence=True,
                    current_traversal=str(uuid.uuid4()),
                    prev_raw_template_id=None,
                )
                .execution_options(synchronize_session=False)
            )
            if previous:
                _delete_template(session, previous)
