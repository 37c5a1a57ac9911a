"""The engine of ``keel all-in-one``: a database, one engine identity, its worker
threads and the client the API calls it with, all in the API's process.

Calls run in the API's request thread (the local transport); the convergence steps
they start run on the ``BackgroundQueue``'s threads. The engine registers a service row
and reports it like a ``keel-worker``, so ``openstack orchestration service list`` shows
it. Steps live in memory only: a stack that an earlier run left IN_PROGRESS, when no
other engine is up to carry it on, is reset (stack and resources FAILED, locks freed)
at start, so that it can be updated or deleted again.
"""

from __future__ import annotations

import dataclasses
import logging

from oslo_config import cfg

from keel_app.clients.stack_domain import require_stack_domain
from keel_app.engine.background_queue import BackgroundQueue
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.settings import EngineSettings, from_conf
from keel_app.models import migration
from keel_app.models.database import Database
from keel_app.models.maintenance import services, stack_status
from keel_app.rpc.client import EngineClient
from keel_app.rpc.local import LocalTransport
from keel_app.tasks.heartbeat import Heartbeat

LOG = logging.getLogger(__name__)

DEFAULT_THREADS = 4


@dataclasses.dataclass
class EmbeddedEngine:
    database: Database
    settings: EngineSettings
    queue: BackgroundQueue
    heartbeat: Heartbeat
    client: EngineClient

    def stop(self) -> None:
        self.queue.stop()
        self.heartbeat.stop()
        self.database.dispose()


def reset_orphaned_stacks(database: Database) -> list[str]:
    """Reset the IN_PROGRESS stacks nobody can finish: none, while another engine is up."""
    if any(service.status == "up" for service in services.list_services(database)):
        return []
    orphans = stack_status.in_progress_root_stacks(database)
    for stack_id in orphans:
        stack_status.reset_stack_status(database, stack_id)
    return orphans


def start(conf: cfg.ConfigOpts, threads: int = DEFAULT_THREADS) -> EmbeddedEngine:
    """Migrate the database to head, reset orphans, and start the engine's threads."""
    require_stack_domain(conf)
    database = Database.from_conf(conf)
    migration.db_sync(database.engine)
    for stack_id in reset_orphaned_stacks(database):
        LOG.warning("Stack %s was left IN_PROGRESS by an earlier run: reset", stack_id)
    settings = from_conf(conf)
    queue = BackgroundQueue(settings.engine_id, threads)
    queue.start(Worker(database, settings, queue).handle)
    heartbeat = Heartbeat(database, settings, conf.periodic_interval)
    heartbeat.start()
    client = EngineClient(LocalTransport(settings, database, queue))
    return EmbeddedEngine(database, settings, queue, heartbeat, client)
