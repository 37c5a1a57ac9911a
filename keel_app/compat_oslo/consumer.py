"""The bridge's kombu consumer: oslo frames in from the control exchange, replies out.

One connection consumes, on the queues of ``topology`` (``engine``, ``engine.<host>``,
``engine_worker``, ``heat-engine-listener`` and their fanouts, and for every engine the
bridge stands for ``engine_worker.<id>`` and ``heat-engine-listener.<id>``). As an oslo
RPC server does, a message is acknowledged when it arrives and then run on a pool of
``executor_thread_pool_size`` threads; replies leave on a second connection, the
consumer's being kombu's and so one thread's. A call the caller monitors (``_timeout``)
gets a heartbeat every half of that while it runs.

The engines the bridge stands for are its own and the ``keel-worker`` processes that
``discover_engines`` finds; the set is refreshed every ``discovery_interval`` seconds in
a thread of its own, so a slow answer never holds up a call.
"""

from __future__ import annotations

import collections
import logging
import socket
import threading
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from kombu import Connection, Consumer, Producer, Queue
from kombu.message import Message

from keel_app.compat_oslo import topology
from keel_app.compat_oslo.envelope import (
    Call,
    NotACall,
    UnsupportedEnvelopeVersion,
    decode_call,
    frame_properties,
)
from keel_app.compat_oslo.reply import Reply, encode_reply, heartbeat
from keel_app.compat_oslo.serving import ENGINE_TOPIC, LISTENER_TOPIC, TOPICS, WORKER_TOPIC

LOG = logging.getLogger(__name__)

# Topics whose server is an engine id, so a queue of their own exists per engine.
PER_ENGINE_TOPICS = (WORKER_TOPIC, LISTENER_TOPIC)
# oslo drops a message whose _unique_id it has just seen (a redelivery).
SEEN_MESSAGES = 1024
DRAIN_TIMEOUT = 1.0
RECONNECT_DELAY = 1.0
# Discovery rounds an engine may miss before the bridge stops standing for it.
MISSED_DISCOVERIES = 3


@dataclass
class BridgeOptions:
    url: str
    exchange: str = "heat"
    host: str = field(default_factory=socket.gethostname)
    engine_id: str = "bridge"
    queue_options: topology.QueueOptions = field(default_factory=topology.QueueOptions)
    pool_size: int = 64
    discovery_interval: float = 10.0


Handler = Callable[[str, str | None, Call], Reply | None]


