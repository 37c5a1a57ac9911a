"""``reset_stack_status``: recover a stack tree that a crashed engine left IN_PROGRESS."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Session

from keel_app.common.exception import NotFound
from keel_app.models import Resource, ResourceData, Stack, StackLock
from keel_app.models.database import Database, retry_on_db_error

RESET_REASON = "Stack status manually reset"
# The resource_data keys under which a breakpoint waits for someone to clear it.
HOOK_TYPES = (
    "pre-create",
    "pre-update",
    "pre-delete",
    "post-create",
    "post-update",
    "post-delete",
)


@retry_on_db_error
def reset_stack_status(database: Database, stack_id: str) -> None:
    """Fail whatever is IN_PROGRESS in the stack and its nested stacks, deleted ones too.

    Resources lose their engine and their pending hooks, stacks lose their lock.
    """
    with database.transaction() as session:
        if session.get(Stack, stack_id) is None:
            raise NotFound(f"Stack with id {stack_id} not found")
        for tree_stack_id in _stack_tree(session, stack_id):
            _reset_one(session, tree_stack_id)


def _stack_tree(session: Session, root_id: str) -> list[str]:
    """The root and all stacks below it, parents before children."""
    tree = [root_id]
    seen = {root_id}
    for parent_id in tree:
        children = session.scalars(sa.select(Stack.id).where(Stack.owner_id == parent_id))
        for child_id in children:
            if child_id not in seen:
                seen.add(child_id)
                tree.append(child_id)
    return tree


def _reset_one(session: Session, stack_id: str) -> None:
    session.execute(
        sa.update(Resource)
        .where(Resource.stack_id == stack_id, Resource.status == "IN_PROGRESS")
        .values(status="FAILED", status_reason=RESET_REASON, engine_id=None),
        execution_options={"synchronize_session": False},
    )
    resource_ids = sa.select(Resource.id).where(Resource.stack_id == stack_id)
    hook_data_ids = list(
        session.scalars(
            sa.select(ResourceData.id).where(
                ResourceData.resource_id.in_(resource_ids), ResourceData.key.in_(HOOK_TYPES)
            )
        )
    )
    if hook_data_ids:
        session.execute(
            sa.delete(ResourceData).where(ResourceData.id.in_(hook_data_ids)),
            execution_options={"synchronize_session": False},
        )
    session.execute(
        sa.update(Stack)
        .where(Stack.id == stack_id, Stack.status == "IN_PROGRESS")
        .values(status="FAILED", status_reason=RESET_REASON),
        execution_options={"synchronize_session": False},
    )
    session.execute(
        sa.delete(StackLock).where(StackLock.stack_id == stack_id),
        execution_options={"synchronize_session": False},
    )


def in_progress_root_stacks(database: Database) -> list[tuple[str, str]]:
    """The id and name of the live top-level stacks whose status is IN_PROGRESS, oldest first."""
    with database.transaction() as session:
        rows = session.execute(
            sa.select(Stack.id, Stack.name)
            .where(
                Stack.owner_id.is_(None),
                Stack.deleted_at.is_(None),
                Stack.status == "IN_PROGRESS",
            )
            .order_by(Stack.created_at)
        )
        return [(stack_id, name) for stack_id, name in rows]
