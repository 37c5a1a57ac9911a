from __future__ import annotations

import pytest

from keel_app.engine.convergence.worker import Worker
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database


@pytest.fixture
def queue(database: Database, settings: EngineSettings) -> LocalQueue:
    """The in-process queue, its messages run by the convergence worker."""
    queue = LocalQueue()
    queue.handler = Worker(database, settings, queue).handle
    return queue
