"""resource_mark_unhealthy and find_physical_resource: a resource by name or physical id.

Marking unhealthy is Heat's: under the resource's own lock (a convergence stack's), the
resource becomes CHECK_FAILED with the reason given (unless it is being deleted), and
marking it healthy again turns CHECK_FAILED into CHECK_COMPLETE; either is an event. A
resource locked by a step running on it refuses with ``ActionInProgress``. The next
update of the stack then replaces (or updates) a resource left CHECK_FAILED.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.common.identifier import ResourceIdentifier
from keel_app.engine.resource.lifecycle import LOCK_ACQUIRE, LOCK_RELEASE
from keel_app.engine.resource.siblings import resource_by_refid
from keel_app.engine.service.stacks import load_stack
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack import Stack
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow
from keel_app.models.database import Database

DEFAULT_REASON = "state changed by resource_mark_unhealthy api"


def resource_mark_unhealthy(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    resource_name: str,
    mark_unhealthy: Any,
    resource_status_reason: str | None = None,
) -> None:
    if not isinstance(mark_unhealthy, bool):
        raise exception.Invalid(reason="mark_unhealthy is not a boolean")
    stack = load_stack(context, settings, database, stack_identity)
    resource = _find_resource_in_stack(context, database, resource_name, stack)
    reason = resource_status_reason or DEFAULT_REASON
    resource._calling_engine_id = settings.engine_id
    try:
        resource._store_with_lock({}, LOCK_ACQUIRE)
    except exception.UpdateInProgress:
        raise exception.ActionInProgress(stack_name=stack.name, action=stack.action) from None
    try:
        if mark_unhealthy:
            if resource.action != resource.DELETE:
                resource.state_set(resource.CHECK, resource.FAILED, reason)
        elif resource.state == (resource.CHECK, resource.FAILED):
            reset = getattr(resource, "handle_metadata_reset", None)
            if callable(reset):
                reset()
            resource.state_set(resource.CHECK, resource.COMPLETE, reason)
    finally:
        resource._store_with_lock({}, LOCK_RELEASE)


def _rows_by_physical_id(
    context: Any, database: Database, physical_resource_id: str
) -> list[ResourceRow]:
    """The resource rows with that physical id in stacks the context may see."""
    statement = (
        sa.select(ResourceRow, StackRow.tenant, StackRow.stack_user_project_id)
        .join(StackRow, ResourceRow.stack_id == StackRow.id)
        .where(ResourceRow.physical_resource_id == physical_resource_id)
        .order_by(ResourceRow.id)
    )
    with database.transaction() as session:
        found = session.execute(statement).all()
    return [
        row
        for row, tenant, user_project in found
        if context is None or context.is_admin or context.project_id in (tenant, user_project)
    ]


def _find_resource_in_stack(context: Any, database: Database, name: str, stack: Stack) -> Any:
    """A resource of ``stack`` by name, else by physical id, else by reference."""
    resources = stack.resources
    if name in resources:
        return resources[name]
    matches = [
        resources[row.name]
        for row in _rows_by_physical_id(context, database, name)
        if row.stack_id == stack.id and row.name in resources and resources[row.name].id == row.id
    ]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise exception.PhysicalResourceIDAmbiguity(phys_id=name)
    match = resource_by_refid(stack, name)
    if match is not None:
        return resources[match.name]
    raise exception.ResourceNotFound(resource_name=name, stack_name=stack.name)


def find_physical_resource(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    physical_resource_id: str,
) -> dict[str, str]:
    """The identifier of the resource with that physical id (the CFN API's lookup)."""
    rows = _rows_by_physical_id(context, database, physical_resource_id)
    if not rows:
        raise exception.EntityNotFound(entity="Resource", name=physical_resource_id)
    # Only the stack matters to the caller: duplicates within one stack are fine.
    if len({row.stack_id for row in rows}) > 1:
        raise exception.PhysicalResourceIDAmbiguity(phys_id=physical_resource_id)
    row = rows[0]
    stack = Stack.load(context, database, settings, stack_id=row.stack_id)
    return dict(ResourceIdentifier(resource_name=row.name, **stack.identifier()))
