"""The scheduler hints Heat adds for a server or a volume when heat.conf's
``stack_scheduler_hints`` is on: the root stack's id, the stack's id and name, its path
from the root stack, and the resource's name and uuid (``heat_*``), on top of the hints
the template gives."""

from __future__ import annotations

from typing import Any

from keel_app.models import Stack as StackRow

HINT_KEYS = (
    HEAT_ROOT_STACK_ID,
    HEAT_STACK_ID,
    HEAT_STACK_NAME,
    HEAT_PATH_IN_STACK,
    HEAT_RESOURCE_NAME,
    HEAT_RESOURCE_UUID,
) = (
    "heat_root_stack_id",
    "heat_stack_id",
    "heat_stack_name",
    "heat_path_in_stack",
    "heat_resource_name",
    "heat_resource_uuid",
)


def path_in_stack(stack: Any) -> list[str]:
    """From the root stack down: the root's name, then "<parent resource>,<stack name>"
    for each nested stack (hints are lists of strings)."""
    path = []
    parent_resource, name, owner_id = stack.parent_resource_name, stack.name, stack.owner_id
    with stack.database.transaction() as session:
        while True:
            path.append(f"{parent_resource},{name}" if parent_resource else name)
            owner = session.get(StackRow, owner_id) if owner_id else None
            if owner is None:
                break
            parent_resource, name, owner_id = owner.parent_resource_name, owner.name, owner.owner_id
    return list(reversed(path))


def with_stack_hints(resource: Any, hints: dict[str, Any] | None) -> dict[str, Any] | None:
    """The template's hints, with the heat_* ones when ``stack_scheduler_hints`` is on."""
    if not resource.stack.settings.stack_scheduler_hints:
        return hints
    stack = resource.stack
    hints = dict(hints or {})
    hints[HEAT_ROOT_STACK_ID] = stack.root_stack_id()
    hints[HEAT_STACK_ID] = stack.id
    hints[HEAT_STACK_NAME] = stack.name
    hints[HEAT_PATH_IN_STACK] = path_in_stack(stack)
    hints[HEAT_RESOURCE_NAME] = resource.name
    hints[HEAT_RESOURCE_UUID] = resource.uuid
    return hints