class Bridge:
    def __init__(
        self,
        options: BridgeOptions,
        handle: Handler,
        discover_engines: Callable[[], Iterable[str]] | None = None,
    ) -> None:
        self.options = options
        self.handle = handle
        self.discover_engines = discover_engines
        self._pool = ThreadPoolExecutor(options.pool_size, thread_name_prefix="keel-bridge")
        self._stopped = threading.Event()
        self.ready = threading.Event()
        self._seen: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._reply_lock = threading.Lock()
        self._reply_connection: Connection | None = None
        self._reply_producer: Producer | None = None
        self._engines: set[str] = {options.engine_id}
        self._wanted_engines: set[str] = {options.engine_id}
        # routing key -> (topic, server), to know where a delivery was addressed.
        self._routes: dict[str, tuple[str, str | None]] = {}
        self._unique = uuid.uuid4().hex

    # -- the queues -----------------------------------------------------------------

    def _shared_queues(self) -> list[Queue]:
        options, exchange = self.options, self.options.exchange
        queues = []
        for topic in TOPICS:
            queues.append(topology.topic_queue(exchange, topic, options.queue_options))
            # The same name on every reconnection, as oslo keeps its consumer's.
            queues.append(topology.fanout_queue(topic, options.queue_options, self._unique))
            self._routes[topic] = (topic, None)
        host_key = f"{ENGINE_TOPIC}.{options.host}"
        queues.append(topology.topic_queue(exchange, host_key, options.queue_options))
        self._routes[host_key] = (ENGINE_TOPIC, options.host)
        return queues

    def _engine_queues(self, engine_id: str) -> list[Queue]:
        queues = []
        for topic in PER_ENGINE_TOPICS:
            key = f"{topic}.{engine_id}"
            self._routes[key] = (topic, engine_id)
            queues.append(
                topology.topic_queue(self.options.exchange, key, self.options.queue_options)
            )
        return queues

    def _route(self, message: Message) -> tuple[str, str | None]:
        info = message.delivery_info
        key = info.get("routing_key") or ""
        if key in self._routes:
            return self._routes[key]
        # A fanout delivery: the exchange is <topic>_fanout, the server anyone.
        return info.get("exchange", "").removesuffix("_fanout"), None

    # -- running --------------------------------------------------------------------

    def run(self) -> None:
        """Consume until ``stop``; reconnects to the broker when the connection drops."""
        discovery = None
        if self.discover_engines is not None:
            discovery = threading.Thread(target=self._discover, name="keel-bridge-discovery")
            discovery.daemon = True
            discovery.start()
        try:
            while not self._stopped.is_set():
                try:
                    self._consume()
                except Exception:
                    # A closed connection surfaces as py-amqp's, kombu's or the socket's
                    # error; whichever it is, the queues are declared again on a new one.
                    if self._stopped.is_set():
                        break
                    LOG.exception("Broker connection lost; reconnecting")
                    self.ready.clear()
                    self._stopped.wait(RECONNECT_DELAY)
        finally:
            self._pool.shutdown(wait=True)
            self._close_replies()

    def _consume(self) -> None:
        with Connection(self.options.url) as connection:
            channel = connection.channel()
            consumer = Consumer(channel, queues=self._shared_queues(), on_message=self._receive)
            for engine_id in sorted(self._engines):
                for queue in self._engine_queues(engine_id):
                    consumer.add_queue(queue)
            consumer.consume()
            self.ready.set()
            while not self._stopped.is_set():
                self._follow_engines(channel, consumer)
                try:
                    connection.drain_events(timeout=DRAIN_TIMEOUT)
                except TimeoutError:
                    continue
            consumer.cancel()
            # As oslo does on a clean stop: this listener's fanout queues are its own.
            for queue in consumer.queues:
                if queue.exchange.type == "fanout":
                    queue(channel).delete()

    def stop(self) -> None:
        self._stopped.set()

    def _discover(self) -> None:
        assert self.discover_engines is not None
        # Rounds each known engine has been missing from: one lost ping reply must not
        # take an engine's queues away while a Heat engine may be asking it.
        missing: dict[str, int] = {}
        while not self._stopped.is_set():
            try:
                found = set(self.discover_engines())
                for engine_id in self._wanted_engines - found:
                    missing[engine_id] = missing.get(engine_id, 0) + 1
                for engine_id in found:
                    missing.pop(engine_id, None)
                kept = {
                    engine_id
                    for engine_id in self._wanted_engines - found
                    if missing[engine_id] < MISSED_DISCOVERIES
                }
                self._wanted_engines = found | kept | {self.options.engine_id}
                missing = {key: count for key, count in missing.items() if key in kept}
            except Exception:  # the next round asks again
                LOG.exception("Could not list the OpenKeel engines")
            self._stopped.wait(self.options.discovery_interval)

    def _follow_engines(self, channel: Any, consumer: Consumer) -> None:
        wanted = self._wanted_engines
        if wanted == self._engines:
            return
        for engine_id in sorted(wanted - self._engines):
            LOG.info("Standing for engine %s", engine_id)
            for queue in self._engine_queues(engine_id):
                consumer.add_queue(queue)
        consumer.consume()
        for engine_id in sorted(self._engines - wanted):
            LOG.info("Engine %s is gone", engine_id)
            for queue in self._engine_queues(engine_id):
                consumer.cancel_by_queue(queue.name)
                queue(channel).delete()
        self._engines = set(wanted)

    # -- one message ----------------------------------------------------------------

    def _receive(self, message: Message) -> None:
        topic, server_name = self._route(message)
        message.ack()
        try:
            call = decode_call(message.body)
        except (NotACall, UnsupportedEnvelopeVersion, ValueError) as error:
            LOG.warning("Dropped a message on %s: %s", topic, error)
            return
        if call.unique_id is not None:
            if call.unique_id in self._seen:
                LOG.info("Dropped a duplicate of message %s", call.unique_id)
                return
            self._seen[call.unique_id] = None
            if len(self._seen) > SEEN_MESSAGES:
                self._seen.popitem(last=False)
        self._pool.submit(self._run, topic, server_name, call)

    def _run(self, topic: str, server_name: str | None, call: Call) -> None:
        done = threading.Event()
        if call.is_call and call.timeout:
            threading.Thread(target=self._heartbeats, args=(call, done), daemon=True).start()
        try:
            answer = self.handle(topic, server_name, call)
        except Exception:
            LOG.exception("Unhandled error in %s", call.method)
            answer = None
        finally:
            done.set()
        if answer is not None and call.reply_queue:
            self._send_reply(call.reply_queue, answer)

    def _heartbeats(self, call: Call, done: threading.Event) -> None:
        interval = max(float(call.timeout or 0) / 2, 0.5)
        while not done.wait(interval):
            if call.msg_id and call.reply_queue:
                self._send_reply(call.reply_queue, heartbeat(call.msg_id))

    def _send_reply(self, reply_queue: str, reply: Reply) -> None:
        body = encode_reply(reply)
        with self._reply_lock:
            try:
                producer = self._producer()
                publish = self._reply_connection.ensure(  # type: ignore[union-attr]
                    producer, producer.publish, max_retries=3
                )
                publish(body, exchange="", routing_key=reply_queue, **frame_properties())
            except Exception:
                LOG.exception("Could not send the reply to %s", reply.msg_id)
                self._close_replies()

    def _producer(self) -> Producer:
        if self._reply_producer is None:
            self._reply_connection = Connection(self.options.url)
            self._reply_producer = Producer(self._reply_connection.channel(), serializer=None)
        return self._reply_producer

    def _close_replies(self) -> None:
        if self._reply_connection is not None:
            self._reply_connection.release()
        self._reply_connection = None
        self._reply_producer = None
