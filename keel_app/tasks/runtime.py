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
from keel_app.engine.settings import EngineSettings, from_conf
from keel_app.models.database import Database


@dataclasses.dataclass
class WorkerRuntime:
    conf: Any
    database: Database
    settings: EngineSettings
    dispatcher: Any


_lock = threading.Lock()
_current: WorkerRuntime | None = None


def build(conf: Any, engine_id: str | None = None) -> WorkerRuntime:
    """A runtime for ``conf``: its database, settings and a Celery dispatcher."""
    # Imported here: the dispatcher needs the app, whose task modules import this one.
    from keel_app.tasks.dispatcher import CeleryDispatcher

    settings = from_conf(conf, engine_id=engine_id)
    database = Database.from_conf(conf)
    return WorkerRuntime(conf, database, settings, CeleryDispatcher(settings, database))


def install(runtime: WorkerRuntime | None) -> None:
    """Make ``runtime`` the one this process's tasks use (``None`` forgets it)."""
    global _current
    with _lock:
        _current = runtime


def current() -> WorkerRuntime:
    """The process's runtime, built from the default heat.conf on first use."""
    global _current
    with _lock:
        if _current is None:
            _current = build(config.load([]))
        return _current
