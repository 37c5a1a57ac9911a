"""Fixtures of the RPC tests: the engine fixtures (database on each engine, settings, a
caller, the in-process queue) and a client over the local transport."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.rpc.client import EngineClient
from keel_app.rpc.local import LocalTransport
from tests.engine.conftest import context, database, settings  # noqa: F401
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE
from tests.engine.service.conftest import queue  # noqa: F401


@pytest.fixture
def local_client(settings: EngineSettings, database: Database, queue: LocalQueue) -> EngineClient:  # noqa: F811
    return EngineClient(LocalTransport(settings, database, queue))


def create_web_stack(client: EngineClient, caller: Any, **args: Any) -> dict[str, Any]:
    """The chain stack of the service tests, created through ``client``."""
    return client.create_stack(caller, "web", TEMPLATE, ENVIRONMENT, {}, args)


@pytest.fixture
def identity(local_client: EngineClient, context: Any, queue: LocalQueue) -> dict[str, Any]:  # noqa: F811
    """The chain stack, created through the local client and run to CREATE_COMPLETE."""
    identity = create_web_stack(local_client, context)
    queue.run_until_idle()
    return identity
