"""Suspend, resume, check and snapshot of one resource, as steps that never block.

Heat 27 runs these actions of a convergence stack as traversals whose steps call
``suspend_convergence`` (and its siblings) on each resource: a TaskRunner that loops in
the worker's thread until ``check_<action>_complete`` says done. Here ``start`` makes
Heat's checks of the resource's state and calls the handler through the life cycle
(``start_action``: IN_PROGRESS under the resource lock); whoever drives the step then
polls ``check_<action>_complete`` by sending the step again, as for create and delete.
A snapshot that completes leaves its ``resource_snapshot`` row (``store_snapshot``).
"""

from __future__ import annotations

from typing import Any

from keel_app.common import exception
from keel_app.models.snapshot import ResourceSnapshot

SUSPEND, RESUME, CHECK, SNAPSHOT = "SUSPEND", "RESUME", "CHECK", "SNAPSHOT"
# The stack actions whose traversals act on resources without changing the template.
STACK_OPERATIONS = (SUSPEND, RESUME, CHECK, SNAPSHOT)
RESUMABLE_STATES = (("SUSPEND", "COMPLETE"), ("RESUME", "FAILED"), ("RESUME", "COMPLETE"))


def node_action(stack_action: str, is_update: bool) -> str | None:
    """What a node of such a traversal does to its resource: suspending runs on the
    cleanup nodes (dependents first), the others on the update nodes."""
    if stack_action == SUSPEND:
        return None if is_update else SUSPEND
    return stack_action if is_update else None


def supports_check(resource: Any) -> bool:
    return callable(getattr(resource, "handle_check", None))


def start(resource: Any, action: str, engine_id: str) -> tuple[bool, Any]:
    """Begin ``action`` on ``resource``: (True, the handler's token) when it is to be
    polled, (False, None) when there is nothing to wait for.

    A state the action may not start from raises ResourceFailure, the row unchanged.
    """
    state = (resource.action, resource.status)
    if action == SUSPEND:
        if resource.action == resource.DELETE or (
            resource.action != SUSPEND and resource.status != resource.COMPLETE
        ):
            raise _refused(resource, action, f"State {state} invalid for suspend")
    elif action == RESUME:
        if state not in RESUMABLE_STATES:
            raise _refused(resource, action, f"State {state} invalid for resume")
    elif action == CHECK:
        never_created = state == (resource.INIT, resource.COMPLETE)
        if not supports_check(resource):
            # Left INIT rather than claiming that something never made was checked.
            if not never_created:
                resource.state_set(
                    CHECK, resource.COMPLETE, f"CHECK not supported for {resource.type()}"
                )
            return False, None
        if never_created:
            resource.state_set(
                CHECK, resource.FAILED, f"Can not check {resource.name}, resource not created yet."
            )
            raise exception.ResourceFailure(
                Exception(f"Resource {resource.name} not created yet."), resource, CHECK
            )
    # The action works on the properties the resource was last made with.
    resource._use_stored_properties()
    return True, resource.start_action(action, engine_id)


def _refused(resource: Any, action: str, message: str) -> exception.ResourceFailure:
    return exception.ResourceFailure(exception.Error(message), resource, action)


def snapshot_data(resource: Any) -> dict[str, Any]:
    """What a resource snapshot keeps of the resource (Heat's ``resource_snapshot_set``)."""
    return {
        "name": resource.name,
        "resource_id": resource.resource_id,
        "type": resource.type(),
        "action": resource.action,
        "status": resource.status,
        "metadata": resource.metadata_get(),
        "resource_data": resource.data(),
    }


def store_snapshot(resource: Any, snapshot_id: str) -> None:
    """The ``resource_snapshot`` row of a resource whose snapshot completed."""
    with resource.stack.database.transaction() as session:
        session.add(
            ResourceSnapshot(
                snapshot_id=snapshot_id, resource_name=resource.name, data=snapshot_data(resource)
            )
        )
