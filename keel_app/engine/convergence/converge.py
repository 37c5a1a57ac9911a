"""Starting and ending traversals: Heat's ``converge_stack``, ``mark_complete``/``mark_failed``,
rollback and ``purge_db``.

A traversal starts by writing a new ``current_traversal`` (CAS on the previous one), so
every step of an older traversal finds itself stale and stops. The graph is stored as
``current_deps``, every node gets its sync point (and the stack one, keyed by the stack
id), and each leaf is sent its ``check_resource``.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine.convergence import sync_point
from keel_app.engine.convergence.runtime import (
    ADMIN,
    ConvergenceStack,
    load_template,
    store_template,
)
from keel_app.engine.convergence.traversal_graph import (
    NODE_TYPE_SNAPSHOT,
    compute_dependencies,
    edges_document,
)
from keel_app.engine.dispatch import Dispatcher
from keel_app.engine.template.base import Template
from keel_app.models.api import stacks
from keel_app.models.api.resources import create_resource
from keel_app.models.base import utcnow
from keel_app.models.resource import Resource as ResourceRow
from keel_app.models.resource import ResourcePropertiesData
from keel_app.models.stack import Stack as StackRow
from keel_app.models.template import RawTemplate

LOG = logging.getLogger(__name__)

ROLLBACK_ACTIONS = ("CREATE", "ADOPT", "UPDATE", "RESTORE")


def converge_stack(
    stack: ConvergenceStack,
    template: Template,
    dispatcher: Dispatcher,
    action: str = "UPDATE",
    new_traversal_id: str | None = None,
) -> bool:
    """Move ``stack`` towards ``template``; False when another traversal took over first.

    ``template`` is stored here when it has no id yet (a new version, or the empty
    template of a delete or of a rollback to nothing).
    """
    values: dict[str, Any] = {}
    if action not in (stack.CREATE, stack.ADOPT):
        # The template being replaced is what a rollback goes back to.
        stack.prev_raw_template_id = stack.raw_template_id
        values["prev_raw_template_id"] = stack.prev_raw_template_id
    if template.id is None:
        store_template(stack.database, template, stack.settings)
    stack.defn = stack.defn.clone_with_new_template(
        template, stack.identifier(), clear_resource_data=True
    )
    stack._resources = None
    stack.raw_template_id = template.id
    if action != stack.CREATE:
        stack.updated_time = utcnow()
        values["updated_at"] = stack.updated_time
    reason = f"Stack {action} started"
    previous_traversal = stack.current_traversal
    traversal = new_traversal_id or str(uuid.uuid4())
    values.update(
        action=action,
        status=stack.IN_PROGRESS,
        status_reason=reason,
        current_traversal=traversal,
        raw_template_id=template.id,
    )
    if not stack.store(values, previous_traversal):
        LOG.warning(
            "Failed to store stack %s with traversal ID %s, aborting stack %s",
            stack.name,
            previous_traversal,
            action,
        )
        return False
    stack.action, stack.status, stack.status_reason = action, stack.IN_PROGRESS, reason
    stack.current_traversal = traversal
    stack.add_event(action, stack.IN_PROGRESS, reason)
    if previous_traversal:
        sync_point.delete_all(stack.database, stack.id, previous_traversal)
    _start_traversal(stack, dispatcher)
    return True


def _best_existing_row(
    stack: ConvergenceStack, rows: dict[int, ResourceRow], name: str
) -> ResourceRow | None:
    """Which stored row of that name the new template's resource should continue."""

    def suitability(row: ResourceRow) -> tuple[int, Any]:
        score = 0
        if row.status == "FAILED":
            score -= 30
        if row.action == "DELETE":
            score -= 50
        if row.replaced_by:
            score -= 1
        if row.current_template_id == stack.prev_raw_template_id:
            score += 5
        if row.current_template_id == stack.t.id:
            score += 10
        return score, row.updated_at or row.created_at

    candidates = sorted(
        (row for row in rows.values() if row.name == name), key=suitability, reverse=True
    )
    return candidates[0] if candidates else None


def _start_traversal(stack: ConvergenceStack, dispatcher: Dispatcher) -> None:
    existing = stack.resource_rows()
    template_graph = stack.dependencies()
    current_ids: dict[str, int] = {}
    for name in reversed(list(template_graph)):
        row = _best_existing_row(stack, existing, name)
        if row is None:
            row = create_resource(
                stack.database,
                {
                    "action": "INIT",
                    "status": "COMPLETE",
                    "status_reason": "",
                    "stack_id": stack.id,
                    "name": name,
                    "needed_by": [],
                    "requires": [],
                    "current_template_id": stack.t.id,
                    "root_stack_id": stack.root_stack_id(),
                    "properties_data": None,
                },
            )
        current_ids[name] = row.id
    graph = compute_dependencies(template_graph, current_ids, existing)
    stack.current_deps = edges_document(graph)
    if not stack.store({"current_deps": stack.current_deps}, stack.current_traversal):
        LOG.warning("Traversal %s superseded before it started", stack.current_traversal)
        return
    LOG.debug("Starting traversal %s with dependencies: %s", stack.current_traversal, graph)
    for node in graph:
        sync_point.create(
            stack.database, node.rsrc_id, stack.current_traversal, node.is_update, stack.id
        )
    sync_point.create(stack.database, stack.id, stack.current_traversal, True, stack.id)
    leaves = set(graph.leaves())
    if not leaves:
        mark_complete(stack)
        return
    for node in sorted(leaves, key=lambda node: (node.is_update, str(node.rsrc_id))):
        if node.node_type == NODE_TYPE_SNAPSHOT:
            continue
        dispatcher.send_check_resource(
            stack.context,
            resource_id=node.rsrc_id,
            current_traversal=stack.current_traversal,
            data=sync_point.serialize_input_data({}),
            is_update=node.is_update,
            adopt_stack_data=stack.adopt_stack_data,
            converge=stack.converge,
            node_type=node.node_type,
        )


