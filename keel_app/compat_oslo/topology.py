"""The queues and exchanges an oslo.messaging RPC server declares, as kombu entities.

For each (topic, server) an oslo server listens on three queues: the shared topic queue
``<topic>`` and the server's own ``<topic>.<server>``, both bound with their name as
routing key to the control exchange (a topic exchange), and a fanout queue
``<topic>_fanout_<unique>`` bound to the ``<topic>_fanout`` exchange. Durability,
auto-delete and queue arguments follow [oslo_messaging_rabbit] as oslo.messaging's
rabbit driver reads it; the defaults (nothing durable, nothing auto-deleted, fanout
queues expiring after 30 idle minutes) are what a Heat deployment runs with.
Declaring a queue that exists with other properties fails on the broker, so anything
different here would stop either Heat's engines or the bridge from starting.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from kombu import Exchange, Queue

# oslo's topic queues carry no x-expires; reply and fanout queues do.
DEFAULT_TRANSIENT_QUEUES_TTL = 1800


@dataclass(frozen=True)
class QueueOptions:
    """The [oslo_messaging_rabbit] values that shape a declaration."""

    durable_queues: bool = False
    auto_delete: bool = False
    ha_queues: bool = False
    quorum_queue: bool = False
    transient_quorum_queue: bool = False
    transient_queues_ttl: int = DEFAULT_TRANSIENT_QUEUES_TTL

    @property
    def durable(self) -> bool:
        # Quorum queues are always durable; oslo ignores amqp_durable_queues then.
        return self.durable_queues or self.quorum_queue


def options_from_conf(conf: Any) -> QueueOptions:
    rabbit = conf.oslo_messaging_rabbit
    return QueueOptions(
        durable_queues=rabbit.amqp_durable_queues,
        auto_delete=rabbit.amqp_auto_delete,
        ha_queues=rabbit.rabbit_ha_queues,
        quorum_queue=rabbit.rabbit_quorum_queue,
        transient_quorum_queue=rabbit.rabbit_transient_quorum_queue,
        transient_queues_ttl=rabbit.rabbit_transient_queues_ttl,
    )


def _arguments(options: QueueOptions, *, quorum: bool, ttl: int) -> dict[str, Any]:
    arguments: dict[str, Any] = {}
    if options.ha_queues:
        arguments["x-ha-policy"] = "all"
    if quorum:
        arguments["x-queue-type"] = "quorum"
    if ttl > 0:
        arguments["x-expires"] = ttl * 1000
    return arguments


def control_exchange(name: str, options: QueueOptions) -> Exchange:
    return Exchange(name, type="topic", durable=options.durable, auto_delete=options.auto_delete)


def topic_queue(exchange_name: str, routing_key: str, options: QueueOptions) -> Queue:
    """``<topic>`` or ``<topic>.<server>`` on the control exchange."""
    return Queue(
        routing_key,
        exchange=control_exchange(exchange_name, options),
        routing_key=routing_key,
        durable=options.durable,
        auto_delete=options.auto_delete,
        queue_arguments=_arguments(options, quorum=options.quorum_queue, ttl=0) or None,
    )


def fanout_queue(topic: str, options: QueueOptions, unique: str | None = None) -> Queue:
    """This listener's own queue on ``<topic>_fanout``; it expires once left unused."""
    exchange = Exchange(
        f"{topic}_fanout",
        type="fanout",
        durable=options.transient_quorum_queue,
        auto_delete=True,
    )
    return Queue(
        f"{topic}_fanout_{unique or uuid.uuid4().hex}",
        exchange=exchange,
        routing_key=topic,
        durable=options.transient_quorum_queue,
        auto_delete=False,
        queue_arguments=_arguments(
            options, quorum=options.transient_quorum_queue, ttl=options.transient_queues_ttl
        )
        or None,
    )


def server_queues(
    exchange_name: str, topic: str, server: str, options: QueueOptions
) -> list[Queue]:
    """What ``listen`` declares for an RPC server of ``topic`` named ``server``."""
    return [
        topic_queue(exchange_name, topic, options),
        topic_queue(exchange_name, f"{topic}.{server}", options),
        fanout_queue(topic, options),
    ]


def reply_exchange() -> Exchange:
    """Replies go through the default exchange, routed by the reply queue's name."""
    return Exchange("", type="direct", passive=True)
