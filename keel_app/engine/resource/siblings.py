"""Other resources of a resource's stack, with their stored state.

A convergence step builds the stack's resources from the template alone; a plugin that
acts on another resource (a wait condition reading its handle's signals) needs that
resource's row too. Node data, when the step received it, names the row; otherwise
the newest row of that name is the one.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from keel_app.models.resource import Resource as ResourceRow

# The states in which a resource can be found by its reference (Heat's resource_by_refid).
FINDABLE_STATES = {
    ("INIT", "COMPLETE"),
    ("CREATE", "IN_PROGRESS"),
    ("CREATE", "COMPLETE"),
    ("RESUME", "IN_PROGRESS"),
    ("RESUME", "COMPLETE"),
    ("UPDATE", "IN_PROGRESS"),
    ("UPDATE", "COMPLETE"),
    ("CHECK", "COMPLETE"),
}


def load_sibling(stack: Any, name: str) -> Any:
    """The stack's resource ``name`` with the state of its row (as built, if it has none)."""
    resource = stack.resources[name]
    if resource.id is not None or stack.id is None:
        return resource
    row = _row(stack, name)
    if row is not None:
        resource.load_row(row)
    return resource


def _row(stack: Any, name: str) -> ResourceRow | None:
    node = getattr(stack.defn[name], "_resource_data", None)
    primary_key = getattr(node, "primary_key", None)
    with stack.database.transaction() as session:
        if primary_key is not None:
            row = session.get(ResourceRow, primary_key)
            if row is not None:
                return row
        return session.scalars(
            sa.select(ResourceRow)
            .where(ResourceRow.stack_id == stack.id, ResourceRow.name == name)
            .order_by(ResourceRow.id.desc())
        ).first()


def resource_by_refid(stack: Any, reference: Any) -> Any:
    """The resource whose reference (``get_resource``) is ``reference``, or None."""
    for name in list(stack.resources):
        resource = load_sibling(stack, name)
        if resource.state not in FINDABLE_STATES:
            continue
        proxy = stack.defn[name]
        if getattr(proxy, "_resource_data", None) is None:
            matches = resource.FnGetRefId() == reference or name == reference
        else:
            matches = proxy.FnGetRefId() == reference
        if matches:
            return resource
    return None
