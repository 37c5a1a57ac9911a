"""What the bridge does with each request of Heat's three topics, bytes already decoded.

- ``engine``: the call is served here, in the bridge's own process, by the engine's
  service function (``keel_app.rpc.server.serve``), with the bridge's database and a
  Celery dispatcher; the convergence steps it starts go to the ``keel-worker`` fleet
  as tasks. Forwarding the call as a ``keel.engine_call`` task instead would add a
  broker round trip and a result-backend round trip to every call (a ``show_stack``
  does one short database read) and make the caller wait on a busy fleet; serving it
  here keeps the latency of heat-engine's, which also answers calls in its consumer.
- ``engine_worker``: a Heat engine's casts become the fleet's Celery tasks
  (``keel.check_resource``, ``keel.check_resource_delete_snapshot``, and
  ``keel.cancel_check_resource`` on the named engine's queue) through the same
  dispatcher, which seals the context: the clear-text token of the oslo message never
  reaches a Celery message.
- ``heat-engine-listener``: ``listening`` is answered for an OpenKeel engine only
  while its ``keel-worker`` answers a ping, and never otherwise, so a Heat engine
  takes a dead OpenKeel engine for dead after its two seconds exactly as it would a
  Heat engine. OpenKeel runs no stack threads, so ``send`` and ``stop_stack`` have
  nothing to stop and answer at once.

Each handler returns the reply to send, or None when nothing is to be sent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from keel_app.common import jsonwire
from keel_app.compat_oslo.envelope import Call
from keel_app.compat_oslo.reply import Reply, failure_reply, result_reply
from keel_app.compat_oslo.versions import NoSuchMethod, UnsupportedVersion, check_dispatch
from keel_app.engine import dispatch
from keel_app.rpc import reply as rpc_reply
from keel_app.rpc import server
from keel_app.rpc.contract import HEAT_ENGINE_API

LOG = logging.getLogger(__name__)

ENGINE_TOPIC = "engine"
WORKER_TOPIC = "engine_worker"
LISTENER_TOPIC = "heat-engine-listener"
TOPICS = (ENGINE_TOPIC, WORKER_TOPIC, LISTENER_TOPIC)

WORKER_METHODS = frozenset(
    {
        dispatch.CHECK_RESOURCE,
        dispatch.CHECK_RESOURCE_DELETE_SNAPSHOT,
        dispatch.CANCEL_CHECK_RESOURCE,
    }
)
LISTENER_METHODS = frozenset({"listening", "send", "stop_stack"})
TOPIC_METHODS = {
    ENGINE_TOPIC: frozenset(HEAT_ENGINE_API),
    WORKER_TOPIC: WORKER_METHODS,
    LISTENER_TOPIC: LISTENER_METHODS,
}


def _reply_for(call: Call, served: dict[str, Any]) -> Reply | None:
    """The oslo reply to a call for the reply ``keel_app.rpc.server`` answered."""
    if not call.is_call or call.msg_id is None:
        return None
    failure = served.get(rpc_reply.FAILURE)
    if failure:
        return Reply(msg_id=call.msg_id, failure=jsonwire.dumps(failure))
    return result_reply(call.msg_id, served.get(rpc_reply.RESULT))


class BridgeService:
    """The requests of one bridge process, answered with its runtime.

    ``runtime`` has the ``database``, ``settings`` and ``dispatcher`` of
    ``keel_app.tasks.runtime.WorkerRuntime``; ``is_engine_alive(engine_id)`` says
    whether an OpenKeel engine still answers.
    """

    def __init__(self, runtime: Any, is_engine_alive: Callable[[str], bool]) -> None:
        self.runtime = runtime
        self.is_engine_alive = is_engine_alive
        self._handlers: dict[str, Callable[[str | None, Call], Reply | None]] = {
            ENGINE_TOPIC: self._engine,
            WORKER_TOPIC: self._worker,
            LISTENER_TOPIC: self._listener,
        }

    def handle(self, topic: str, server_name: str | None, call: Call) -> Reply | None:
        """The reply to ``call``, received on ``topic`` (addressed to ``server_name``)."""
        try:
            check_dispatch(topic, call, TOPIC_METHODS[topic])
        except (UnsupportedVersion, NoSuchMethod) as error:
            LOG.info("Refused %s on %s: %s", call.method, topic, error)
            return failure_reply(call.msg_id, error) if call.is_call and call.msg_id else None
        try:
            return self._handlers[topic](server_name, call)
        except Exception as error:
            # A message whose context cannot even be read; the engine's own errors
            # come back from serve as failures.
            LOG.exception("Request %s on %s failed", call.method, topic)
            return failure_reply(call.msg_id, error) if call.is_call and call.msg_id else None

    def _engine(self, server_name: str | None, call: Call) -> Reply | None:
        runtime = self.runtime
        served = server.serve(
            call.request_context(),
            runtime.settings,
            runtime.database,
            runtime.dispatcher,
            call.method,
            call.args,
        )
        return _reply_for(call, served)

    def _worker(self, server_name: str | None, call: Call) -> Reply | None:
        context = call.request_context()
        dispatcher = self.runtime.dispatcher
        if call.method == dispatch.CHECK_RESOURCE:
            dispatcher.send_check_resource(context, **call.args)
        elif call.method == dispatch.CHECK_RESOURCE_DELETE_SNAPSHOT:
            dispatcher.send_check_resource_delete_snapshot(context, **call.args)
        elif call.method == dispatch.CANCEL_CHECK_RESOURCE and server_name:
            dispatcher.send_cancel_check_resource(
                context, stack_id=call.args["stack_id"], engine_id=server_name
            )
        else:
            # A cancel sent to no engine in particular has nobody to stop.
            LOG.warning("Dropped %s cast to engine %s", call.method, server_name)
        return None

    def _listener(self, server_name: str | None, call: Call) -> Reply | None:
        if call.msg_id is None:
            return None
        if call.method == "listening":
            if server_name is None or not self.is_engine_alive(server_name):
                # A dead engine says nothing: the caller's timeout is the answer.
                return None
            return result_reply(call.msg_id, True)
        return result_reply(call.msg_id, None)
