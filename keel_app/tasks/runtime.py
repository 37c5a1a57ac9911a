"""What a worker process runs tasks with: one database, one engine identity, one way out.

A worker builds its ``WorkerRuntime`` once (``keel-worker`` at start-up, or the first
task that finds none, from the default heat.conf) and every task of the process shares
it: the database's connection pool, the engine id written into the locks it takes, and
the dispatcher that sends the next steps.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

from keel_app.common import config
from keel_app.engine import notification
from keel_app.engine.environment import global_environment
from keel_app.engine.settings import EngineSettings, from_conf
from keel_app.models.database import Database


@dataclasses.dataclass
class WorkerRuntime:
    conf: Any
    database: Database
    settings: EngineSettings
    dispatcher: Any
    # Where the engine's stack notifications go (None: dropped, Heat's default).
    notifier: Any = None


_lock = threading.Lock()
_current: WorkerRuntime | None = None


def build(conf: Any, engine_id: str | None = None) -> WorkerRuntime:
    """A runtime for ``conf``: its database, settings and a Celery dispatcher."""
    # Imported here: the dispatcher needs the app, whose task modules import this one.
    from keel_app.compat_oslo import caller, notifier
    from keel_app.tasks.dispatcher import CeleryDispatcher

    # Heat's engine checks the resource type policy with the API's policy enforcer.
    from keel_app.web import policy

    global_environment.initialise(conf.environment_dir, conf.template_dir)
    refusal = policy.resource_type_refusal(conf)
    settings = from_conf(conf, engine_id=engine_id, resource_type_policy=refusal)
    database = Database.from_conf(conf)
    dispatcher = CeleryDispatcher(settings, database, caller.heat_engine_asker(conf))
    return WorkerRuntime(conf, database, settings, dispatcher, notifier.from_conf(conf))


def install(runtime: WorkerRuntime | None) -> None:
    """Make ``runtime`` the one this process's tasks use (``None`` forgets it), its
    notifier the one the engine notifies stack states with."""
    global _current
    with _lock:
        _current = runtime
    notification.install(runtime.notifier if runtime is not None else None)


def current() -> WorkerRuntime:
    """The process's runtime, built from the default heat.conf on first use."""
    global _current
    with _lock:
        if _current is None:
            _current = build(config.load([]))
            notification.install(_current.notifier)
        return _current
