"""Is an engine alive? Asked of the worker process that holds the engine id.

Heat asks an engine holding a lock whether it still listens (``listening`` on its
``heat-engine-listener`` queue, two seconds to answer). An OpenKeel engine is one
``keel-worker`` process whose Celery node name carries its engine id, so the question is
a Celery ``ping`` sent to that node alone: its consumer answers even when every pool slot
is busy, and a killed process answers nothing.
"""

from __future__ import annotations

import socket

import sqlalchemy as sa

from keel_app.models.database import Database
from keel_app.models.service import Service
from keel_app.tasks.app import app

LISTENING_TIMEOUT = 2.0
NODE_PREFIX = "keel-engine-"


def node_name(engine_id: str, hostname: str | None = None) -> str:
    """The Celery node name of the worker process that is engine ``engine_id``."""
    return f"{NODE_PREFIX}{engine_id}@{hostname or socket.gethostname()}"


def engine_hostname(database: Database, engine_id: str) -> str | None:
    """The machine the engine registered from, or ``None`` if it never registered."""
    with database.transaction() as session:
        return session.scalar(
            sa.select(Service.hostname)
            .where(Service.engine_id == engine_id, Service.deleted_at.is_(None))
            .limit(1)
        )


def is_engine_alive(database: Database, engine_id: str, timeout: float = LISTENING_TIMEOUT) -> bool:
    """Whether the engine answers within ``timeout`` seconds."""
    hostname = engine_hostname(database, engine_id)
    if hostname is None:
        # Stopped engines delete their row; one that never registered cannot be asked.
        return False
    destination = node_name(engine_id, hostname)
    replies = app.control.ping(destination=[destination], timeout=timeout)
    return any(destination in reply for reply in replies)
