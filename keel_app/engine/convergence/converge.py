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
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from keel_app.clients import keystone_credentials
from keel_app.common import exception
from keel_app.engine.convergence import stack_snapshots, sync_point
from keel_app.engine.convergence.runtime import (
    ADMIN,
    ConvergenceStack,
    forget_template,
    load_template,
    store_template,
)
from keel_app.engine.convergence.traversal_graph import (
    NODE_TYPE_SNAPSHOT,
    ConvergenceNode,
    compute_dependencies,
    edges_document,
    forget_traversal_graphs,
)
from keel_app.engine.dispatch import Dispatcher
from keel_app.engine.resource.operations import STACK_OPERATIONS
from keel_app.engine.template.base import Template
from keel_app.models.api import stacks
from keel_app.models.api.resources import create_resources, engines_holding_locks
from keel_app.models.base import utcnow
from keel_app.models.resource import Resource as ResourceRow
from keel_app.models.resource import ResourcePropertiesData
from keel_app.models.stack import Stack as StackRow
from keel_app.models.stack import StackTag
from keel_app.models.template import RawTemplate

LOG = logging.getLogger(__name__)

ROLLBACK_ACTIONS = ("CREATE", "ADOPT", "UPDATE", "RESTORE")
# Resource rows deleted by one statement when a traversal's deleted rows are purged.
PURGE_BATCH = 1000


def converge_stack(
    stack: ConvergenceStack,
    template: Template,
    dispatcher: Dispatcher,
    action: str = "UPDATE",
    new_traversal_id: str | None = None,
    new_stack: Any = None,
    pre_converge: Callable[[], Any] | None = None,
    abandon: bool = False,
) -> bool:
    """Move ``stack`` towards ``template``; False when another traversal took over first.

    ``template`` is stored here when it has no id yet (a new version, or the empty
    template of a delete or of a rollback to nothing). An update hands the stack it
    built as ``new_stack``: its rollback, timeout, converge and tags settings become the
    stored stack's. ``pre_converge`` runs once the new graph is stored, before any step
    is sent; ``abandon`` makes every cleanup leave its resource alive.
    """
    values: dict[str, Any] = {}
    tags = None
    if new_stack is not None:
        stack.disable_rollback = new_stack.disable_rollback
        stack.timeout_mins = new_stack.timeout_mins
        stack.converge = new_stack.converge
        values.update(disable_rollback=stack.disable_rollback, timeout=stack.timeout_mins)
        tags = list(new_stack.tags or [])
    if action in STACK_OPERATIONS:
        # The resources act as they are: the template and the way back stay.
        assert new_stack is None
    else:
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
        raw_template_id=stack.raw_template_id,
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
    if tags is not None:
        _store_tags(stack, tags)
    stack.add_event(action, stack.IN_PROGRESS, reason)
    if previous_traversal:
        sync_point.delete_all(stack.database, stack.id, previous_traversal)
    _start_traversal(stack, dispatcher, pre_converge, abandon)
    return True


def _store_tags(stack: ConvergenceStack, tags: list[str]) -> None:
    """The stack's tags become ``tags`` (none at all for an empty list)."""
    with stack.database.transaction() as session:
        session.execute(sa.delete(StackTag).where(StackTag.stack_id == stack.id))
        session.add_all(StackTag(tag=tag, stack_id=stack.id) for tag in tags)


def _best_existing_row(
    stack: ConvergenceStack, candidates: list[sa.Row[Any]]
) -> sa.Row[Any] | None:
    """Which stored row of a name (``candidates``) the new template's resource continues."""

    def suitability(row: sa.Row[Any]) -> tuple[int, Any]:
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

    ranked = sorted(candidates, key=suitability, reverse=True)
    return ranked[0] if ranked else None


