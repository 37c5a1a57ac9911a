"""One engine process: a Celery worker on threads, with its own engine id.

The process consumes the shared queues ``keel.engine`` and ``keel.engine_worker`` and a
queue of its own, ``keel.engine_worker.<engine id>``, which goes away with it. Its Celery node name
carries the engine id, which is how other engines ask whether it is alive. Threads, not
forked children: an engine id then names exactly one process, so a lock held by a
process that was killed is recognisably a dead engine's.
"""

from __future__ import annotations

import logging
import sys
import uuid
from typing import Any

from celery.signals import worker_ready
from kombu import Queue

from keel_app.clients.stack_domain import require_stack_domain
from keel_app.common import startup_heap
from keel_app.rpc.celery_transport import ENGINE_QUEUE
from keel_app.tasks import runtime
from keel_app.tasks.app import app, configure
from keel_app.tasks.dispatcher import WORKER_QUEUE, engine_queue
from keel_app.tasks.heartbeat import Heartbeat
from keel_app.tasks.liveness import node_name

LOG = logging.getLogger(__name__)

# Seconds a thread may hold the GIL while another waits for it. A step waits on the
# database between short bursts of Python; at the interpreter's 5 ms, a thread whose
# answer has arrived (holding a row lock, say) waits behind another's whole burst.
SWITCH_INTERVAL = 0.0005


def queues(engine_id: str) -> list[Queue]:
    return [
        Queue(ENGINE_QUEUE),
        Queue(WORKER_QUEUE),
        Queue(engine_queue(engine_id), auto_delete=True),
    ]


def _freeze_startup_heap(**_: Any) -> None:
    # Celery has loaded its bootsteps and the tasks by now: what is alive stays alive.
    startup_heap.freeze()


def run(conf: Any, *, concurrency: int, loglevel: str = "INFO") -> None:
    """Run the engine until the worker is told to stop (SIGTERM, SIGINT)."""
    require_stack_domain(conf)
    configure(conf)
    sys.setswitchinterval(SWITCH_INTERVAL)
    engine_id = str(uuid.uuid4())
    worker_runtime = runtime.build(conf, engine_id=engine_id)
    runtime.install(worker_runtime)
    app.conf.task_queues = queues(engine_id)
    heartbeat = Heartbeat(worker_runtime.database, worker_runtime.settings, conf.periodic_interval)
    heartbeat.start()
    LOG.info("Engine %s starting", engine_id)
    worker_ready.connect(_freeze_startup_heap)
    try:
        worker = app.Worker(
            hostname=node_name(engine_id),
            pool="threads",
            concurrency=concurrency,
            loglevel=loglevel,
            task_events=True,
        )
        worker.start()
    finally:
        worker_ready.disconnect(_freeze_startup_heap)
        heartbeat.stop()
        worker_runtime.database.dispose()
        runtime.install(None)