def mark_complete(stack: ConvergenceStack) -> None:
    LOG.info("[%s(%s)] update traversal %s complete", stack.name, stack.id, stack.current_traversal)
    if stack.state_set(
        stack.action, stack.COMPLETE, f"Stack {stack.action} completed successfully"
    ):
        purge_db(stack)


def mark_failed(stack: ConvergenceStack, reason: str, dispatcher: Dispatcher) -> bool:
    """FAILED, then a rollback unless disabled; False when the traversal was not current."""
    if not stack.state_set(stack.action, stack.FAILED, reason):
        return False
    if not stack.disable_rollback and stack.action in ROLLBACK_ACTIONS:
        LOG.info("Triggering rollback of %s %s", stack.name, stack.action)
        rollback(stack, dispatcher)
    else:
        purge_db(stack)
    return True


def rollback(stack: ConvergenceStack, dispatcher: Dispatcher) -> None:
    previous_id = stack.prev_raw_template_id
    if previous_id is None:
        template = Template.create_empty_template(version=stack.t.version)
    else:
        template = load_template(stack.database, previous_id, stack.settings)
        stack.prev_raw_template_id = None
        if not stack.store({"prev_raw_template_id": None}, stack.current_traversal):
            LOG.warning("Failed to store stack %s, not triggering rollback.", stack.name)
            return
    converge_stack(stack, template, dispatcher, action=stack.ROLLBACK)


def purge_deleted_resources(stack: ConvergenceStack) -> None:
    """Remove the rows of deleted resources, and their templates nobody uses any more."""
    with stack.database.transaction() as session:
        rows = session.scalars(
            sa.select(ResourceRow).where(
                ResourceRow.stack_id == stack.id,
                ResourceRow.action == "DELETE",
                ResourceRow.status == "COMPLETE",
            )
        ).all()
        attribute_ids = [row.attr_data_id for row in rows if row.attr_data_id is not None]
        template_ids = {row.current_template_id for row in rows if row.current_template_id}
        for row in rows:
            session.delete(row)
        session.flush()
        if attribute_ids:
            session.execute(
                sa.delete(ResourcePropertiesData).where(
                    ResourcePropertiesData.id.in_(attribute_ids)
                )
            )
        if template_ids:
            referenced = set(
                session.scalars(
                    sa.union(
                        sa.select(StackRow.raw_template_id).where(
                            StackRow.raw_template_id.in_(template_ids)
                        ),
                        sa.select(StackRow.prev_raw_template_id).where(
                            StackRow.prev_raw_template_id.in_(template_ids)
                        ),
                        sa.select(ResourceRow.current_template_id).where(
                            ResourceRow.current_template_id.in_(template_ids)
                        ),
                    )
                ).all()
            )
            unused = template_ids - referenced
            if unused:
                session.execute(sa.delete(RawTemplate).where(RawTemplate.id.in_(unused)))


def purge_db(stack: ConvergenceStack) -> None:
    """Clean up after a traversal ended: deleted rows, the old template, the sync points.

    A failed traversal also clears ``current_traversal`` so that its remaining steps stop.
    A completed delete soft-deletes the stack itself.
    """
    purge_deleted_resources(stack)
    expected = stack.current_traversal
    values: dict[str, Any] = {}
    if stack.status == stack.FAILED:
        stack.current_traversal = ""
        values["current_traversal"] = ""
    previous_template_id = None
    if stack.prev_raw_template_id is not None and stack.status != stack.FAILED:
        previous_template_id = stack.prev_raw_template_id
        stack.prev_raw_template_id = None
        values["prev_raw_template_id"] = None
    if values and not stack.store(values, expected):
        LOG.warning("Failed to store stack %s, aborting stack purge", stack.name)
        return
    if previous_template_id is not None:
        _delete_template_if_unused(stack, previous_template_id)
    assert expected is not None
    sync_point.delete_all(stack.database, stack.id, expected)
    if (stack.action, stack.status) == (stack.DELETE, stack.COMPLETE):
        try:
            stacks.delete_stack(stack.database, ADMIN, stack.id)
        except exception.NotFound:
            LOG.debug("Stack %s already gone", stack.id)


def _delete_template_if_unused(stack: ConvergenceStack, template_id: int) -> None:
    with stack.database.transaction() as session:
        used = session.scalars(
            sa.select(ResourceRow.id).where(ResourceRow.current_template_id == template_id)
        ).first()
        if used is None:
            session.execute(sa.delete(RawTemplate).where(RawTemplate.id == template_id))
