"""OpenKeel calling a Heat engine over oslo.messaging: one RPC call, its reply awaited.

Used for what an OpenKeel engine must ask a Heat engine of a mixed fleet, as Heat's
engines ask each other: ``listening`` on ``heat-engine-listener.<engine id>`` before a
resource lock that engine holds may be taken over. The call is published on the control
exchange like an oslo client's, with a reply queue of this call's own; no answer
within the timeout is a ``MessagingTimeout``, which for ``listening`` means the engine
is dead.
"""

from __future__ import annotations

import functools
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from kombu import Connection, Consumer, Producer, Queue
from kombu.message import Message

from keel_app.common.context import RequestContext
from keel_app.common.exception_wire import MessagingTimeout
from keel_app.compat_oslo import topology
from keel_app.compat_oslo.envelope import encode_call, frame_properties, make_call
from keel_app.compat_oslo.reply import Reply, decode_reply, final_outcome
from keel_app.tasks.app import broker_url_from_transport_url

LISTENER_TOPIC = "heat-engine-listener"
LISTENER_VERSION = "1.0"


def call(
    url: str,
    context: RequestContext | Mapping[str, Any],
    topic: str,
    server: str,
    method: str,
    arguments: Mapping[str, Any],
    *,
    exchange: str = "heat",
    version: str = "1.0",
    timeout: float = 60,
    queue_options: topology.QueueOptions | None = None,
) -> Any:
    """The result of ``method`` on ``<topic>.<server>``; its failure is raised."""
    options = queue_options or topology.QueueOptions()
    reply_queue = f"reply_{uuid.uuid4().hex}"
    request = make_call(
        context, method, arguments, version=version, reply_queue=reply_queue, timeout=None
    )
    replies: list[Reply] = []
    with Connection(url, connect_timeout=timeout) as connection:
        channel = connection.channel()
        # Exclusive: the broker removes it with this connection.
        queue = Queue(reply_queue, exclusive=True, durable=False, auto_delete=True)

        def collect(message: Message) -> None:
            message.ack()
            reply = decode_reply(message.body)
            if reply.msg_id == request.msg_id:
                replies.append(reply)

        control = topology.control_exchange(exchange, options)
        with Consumer(channel, queues=[queue], on_message=collect):
            # Declared first, as oslo's driver does: on a broker where no Heat service ever
            # ran the exchange is missing, and publishing to it would close the channel
            # instead of going unanswered.
            Producer(channel, serializer=None).publish(
                encode_call(request),
                exchange=control,
                declare=[control],
                routing_key=f"{topic}.{server}",
                # kombu takes the time to live in seconds and sends it in ms, as oslo.
                expiration=timeout,
                **frame_properties(),
            )
            deadline = time.monotonic() + timeout
            while True:
                ended, outcome = final_outcome(replies)
                if ended:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    raise MessagingTimeout(
                        f"Timed out waiting for a reply to message ID {request.msg_id}"
                    )
                try:
                    connection.drain_events(timeout=left)
                except TimeoutError:
                    continue
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome


def engine_listening(
    url: str,
    engine_id: str,
    *,
    exchange: str = "heat",
    timeout: float = 2,
    queue_options: topology.QueueOptions | None = None,
) -> bool:
    """Heat's liveness question to the engine ``engine_id``: does it answer in time?"""
    try:
        return bool(
            call(
                url,
                RequestContext(is_admin=True),
                LISTENER_TOPIC,
                engine_id,
                "listening",
                {},
                exchange=exchange,
                version=LISTENER_VERSION,
                timeout=timeout,
                queue_options=queue_options,
            )
        )
    except MessagingTimeout:
        return False


def heat_engine_asker(conf: Any) -> Callable[[str], bool]:
    """``engine_listening`` on heat.conf's transport, with its liveness timeout."""
    return functools.partial(
        engine_listening,
        broker_url_from_transport_url(conf.transport_url),
        exchange=conf.control_exchange,
        timeout=conf.engine_life_check_timeout,
        queue_options=topology.options_from_conf(conf),
    )
