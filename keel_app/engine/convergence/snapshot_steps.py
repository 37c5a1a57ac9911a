"""Deleting a snapshot as steps: ``check_resource_delete_snapshot``, and a stack's delete.

Heat 27 deletes a convergence snapshot in two ways, both kept here with its message
names and arguments:

- ``delete_snapshot`` (the API call): the snapshot gets a sync point of its own on a new
  traversal id, and one ``check_resource_delete_snapshot`` is sent per resource snapshot;
  each step asks its resource (built from the snapshot's template, holding the resource
  snapshot's data) to delete what the snapshot made, and reports to the snapshot's sync
  point, whose last report removes the rows. A failure marks the snapshot DELETE_FAILED.
- a stack's DELETE: each snapshot is a node of the traversal (``node_type`` snapshot)
  beside the resources; its step deletes the resource snapshots and the rows, then
  reports to the stack's sync point.

A resource type's ``handle_delete_snapshot`` is called once and its
``check_delete_snapshot_complete`` asked once: no plugin that needs no cloud deletes
anything for a snapshot, so no step waits.
"""

from __future__ import annotations

import datetime
import logging
import uuid
from typing import Any

from keel_app.common import exception
from keel_app.engine.convergence import converge, stack_snapshots, sync_point
from keel_app.engine.convergence.runtime import ADMIN, ConvergenceStack
from keel_app.engine.convergence.traversal_graph import (
    NODE_TYPE_SNAPSHOT,
    ConvergenceNode,
    traversal_graph,
)
from keel_app.engine.environment import Environment
from keel_app.engine.resource import Resource
from keel_app.engine.template import Template
from keel_app.models.api import stacks, sync_points

LOG = logging.getLogger(__name__)

# Heat's ``str_duration_format``, the form of ``start_time`` in the message.
START_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%f"


def start_delete(
    worker: Any, context: Any, snapshot_id: str, stack_id: str, started: datetime.datetime
) -> None:
    """Begin deleting a snapshot (its row already DELETE_IN_PROGRESS)."""
    row = stack_snapshots.get(worker.database, context, snapshot_id)
    data = stack_snapshots.data_with_resources(worker.database, row)
    resources = list((data or {}).get("resources") or {})
    if not resources:
        _complete(worker, snapshot_id, stack_id, None)
        return
    traversal = str(uuid.uuid4())
    sync_point.create_all(worker.database, [(snapshot_id, True)], traversal, stack_id)
    for name in resources:
        worker.dispatcher.send_check_resource_delete_snapshot(
            context,
            snapshot_id=snapshot_id,
            resource_name=name,
            start_time=started.strftime(START_TIME_FORMAT),
            is_stack_delete=False,
            current_traversal=traversal,
        )


def check_resource_delete_snapshot(
    worker: Any,
    context: Any,
    snapshot_id: str,
    resource_name: str,
    start_time: str | None = None,
    is_stack_delete: bool = False,
    current_traversal: str | None = None,
) -> None:
    """One resource's part of deleting a snapshot, then its report to the snapshot."""
    try:
        row = stack_snapshots.get(worker.database, context, snapshot_id)
    except exception.NotFound:
        return
    data = stack_snapshots.data_with_resources(worker.database, row) or {}
    resource = _snapshot_resource(worker, context, row.stack_id, data, resource_name)
    if resource is None or current_traversal is None:
        return
    resource_snapshot = (data.get("resources") or {}).get(resource_name) or {}
    # The resource holds the data its snapshot kept, not the live resource's.
    resource._data = dict(resource_snapshot.get("resource_data") or {})
    try:
        _call_delete_snapshot(resource, {"resource_data": resource.data()})
    except exception.ResourceFailure as failure:
        action = failure.action or resource.action
        _failed(
            worker,
            snapshot_id,
            row.stack_id,
            current_traversal,
            f"Resource snapshot {action} failed: {failure}",
        )
        return
    except Exception as error:
        LOG.exception("Unexpected exception in resource check delete snapshot.")
        _failed(worker, snapshot_id, row.stack_id, current_traversal, str(error))
        raise
    roots = {(name, True) for name in data.get("resources") or {}}

    def complete(entity_id: Any, inputs: Any, failures: Any, skip: bool) -> None:
        if failures:
            reason = f"Snapshot {snapshot_id} DELETE failed: {failures}"
            _failed(worker, snapshot_id, row.stack_id, current_traversal, reason)
        else:
            _complete(worker, snapshot_id, row.stack_id, current_traversal)

    try:
        sync_point.sync(
            worker.database,
            snapshot_id,
            current_traversal,
            True,
            complete,
            roots,
            {(resource_name, True): None},
        )
    except exception.EntityNotFound:
        LOG.debug("Snapshot %s sync point gone: another resource failed first", snapshot_id)


