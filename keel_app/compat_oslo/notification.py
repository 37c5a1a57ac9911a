"""Notifications as oslo.messaging's ``messagingv2`` driver publishes them.

The message is ``message_id``, ``publisher_id``, ``event_type``, ``priority``,
``payload`` and ``timestamp`` (``str()`` of a naive UTC datetime), then
``_unique_id`` and the redacted context as ``_context_*``, in a 2.0 envelope; it is
sent on the control exchange with routing key ``<topic>.<priority in lower case>``
for each of [oslo_messaging_notifications]/topics.
"""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass, field
from typing import Any

from keel_app.common.context import RequestContext
from keel_app.compat_oslo.context import notification_context, pack_context
from keel_app.compat_oslo.envelope import UNIQUE_ID_KEY, new_id, wrap

INFO = "INFO"
ERROR = "ERROR"


@dataclass
class Notification:
    publisher_id: str
    event_type: str
    priority: str
    payload: dict[str, Any]
    context: RequestContext | None = None
    message_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    timestamp: datetime.datetime = field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    )
    unique_id: str = field(default_factory=new_id)


def routing_key(topic: str, priority: str) -> str:
    return f"{topic}.{priority.lower()}"


def notification_message(notification: Notification) -> dict[str, Any]:
    message: dict[str, Any] = {
        "message_id": notification.message_id,
        "publisher_id": notification.publisher_id,
        "event_type": notification.event_type,
        "priority": notification.priority,
        "payload": notification.payload,
        "timestamp": str(notification.timestamp),
        UNIQUE_ID_KEY: notification.unique_id,
    }
    if notification.context is not None:
        message.update(pack_context(notification_context(notification.context)))
    return message


def encode_notification(notification: Notification) -> bytes:
    return wrap(notification_message(notification))


def stack_event_type(action: str, phase: str) -> str:
    """``orchestration.stack.<action>.<start|end|error>`` as Heat names them."""
    return f"orchestration.stack.{action.lower()}.{phase}"


def heat_publisher_id(host: str, default_publisher_id: str | None = None) -> str:
    if default_publisher_id is None:
        return f"orchestration.{host}"
    return default_publisher_id