def _start_traversal(
    stack: ConvergenceStack,
    dispatcher: Dispatcher,
    pre_converge: Callable[[], Any] | None = None,
    abandon: bool = False,
) -> None:
    existing = stack.resource_rows()
    # Rows by name, gathered once: looking each name up among all rows would make
    # starting an update quadratic in the stack's size.
    rows_named: dict[str, list[sa.Row[Any]]] = {}
    for existing_row in existing.values():
        rows_named.setdefault(existing_row.name, []).append(existing_row)
    template_graph = stack.dependencies()
    # The graph names the resources: their objects (megabytes for a large stack) go.
    stack.release_resources()
    current_ids: dict[str, int] = {}
    new_names = []
    for name in reversed(list(template_graph)):
        row = _best_existing_row(stack, rows_named.get(name, []))
        if row is None:
            new_names.append(name)
        else:
            current_ids[name] = row.id
    root_stack_id = stack.root_stack_id()
    new_ids = create_resources(
        stack.database,
        [
            {
                "action": "INIT",
                "status": "COMPLETE",
                "status_reason": "",
                "stack_id": stack.id,
                "name": name,
                "needed_by": [],
                "requires": [],
                "current_template_id": stack.t.id,
                "root_stack_id": root_stack_id,
                "properties_data": None,
            }
            for name in new_names
        ],
    )
    current_ids.update(new_ids)
    graph = compute_dependencies(template_graph, current_ids, existing)
    # A large stack's rows are let go before its sync points are made: the two need not
    # be in memory at once.
    del existing, rows_named
    if stack.action == stack.DELETE:
        # Each snapshot of the stack is deleted beside the resources, on its own.
        for snapshot_id in stack_snapshots.snapshot_ids(stack.database, stack.id):
            graph += ConvergenceNode(snapshot_id, False, NODE_TYPE_SNAPSHOT), None
    stack.current_deps = edges_document(graph)
    if not stack.store({"current_deps": stack.current_deps}, stack.current_traversal):
        LOG.warning("Traversal %s superseded before it started", stack.current_traversal)
        return
    if pre_converge is not None:
        pre_converge()
    LOG.debug("Starting traversal %s with dependencies: %s", stack.current_traversal, graph)
    nodes = [(node.rsrc_id, node.is_update) for node in graph]
    nodes.append((stack.id, True))
    sync_point.create_all(stack.database, nodes, stack.current_traversal, stack.id)
    leaves = set(graph.leaves())
    if not leaves:
        mark_complete(stack)
        return
    dispatcher.send_check_resources(
        stack.context,
        [
            {
                "resource_id": node.rsrc_id,
                "current_traversal": stack.current_traversal,
                "data": sync_point.serialize_input_data({}),
                "is_update": node.is_update,
                "adopt_stack_data": stack.adopt_stack_data,
                "converge": stack.converge,
                "node_type": node.node_type,
                "abandon": abandon,
            }
            for node in sorted(leaves, key=lambda node: (node.is_update, str(node.rsrc_id)))
        ],
    )


def _post_reason(stack: ConvergenceStack, reason: str) -> str:
    """A CHECK's reason says when some resource (at any depth) has no check of its own."""
    if stack.action == stack.CHECK and not stack.supports_check_action():
        return f"{reason}. 'CHECK' not fully supported (see resources)"
    return reason


def mark_complete(stack: ConvergenceStack) -> None:
    # The stack's end reaches Keystone and notifies: it must never be rolled back and
    # redone with the step that reached it.
    stack.database.checkpoint()
    LOG.info("[%s(%s)] update traversal %s complete", stack.name, stack.id, stack.current_traversal)
    reason = _post_reason(stack, f"Stack {stack.action} completed successfully")
    if not stack.state_set(stack.action, stack.COMPLETE, reason):
        return
    if stack.action == stack.SNAPSHOT:
        stack_snapshots.record_outcome(stack, reason, stack_snapshots.COMPLETE)
    purge_db(stack)


def mark_failed(stack: ConvergenceStack, reason: str, dispatcher: Dispatcher) -> bool:
    """FAILED, then a rollback unless disabled; False when the traversal was not current."""
    stack.database.checkpoint()
    reason = _post_reason(stack, reason)
    if not stack.state_set(stack.action, stack.FAILED, reason):
        return False
    if not stack.disable_rollback and stack.action in ROLLBACK_ACTIONS:
        LOG.info("Triggering rollback of %s %s", stack.name, stack.action)
        rollback(stack, dispatcher)
    else:
        if stack.action == stack.SNAPSHOT:
            stack_snapshots.record_outcome(stack, reason, stack_snapshots.FAILED)
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


def stop_traversal(stack: ConvergenceStack) -> None:
    """Cancel the running traversal: a new traversal id that no step is part of, and the
    stack FAILED; the steps holding a resource finish their own work, then find themselves
    stale. Every descendant stack still in progress is stopped the same way."""
    _stop_one_traversal(stack)
    for child_id in _descendant_ids_in_progress(stack):
        child = ConvergenceStack.load(stack.context, stack.database, stack.settings, child_id)
        if child is not None:
            _stop_one_traversal(child)