def _snapshot_resource(
    worker: Any, context: Any, stack_id: str, data: dict[str, Any], name: str
) -> Any:
    """The resource ``name`` as the snapshot's template defines it, on the stored stack."""
    stack_row = stacks.get_stack(worker.database, ADMIN, stack_id, for_step=True)
    if stack_row is None or "template" not in data:
        return None
    template = Template(
        data["template"],
        env=Environment(data.get("environment") or {}),
        files=data.get("files") or {},
        limits=worker.settings.template_limits,
    )
    stack = ConvergenceStack(context, worker.database, worker.settings, stack_row, template)
    stack.dispatcher = worker.dispatcher
    if name not in stack.defn.enabled_rsrc_names():
        return None
    return Resource(name, stack.defn.resource_definition(name), stack)


def _call_delete_snapshot(resource: Any, data: Any) -> None:
    handler = getattr(resource, "handle_delete_snapshot", None)
    if not callable(handler):
        return
    token = handler(data)
    checker = getattr(resource, "check_delete_snapshot_complete", None)
    if callable(checker):
        checker(token)


def _complete(worker: Any, snapshot_id: str, stack_id: str, traversal: str | None) -> None:
    stack_snapshots.delete_with_resources(worker.database, snapshot_id)
    if traversal is not None:
        # Heat deletes by the snapshot's id and leaves this row behind (divergences.md).
        sync_point.delete_all(worker.database, stack_id, traversal)
    LOG.info("Snapshot %s for stack %s DELETE complete.", snapshot_id, stack_id)


def _failed(worker: Any, snapshot_id: str, stack_id: str, traversal: str, reason: str) -> None:
    LOG.info("Snapshot %s for stack %s DELETE failed: %s", snapshot_id, stack_id, reason)
    try:
        stack_snapshots.update(
            worker.database,
            snapshot_id,
            {
                "status": stack_snapshots.FAILED,
                "action": stack_snapshots.DELETE,
                "status_reason": reason,
            },
        )
    except exception.NotFound:
        LOG.debug("Snapshot %s already gone", snapshot_id)
    sync_point.delete_all(worker.database, stack_id, traversal)


# A snapshot node of a stack's DELETE traversal


def delete_snapshot_node(
    worker: Any, context: Any, snapshot_id: str, current_traversal: str
) -> None:
    """Delete a snapshot as part of deleting its stack, then report to the stack."""
    stack_id = _traversal_stack_id(worker, snapshot_id, current_traversal)
    if stack_id is None:
        return
    stack = ConvergenceStack.load(context, worker.database, worker.settings, stack_id)
    if stack is None or stack.current_traversal != current_traversal:
        LOG.debug("[%s] Traversal cancelled for snapshot deletion.", current_traversal)
        return
    stack.dispatcher = worker.dispatcher
    stack.clock = worker.dispatcher.now
    try:
        row = stack_snapshots.get(worker.database, None, snapshot_id)
    except exception.NotFound:
        # Gone already (Heat's engine then never completes the stack: divergences.md).
        row = None
    if row is not None:
        try:
            _delete_resource_snapshots(stack, row)
            stack_snapshots.delete_with_resources(worker.database, snapshot_id)
        except Exception as error:
            LOG.error("Failed to delete snapshot %s: %s", snapshot_id, error)
            converge.mark_failed(stack, f"Snapshot deletion failed: {error}", worker.dispatcher)
            return
    node = ConvergenceNode(snapshot_id, False, NODE_TYPE_SNAPSHOT)
    roots = frozenset(_roots(stack))
    worker.report_to_stack(stack, current_traversal, node, roots)


def _traversal_stack_id(worker: Any, snapshot_id: str, traversal: str) -> str | None:
    """The stack of a snapshot node, as its sync point records it."""
    found = sync_points.get_sync_point(worker.database, snapshot_id, traversal, False)
    return None if found is None else str(found.stack_id)


def _roots(stack: ConvergenceStack) -> Any:
    return traversal_graph(stack.id, stack.current_traversal, lambda: stack.current_deps).roots


def _delete_resource_snapshots(stack: ConvergenceStack, row: Any) -> None:
    """Each resource's part of the snapshot; a failure is logged, as in Heat."""
    data = stack_snapshots.data_with_resources(stack.database, row) or {}
    for name, resource_data in (data.get("resources") or {}).items():
        if name not in stack or not resource_data:
            continue
        try:
            _call_delete_snapshot(stack[name], resource_data)
        except Exception as error:
            LOG.warning("Failed to delete snapshot for resource %s: %s", name, error)
