"""The events a stack records about itself: one per state change, typed OS::Heat::Stack."""

from __future__ import annotations

from typing import Any

from keel_app.models.api import events as event_rows

STACK_RESOURCE_TYPE = "OS::Heat::Stack"


def add_stack_event(stack: Any, action: str, status: str, reason: str) -> Any:
    """Store the event of ``stack`` entering ``action``/``status``; return its row."""
    values = {
        "resource_name": stack.name,
        "physical_resource_id": stack.id,
        "stack_id": stack.id,
        "resource_action": action,
        "resource_status": status,
        "resource_status_reason": reason,
        "resource_type": STACK_RESOURCE_TYPE,
    }
    return event_rows.create_event(
        stack.database,
        values,
        stack.settings.max_events_per_stack,
        stack.settings.event_purge_batch_size,
    )