def _stop_one_traversal(stack: ConvergenceStack) -> None:
    previous_traversal = stack.current_traversal
    traversal = str(uuid.uuid4())
    if not stack.store({"current_traversal": traversal}, previous_traversal):
        LOG.warning(
            "Failed to update stack %s with new traversal, aborting stack cancel", stack.name
        )
        return
    stack.current_traversal = traversal
    if not stack.state_set(stack.action, stack.FAILED, f"Stack {stack.action} cancelled"):
        LOG.warning("Failed to update stack %s status to %s_FAILED", stack.name, stack.action)
        return
    if previous_traversal:
        sync_point.delete_all(stack.database, stack.id, previous_traversal)


def _descendant_ids_in_progress(stack: ConvergenceStack) -> list[str]:
    """The live stacks below ``stack`` (children first, then theirs) still IN_PROGRESS."""
    found: list[str] = []
    owners = [stack.id]
    with stack.database.transaction() as session:
        while owners:
            rows = session.execute(
                sa.select(StackRow.id, StackRow.status).where(
                    StackRow.owner_id.in_(owners),
                    StackRow.deleted_at.is_(None),
                    StackRow.backup == sa.false(),
                )
            ).all()
            found.extend(row.id for row in rows if row.status == stack.IN_PROGRESS)
            owners = [row.id for row in rows]
    return found


def cancel_workers(stack: ConvergenceStack, dispatcher: Dispatcher) -> None:
    """Ask every engine holding a lock on one of the stack's resources to stop its steps
    (``cancel_check_resource``); the traversal goes on without waiting for them."""
    for engine_id in sorted(engines_holding_locks(stack.database, stack.id)):
        dispatcher.send_cancel_check_resource(stack.context, stack_id=stack.id, engine_id=engine_id)


def purge_deleted_resources(stack: ConvergenceStack) -> None:
    """Remove the rows of deleted resources, and their templates nobody uses any more."""
    deleted = (
        ResourceRow.stack_id == stack.id,
        ResourceRow.action == "DELETE",
        ResourceRow.status == "COMPLETE",
    )
    with stack.database.transaction() as session:
        rows = session.execute(
            sa.select(
                ResourceRow.id, ResourceRow.attr_data_id, ResourceRow.current_template_id
            ).where(*deleted)
        ).all()
        attribute_ids = [row.attr_data_id for row in rows if row.attr_data_id is not None]
        template_ids = {row.current_template_id for row in rows if row.current_template_id}
        # Set-based, a batch of ids at a time: row by row, deleting the resources of a
        # large stack took longer than the rest of its delete. Their resource_data rows
        # go by the foreign key's cascade.
        ids = [row.id for row in rows]
        for start in range(0, len(ids), PURGE_BATCH):
            session.execute(
                sa.delete(ResourceRow)
                .where(ResourceRow.id.in_(ids[start : start + PURGE_BATCH]))
                .execution_options(synchronize_session=False)
            )
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
    # No step of the traversal is to come: its graph (a large stack's is megabytes) goes.
    forget_traversal_graphs(stack.id)
    if (stack.action, stack.status) == (stack.DELETE, stack.COMPLETE):
        forget_template(stack.database, stack.t.id)
        if not stack.owner_id:
            # The trust and stored credentials end with the stack, as in Heat.
            keystone_credentials.delete_stored(
                stack.database,
                stack.settings.keystone,
                stack.context,
                stack.user_creds_id,
                stack.settings.auth_encryption_key,
            )
            stack.user_creds_id = None
            if not _delete_stack_domain_project(stack):
                return
        try:
            stacks.delete_stack(stack.database, ADMIN, stack.id)
        except exception.NotFound:
            LOG.debug("Stack %s already gone", stack.id)


def _delete_stack_domain_project(stack: ConvergenceStack) -> bool:
    """Delete the stack's project of stack users; False (the stack failed) when it stays."""
    clients = getattr(stack.context, "clients", None)
    if not stack.stack_user_project_id or clients is None:
        return True
    try:
        clients.client("keystone").delete_stack_domain_project(
            project_id=stack.stack_user_project_id
        )
    except Exception as error:
        LOG.exception("Error deleting project")
        stack.state_set(stack.DELETE, stack.FAILED, f"Error deleting project: {error}")
        return False
    return True


def _delete_template_if_unused(stack: ConvergenceStack, template_id: int) -> None:
    with stack.database.transaction() as session:
        used = session.scalars(
            sa.select(ResourceRow.id).where(ResourceRow.current_template_id == template_id)
        ).first()
        if used is None:
            session.execute(sa.delete(RawTemplate).where(RawTemplate.id == template_id))
    if used is None:
        forget_template(stack.database, template_id)
