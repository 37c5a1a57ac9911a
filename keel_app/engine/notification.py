"""Heat's usage notifications of a stack's state, as the engine states them.

Whenever Heat records a stack state (with its stack event) it notifies
``stack.<action>.start`` for IN_PROGRESS, ``.end`` for COMPLETE and ``.error`` for
FAILED, with the payload below (spec section 1.5). The engine only builds the
notification; an edge installs the ``Notifier`` that sends it (the oslo.messaging one of
``keel_app.compat_oslo.notifier``) and prefixes ``orchestration.``. With none installed,
as with Heat's default of no notification driver, nothing is built at all.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Protocol

import sqlalchemy as sa

from keel_app.models.stack import StackTag

LOG = logging.getLogger(__name__)

IN_PROGRESS = "IN_PROGRESS"
COMPLETE = "COMPLETE"
ISO_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


class Notifier(Protocol):
    def notify(self, context: Any, event_type: str, payload: dict[str, Any], error: bool) -> None:
        """Send ``event_type`` (without the service prefix) at the default priority, or
        at ERROR when ``error``."""


_lock = threading.Lock()
_notifier: Notifier | None = None


def install(notifier: Notifier | None) -> None:
    """The notifier of this process (None: notifications are dropped)."""
    global _notifier
    with _lock:
        _notifier = notifier


def installed() -> Notifier | None:
    return _notifier


def _isotime(moment: Any) -> str | None:
    return None if moment is None else moment.strftime(ISO_FORMAT)


def _tags(stack: Any) -> list[str]:
    # Heat's stack.tags: a stack without tags has an empty list of them (the API shows
    # None, the notifications []).
    known = getattr(stack, "tags", None)
    if known is not None:
        return list(known)
    with stack.database.transaction() as session:
        rows = session.scalars(
            sa.select(StackTag.tag).where(StackTag.stack_id == stack.id).order_by(StackTag.id)
        )
        return list(rows)


def stack_payload(stack: Any) -> dict[str, Any]:
    """Heat's ``format_notification_body`` of a stack, in its key order."""
    context = stack.context
    state = f"{stack.action}_{stack.status}" if stack.action and stack.status else "Unknown"
    payload = {
        "tenant_id": context.project_id,
        # Heat's "user_id" is the user's name; the id is "user_identity".
        "user_id": context.username,
        "user_identity": context.user_id,
        "username": context.username,
        "stack_identity": stack.id,
        "stack_name": stack.name,
        "state": state,
        "state_reason": stack.status_reason,
        "create_at": _isotime(stack.created_time),
        "tags": _tags(stack),
        "updated_at": _isotime(stack.updated_time),
    }
    template = stack.t
    if template is not None:
        payload["description"] = template[template.DESCRIPTION]
    return payload


def event_type(action: str, status: str) -> str:
    phase = {IN_PROGRESS: "start", COMPLETE: "end"}.get(status, "error")
    return f"stack.{action.lower()}.{phase}"


def send_stack_state(stack: Any) -> None:
    """Notify the stack's current state, when a notifier is installed."""
    notifier = _notifier
    if notifier is None:
        return
    error = stack.status not in (IN_PROGRESS, COMPLETE)
    try:
        notifier.notify(
            stack.context, event_type(stack.action, stack.status), stack_payload(stack), error
        )
    except Exception:
        # As with oslo's notifier, a notification that cannot be sent is only logged:
        # the stack operation goes on.
        LOG.exception("Could not notify the state of stack %s", stack.id)


def send_autoscaling(
    stack: Any,
    *,
    phase: str,
    adjustment: Any,
    adjustment_type: str,
    capacity: int,
    groupname: str,
    message: str,
) -> None:
    """Heat's ``autoscaling.<start|end|error>`` of a scaling group's adjustment: the
    payload of the group's stack with the adjustment's figures after it."""
    notifier = _notifier
    if notifier is None:
        return
    payload = {
        **stack_payload(stack),
        "adjustment_type": adjustment_type,
        "adjustment": adjustment,
        "capacity": capacity,
        "groupname": groupname,
        "message": message,
    }
    try:
        notifier.notify(stack.context, f"autoscaling.{phase}", payload, phase == "error")
    except Exception:
        LOG.exception("Could not notify the scaling of group %s", groupname)
