"""Stack rows: creation under Heat's name rule, scoped reads, traversal CAS, soft delete."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy import orm
from sqlalchemy.orm import Session

from keel_app.common import exception
from keel_app.models.api.packed_row import PackedSelect
from keel_app.models.api.scope import Scope
from keel_app.models.api.status_reason import truncate_status_reason
from keel_app.models.base import utcnow
from keel_app.models.database import Database, retry_on_db_error
from keel_app.models.resource import Resource, ResourcePropertiesData
from keel_app.models.stack import Stack

LOG = logging.getLogger(__name__)


def _in_project(project_id: str | None) -> sa.ColumnElement[bool]:
    # Users of the stack-user domain see the stacks whose domain project they act in.
    return sa.or_(Stack.tenant == project_id, Stack.stack_user_project_id == project_id)


def _visible_stack(
    session: Session,
    scope: Scope,
    stack_id: str,
    show_deleted: bool = False,
    options: Any = (),
) -> Stack | None:
    stack = session.get(Stack, stack_id, options=options)
    if stack is None or (stack.deleted_at is not None and not show_deleted):
        return None
    if not _in_scope(scope, stack):
        return None
    return stack


def _in_scope(scope: Scope, stack: Any) -> bool:
    return scope.is_admin or scope.project_id in (stack.tenant, stack.stack_user_project_id)


@retry_on_db_error
def create_stack(database: Database, values: Mapping[str, Any]) -> Stack:
    """Insert a stack; raise StackExists if its project already has a live one of that name.

    Names are not unique in the schema: like Heat, the row is inserted and then the other
    live stacks of that name in the project (``tenant``) are looked up, and the insert is
    undone when there is one. Heat keeps whichever row has the earliest ``created_at``;
    here any earlier committed row wins, because timestamps taken by different clients
    (and MySQL's whole-second DATETIME) need not follow the commit order. The transaction
    is serialisable, so of two concurrent creates of one name exactly one survives: the
    other sees it, or is rolled back by the server and retried until it does.
    """
    with database.transaction() as session:
        if database.url.get_backend_name() != "sqlite":
            # SQLite transactions already run one at a time (BEGIN IMMEDIATE).
            session.connection(execution_options={"isolation_level": "SERIALIZABLE"})
        stack = Stack(tags=[], **values)
        session.add(stack)
        session.flush()
        rival = session.scalars(
            sa.select(Stack.id)
            .where(
                Stack.name == stack.name,
                Stack.id != stack.id,
                Stack.deleted_at.is_(None),
                _in_project(stack.tenant),
            )
            .limit(1)
        ).first()
        if rival is not None:
            # Leaving the transaction with the error rolls our row back.
            raise exception.StackExists(stack_name=stack.name)
    return stack


def get_stack(
    database: Database,
    scope: Scope,
    stack_id: str,
    show_deleted: bool = False,
    for_step: bool = False,
) -> Stack | None:
    """The stack, or None when it does not exist, is deleted, or belongs to another project.

    ``for_step`` leaves ``current_deps`` and the tags unread: a convergence step has no use
    for the tags, and the graph of a large stack is bigger than the rest of the row and is
    cached by the steps that need it.
    """
    options = [orm.defer(Stack.current_deps), orm.lazyload(Stack.tags)] if for_step else []
    with database.transaction() as session:
        return _visible_stack(session, scope, stack_id, show_deleted, options)


def get_resource_and_stack(
    database: Database, scope: Scope, resource_id: int
) -> tuple[Any, Any | None]:
    """A step's two rows in one read: the resource and its stack (None when the stack is
    deleted or not in the scope's project), without ``current_deps``.

    They come as plain read-only records with the models' attribute names, not ORM
    objects: every step starts here, and loading two mapped objects cost a step more
    than any of its writes. NotFound when there is no such resource.
    """
    with database.transaction() as session:
        values = _STEP_READ.first(session.connection(), {"resource_id": resource_id})
    if values is None:
        raise exception.NotFound(f"resource with id {resource_id} not found")
    resource = StepRecord({name: values[label] for name, label in _RESOURCE_LABELS})
    stack = StepRecord({name: values[label] for name, label in _STACK_LABELS})
    if stack.id is None or stack.deleted_at is not None or not _in_scope(scope, stack):
        return resource, None
    return resource, stack


class StepRecord:
    """A row read for a step: its columns as attributes, by the models' names."""

    def __init__(self, values: Mapping[str, Any]):
        self.__dict__.update(values)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"{name} was not read for the step")


