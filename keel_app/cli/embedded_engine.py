"""The engine of ``keel all-in-one``: a database, one engine identity, its worker
threads and the client the API calls it with, all in the API's process.

Calls run in the API's request thread (the local transport); the convergence steps
they start run on the ``BackgroundQueue``'s threads. The engine registers a service row
and reports it like a ``keel-worker``, so ``openstack orchestration service list`` shows
it. Steps live in memory only: a stack that an earlier run left IN_PROGRESS, when no
other engine is up to carry it on, is reset (stack and resources FAILED, locks freed)
at start, so that it can be updated or deleted again. The engine of the earlier run on
the same state directory is known dead (``engine_claim``): its service row, however
fresh, does not hold the reset back.
"""

from __future__ import annotations

import dataclasses
import logging

from oslo_config import cfg

from keel_app.cli import engine_claim, glibc_malloc
from keel_app.cli.engine_claim import EngineClaim
from keel_app.clients.stack_domain import require_stack_domain
from keel_app.common import config
from keel_app.engine.background_queue import BackgroundQueue
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.environment import global_environment
from keel_app.engine.settings import EngineSettings, from_conf
from keel_app.models import migration
from keel_app.models.database import Database
from keel_app.models.maintenance import services, stack_status
from keel_app.rpc.client import EngineClient
from keel_app.rpc.local import LocalTransport
from keel_app.tasks.heartbeat import Heartbeat
from keel_app.web import policy

LOG = logging.getLogger(__name__)

DEFAULT_THREADS = 4


@dataclasses.dataclass
class EmbeddedEngine:
    database: Database
    settings: EngineSettings
    queue: BackgroundQueue
    heartbeat: Heartbeat
    client: EngineClient
    claim: EngineClaim | None

    def stop(self) -> None:
        self.queue.stop()
        self.heartbeat.stop()
        self.database.dispose()
        if self.claim is not None:
            self.claim.release()


def retire_engine(database: Database, engine_id: str) -> None:
    """Soft-delete the service rows of an engine known dead, as its clean stop would have."""
    for service in services.list_services(database):
        if service.engine_id == engine_id:
            services.delete_service(database, service.id)


def reset_orphaned_stacks(database: Database) -> list[tuple[str, str]]:
    """Reset the IN_PROGRESS stacks nobody can finish (none while another engine is up);
    their ids and names."""
    if any(service.status == "up" for service in services.list_services(database)):
        return []
    orphans = stack_status.in_progress_root_stacks(database)
    for stack_id, _ in orphans:
        stack_status.reset_stack_status(database, stack_id)
    return orphans


def start(conf: cfg.ConfigOpts, threads: int = DEFAULT_THREADS) -> EmbeddedEngine:
    """Migrate the database to head, reset orphans, and start the engine's threads."""
    require_stack_domain(conf)
    database = Database.from_conf(conf)
    migration.db_sync(database.engine)
    settings = from_conf(conf, resource_type_policy=policy.resource_type_refusal(conf))
    claim = engine_claim.claim(config.state_dir())
    if claim is not None:
        if claim.previous_engine_id is not None:
            retire_engine(database, claim.previous_engine_id)
        claim.record(settings.engine_id)
    for stack_id, name in reset_orphaned_stacks(database):
        LOG.warning(
            "Stack %s (%s) was left IN_PROGRESS by an earlier run: reset to FAILED", name, stack_id
        )
    global_environment.initialise(conf.environment_dir, conf.template_dir)
    # Between its stacks' actions the process hands back what their steps freed.
    queue = BackgroundQueue(settings.engine_id, threads, on_idle=glibc_malloc.trim)
    queue.start(Worker(database, settings, queue).handle)
    heartbeat = Heartbeat(database, settings, conf.periodic_interval)
    heartbeat.start()
    client = EngineClient(LocalTransport(settings, database, queue))
    return EmbeddedEngine(database, settings, queue, heartbeat, client, claim)
