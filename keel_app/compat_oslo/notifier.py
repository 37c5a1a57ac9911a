"""The engine's notifications sent the way oslo.messaging's notifier sends Heat's.

``messagingv2`` publishes each notification in a 2.0 envelope (``messaging`` without
one) on the control exchange of the notification transport, once for each of
[oslo_messaging_notifications]/topics, with routing key ``<topic>.<priority>``, and
declares the queue of that name first so that nothing is lost before a consumer
(Ceilometer, say) has bound its own. publisher_id is ``orchestration.<host>`` unless
[DEFAULT]/default_publisher_id says otherwise; event types get Heat's ``orchestration.``
prefix. The context is the caller's, credentials redacted as oslo redacts them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from kombu import Connection, Producer

from keel_app.common import jsonwire
from keel_app.compat_oslo import topology
from keel_app.compat_oslo.envelope import frame_properties
from keel_app.compat_oslo.notification import (
    ERROR,
    Notification,
    encode_notification,
    heat_publisher_id,
    notification_message,
    routing_key,
)
from keel_app.tasks.app import broker_url_from_transport_url

LOG = logging.getLogger(__name__)

SERVICE = "orchestration"
ENVELOPED_DRIVERS = ("messagingv2",)
PLAIN_DRIVERS = ("messaging",)
# How often a notification is tried when [oslo_messaging_notifications]/retry is -1.
UNLIMITED_RETRIES = None


class OsloNotifier:
    def __init__(
        self,
        url: str,
        *,
        exchange: str = "heat",
        topics: Sequence[str] = ("notifications",),
        publisher_id: str,
        default_level: str = "INFO",
        enveloped: bool = True,
        queue_options: topology.QueueOptions | None = None,
        retry: int | None = UNLIMITED_RETRIES,
    ) -> None:
        self.url = url
        self.exchange = exchange
        self.topics = tuple(topics)
        self.publisher_id = publisher_id
        self.default_level = default_level.upper()
        self.enveloped = enveloped
        self.queue_options = queue_options or topology.QueueOptions()
        self.retry = retry
        self._lock = threading.Lock()
        self._connection: Connection | None = None
        self._producer: Producer | None = None
        self._declared: set[str] = set()

    def notify(self, context: Any, event_type: str, payload: dict[str, Any], error: bool) -> None:
        notification = Notification(
            publisher_id=self.publisher_id,
            event_type=f"{SERVICE}.{event_type}",
            priority=ERROR if error else self.default_level,
            payload=payload,
            context=context,
        )
        if self.enveloped:
            body = encode_notification(notification)
        else:
            body = jsonwire.dumps(notification_message(notification)).encode("utf-8")
        for topic in self.topics:
            self._publish(routing_key(topic, notification.priority), body)

    def _publish(self, key: str, body: bytes) -> None:
        with self._lock:
            try:
                connection, producer = self._open()
                if key not in self._declared:
                    queue = topology.topic_queue(self.exchange, key, self.queue_options)
                    queue(producer.channel).declare()
                    self._declared.add(key)
                publish = connection.ensure(producer, producer.publish, max_retries=self.retry)
                publish(
                    body,
                    exchange=topology.control_exchange(self.exchange, self.queue_options),
                    routing_key=key,
                    **frame_properties(),
                )
            except Exception:
                LOG.exception("Could not send a notification to %s", key)
                self.close()

    def _open(self) -> tuple[Connection, Producer]:
        if self._connection is None or self._producer is None:
            self._connection = Connection(self.url)
            self._producer = Producer(self._connection.channel(), serializer=None)
            self._declared.clear()
        return self._connection, self._producer

    def close(self) -> None:
        if self._connection is not None:
            self._connection.release()
        self._connection = None
        self._producer = None


def from_conf(conf: Any) -> OsloNotifier | None:
    """The notifier heat.conf asks for, or None when no messaging driver is set."""
    options = conf.oslo_messaging_notifications
    drivers = set(options.driver)
    if not drivers & {*ENVELOPED_DRIVERS, *PLAIN_DRIVERS}:
        return None
    retry = None if options.retry < 0 else options.retry
    return OsloNotifier(
        broker_url_from_transport_url(options.transport_url or conf.transport_url),
        exchange=conf.control_exchange,
        topics=options.topics,
        publisher_id=heat_publisher_id(conf.host, conf.default_publisher_id),
        default_level=conf.default_notification_level,
        enveloped=bool(drivers & set(ENVELOPED_DRIVERS)),
        queue_options=topology.options_from_conf(conf),
        retry=retry,
    )
