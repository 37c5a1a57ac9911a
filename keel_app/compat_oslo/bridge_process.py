"""One ``keel-bridge`` process, wired from heat.conf.

The oslo side is heat.conf's ``transport_url`` and ``control_exchange``; the Celery side
(the ``keel-worker`` fleet's broker) is the same broker unless ``KEEL_BROKER_URL`` says
otherwise. Both can share one vhost: the fleet's Celery queues are named ``keel.*``,
never like the topic queues of Heat's.
"""

from __future__ import annotations

import functools
import logging
import signal
import uuid
from typing import Any

from keel_app.clients.stack_domain import require_stack_domain
from keel_app.compat_oslo import topology
from keel_app.compat_oslo.consumer import Bridge, BridgeOptions
from keel_app.compat_oslo.serving import BridgeService
from keel_app.tasks import liveness, runtime
from keel_app.tasks.app import app, broker_url_from_transport_url

LOG = logging.getLogger(__name__)
DISCOVERY_TIMEOUT = 1.0


def engine_ids_from_nodes(names: Any) -> set[str]:
    """The engine ids in Celery node names ``keel-engine-<id>@<host>``."""
    found = set()
    for name in names:
        node = name.partition("@")[0]
        if node.startswith(liveness.NODE_PREFIX):
            found.add(node[len(liveness.NODE_PREFIX) :])
    return found


def discover_engines() -> set[str]:
    replies = app.control.ping(timeout=DISCOVERY_TIMEOUT)
    return engine_ids_from_nodes(name for reply in replies for name in reply)


def build(conf: Any, engine_id: str | None = None) -> Bridge:
    """The bridge of heat.conf ``conf``: its runtime installed, not yet consuming."""
    oslo_url = broker_url_from_transport_url(conf.transport_url)
    engine_id = engine_id or str(uuid.uuid4())
    bridge_runtime = runtime.build(conf, engine_id=engine_id)
    runtime.install(bridge_runtime)
    service = BridgeService(
        bridge_runtime, functools.partial(_is_engine_alive, bridge_runtime, engine_id)
    )
    options = BridgeOptions(
        url=oslo_url,
        exchange=conf.control_exchange,
        host=conf.host,
        engine_id=engine_id,
        queue_options=topology.options_from_conf(conf),
        pool_size=conf.executor_thread_pool_size,
    )
    return Bridge(options, service.handle, discover_engines)


def _is_engine_alive(bridge_runtime: Any, own_id: str, engine_id: str) -> bool:
    if engine_id == own_id:
        return True
    return liveness.is_engine_alive(bridge_runtime.database, engine_id)


def run(conf: Any) -> None:
    """Run the bridge until SIGTERM or SIGINT."""
    require_stack_domain(conf)
    bridge = build(conf)
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: bridge.stop())
    LOG.info("keel-bridge %s on exchange %s", bridge.options.engine_id, conf.control_exchange)
    try:
        bridge.run()
    finally:
        runtime.current().database.dispose()
        runtime.install(None)