def _labelled(model: Any, prefix: str, leave_out: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    return [
        (attribute.key, f"{prefix}{attribute.key}")
        for attribute in sa.inspect(model).column_attrs
        if attribute.key not in leave_out
    ]


_RESOURCE_LABELS = _labelled(Resource, "resource_")
# The graph of a large stack is bigger than the rest of the row; steps cache it.
_STACK_LABELS = _labelled(Stack, "stack_", leave_out=("current_deps",))
_STEP_READ = PackedSelect(
    sa.select(
        *[
            sa.inspect(Resource).column_attrs[name].columns[0].label(label)
            for name, label in _RESOURCE_LABELS
        ],
        *[
            sa.inspect(Stack).column_attrs[name].columns[0].label(label)
            for name, label in _STACK_LABELS
        ],
    )
    .select_from(
        sa.outerjoin(
            Resource.__table__,
            Stack.__table__,
            Stack.__table__.c.id == Resource.__table__.c.stack_id,
        )
    )
    .where(Resource.__table__.c.id == sa.bindparam("resource_id"))
)


def get_current_deps(database: Database, stack_id: str) -> Any:
    """A stack's stored traversal graph document."""
    with database.transaction() as session:
        return session.scalar(sa.select(Stack.current_deps).where(Stack.id == stack_id))


@retry_on_db_error
def update_stack(
    database: Database,
    scope: Scope,
    stack_id: str,
    values: Mapping[str, Any],
    expected_traversal: str | None = None,
) -> bool:
    """Write ``values`` to a live stack; with ``expected_traversal``, only if still current.

    Returns False, leaving the row as it was, when another traversal took over (or a
    non-admin scope may not write the stack). Raises NotFound when there is no such live
    stack for this scope.
    """
    values = truncate_status_reason(database, values)
    with database.transaction() as session:
        statement = sa.update(Stack).where(Stack.id == stack_id, Stack.deleted_at.is_(None))
        if not scope.is_admin:
            statement = statement.where(_in_project(scope.project_id))
        if expected_traversal is not None:
            statement = statement.where(Stack.current_traversal == expected_traversal)
        result = session.execute(
            statement.values(values).execution_options(synchronize_session=False)
        )
        if result.rowcount:
            return True
        LOG.debug(
            "Did not set stack state with values %s, stack id: %s with expected traversal: %s",
            values,
            stack_id,
            expected_traversal,
        )
        if _visible_stack(session, scope, stack_id) is None:
            raise exception.NotFound(
                f"Attempt to update a stack with id: {stack_id} that does not exist"
            )
        return False


def delete_stack(database: Database, scope: Scope, stack_id: str) -> None:
    """Soft-delete a stack, hard-deleting whatever resource rows it still has.

    The resources' attribute data rows go with them (their ``resource_data`` rows go by
    the foreign key's cascade). Stored credentials are left alone: they are deleted on
    their own, by ``user_creds.delete_user_creds``.
    """
    with database.transaction() as session:
        stack = _visible_stack(session, scope, stack_id)
        if stack is None:
            raise exception.NotFound(
                f"Attempt to delete a stack with id: {stack_id} that does not exist"
            )
        attribute_data_ids = session.scalars(
            sa.select(Resource.attr_data_id).where(
                Resource.stack_id == stack_id, Resource.attr_data_id.is_not(None)
            )
        ).all()
        session.execute(
            sa.delete(Resource)
            .where(Resource.stack_id == stack_id)
            .execution_options(synchronize_session=False)
        )
        if attribute_data_ids:
            session.execute(
                sa.delete(ResourcePropertiesData)
                .where(ResourcePropertiesData.id.in_(attribute_data_ids))
                .execution_options(synchronize_session=False)
            )
        stack.deleted_at = utcnow()
