"""Stack snapshots: stack_snapshot, show_snapshot, stack_list_snapshots, delete_snapshot,
stack_restore.

As Heat 27 does for convergence stacks: a snapshot is a SNAPSHOT traversal whose id is
the new snapshot row's id (each resource snapshots itself in its step and stores its
``resource_snapshot`` row; the traversal's end marks the snapshot COMPLETE or FAILED); a
delete sends one ``check_resource_delete_snapshot`` step per resource snapshot, which
meet at the snapshot's own sync point; a restore is an update to the template the
snapshot kept (action RESTORE), so it rolls back as an update does. The calls return
once the first steps are sent: no worker slot waits for a snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common import exception
from keel_app.engine.convergence import converge, snapshot_steps, stack_snapshots
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.environment import Environment
from keel_app.engine.resource import Resource
from keel_app.engine.service.stacks import convergence_view, get_stack_row, load_stack
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack import Stack
from keel_app.engine.template import Template
from keel_app.models.base import utcnow
from keel_app.models.database import Database


def _shown(database: Database, row: Any) -> dict[str, Any]:
    return stack_snapshots.format_snapshot(row, stack_snapshots.data_with_resources(database, row))


def stack_snapshot(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    name: str | None,
) -> dict[str, Any]:
    """Store a new snapshot IN_PROGRESS and start its SNAPSHOT traversal."""
    stack = load_stack(context, settings, database, stack_identity)
    if stack.status == stack.IN_PROGRESS:
        raise exception.ActionInProgress(stack_name=stack.name, action=stack.action)
    limit = settings.max_snapshots_per_stack
    if not context.is_admin and limit >= 0:
        if stack_snapshots.count_for_stack(database, context, stack.id) >= limit:
            raise exception.RequestLimitExceeded(
                message=(
                    f"You have reached the maximum snapshots per stack, {limit}. "
                    "Please delete some snapshots."
                )
            )
    row = stack_snapshots.create(
        database,
        {
            "tenant": context.project_id,
            "data": stack.prepare_abandon(no_resources=True),
            "name": name,
            "stack_id": stack.id,
            "action": stack_snapshots.CREATE,
            "status": stack_snapshots.IN_PROGRESS,
        },
    )
    answer = stack_snapshots.format_snapshot(row, row.data)
    view = convergence_view(stack)
    converge.converge_stack(
        view,
        view.t,
        dispatcher,
        action=stack.SNAPSHOT,
        new_traversal_id=row.id,
    )
    return answer


def show_snapshot(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    snapshot_id: str,
) -> dict[str, Any]:
    stack_row = get_stack_row(context, database, stack_identity)
    row = stack_snapshots.get_by_stack(database, context, snapshot_id, stack_row)
    return _shown(database, row)


def stack_list_snapshots(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> list[dict[str, Any]]:
    stack_row = get_stack_row(context, database, stack_identity)
    return [
        _shown(database, row)
        for row in stack_snapshots.list_for_stack(database, context, stack_row.id)
    ]


def delete_snapshot(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    snapshot_id: str,
) -> None:
    """Mark the snapshot DELETE_IN_PROGRESS and send its resources' delete steps."""
    stack_row = get_stack_row(context, database, stack_identity)
    row = stack_snapshots.get_by_stack(database, context, snapshot_id, stack_row)
    if row.action in (None, stack_snapshots.CREATE) and row.status == stack_snapshots.IN_PROGRESS:
        raise exception.NotSupported(feature="Deleting in-progress snapshot")
    stack_snapshots.update(
        database,
        snapshot_id,
        {
            "action": stack_snapshots.DELETE,
            "status": stack_snapshots.IN_PROGRESS,
            "status_reason": "Snapshot delete started",
        },
    )
    try:
        snapshot_steps.start_delete(
            Worker(database, settings, dispatcher), context, snapshot_id, stack_row.id, utcnow()
        )
    except exception.NotFound:
        # Deleted meanwhile: nothing is left to do.
        return


def stack_restore(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    snapshot_id: str,
) -> None:
    """Converge the stack on the snapshot's template (a RESTORE traversal)."""
    stack = load_stack(context, settings, database, stack_identity)
    row = stack_snapshots.get_by_stack(database, context, snapshot_id, stack)
    if row.status != stack_snapshots.COMPLETE:
        raise exception.NotSupported(feature="Restoring incomplete snapshot")
    data = stack_snapshots.data_with_resources(database, row)
    new_stack, template = restore_data(stack, data)
    view = convergence_view(stack)
    converge.converge_stack(view, template, dispatcher, action=stack.RESTORE, new_stack=new_stack)


def restore_data(stack: Stack, data: Mapping[str, Any]) -> tuple[Stack, Template]:
    """The stack a restore converges on, and its template: the snapshot's, each resource
    definition passed through its type's ``handle_restore`` with its resource snapshot."""
    template = Template(
        data["template"],
        env=Environment(data["environment"]),
        files=data["files"],
        limits=stack.settings.template_limits,
    )
    new_stack = Stack(
        stack.context,
        stack.name,
        template,
        database=stack.database,
        settings=stack.settings,
        timeout_mins=stack.timeout_mins,
        disable_rollback=stack.disable_rollback,
    )
    resources_data = data.get("resources") or {}
    for name in new_stack.defn.enabled_rsrc_names():
        definition = new_stack.defn.resource_definition(name)
        resource = Resource(name, definition, stack)
        handle_restore = getattr(resource, "handle_restore", None)
        if callable(handle_restore):
            definition = handle_restore(definition, resources_data.get(name))
        template.add_resource(definition, name)
    return new_stack, template
