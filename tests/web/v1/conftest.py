"""Fixtures of the v1 route tests: the native API app (noauth) over an in-process engine.

The app's ``EngineClient`` uses the local transport on a migrated SQLite database, and
convergence steps wait on the in-process queue until a test runs them with
``run_engine``. Requests go through Flask's test client with the noauth identity
headers, ``X-Auth-User`` / ``X-Auth-Project``; the caller's project is ``PROJECT``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask
import pytest
from flask.testing import FlaskClient
from heatclient import client as heat_client
from werkzeug.serving import make_server

from keel_app.common.context import RequestContext
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.rpc.client import EngineClient
from keel_app.rpc.local import LocalTransport
from keel_app.web import create_app
from tests import databases
from tests.models.api.factories import migrated_database
from tests.web.conftest import heat_conf

PROJECT = "project-a"
USER = "alice"
HEADERS = {"X-Auth-User": USER, "X-Auth-Project": PROJECT}


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    # Routes only translate HTTP into engine calls: the database engines are the engine
    # tests' business, so one SQLite database per test is enough here.
    with databases.fresh_database("sqlite", tmp_path) as url:
        database = migrated_database(url)
        yield database
        database.dispose()


@pytest.fixture
def settings() -> EngineSettings:
    return EngineSettings(host="engine-host", engine_id="engine-1")


@pytest.fixture
def queue(database: Database, settings: EngineSettings) -> LocalQueue:
    queue = LocalQueue()
    queue.handler = Worker(database, settings, queue).handle
    return queue


@pytest.fixture
def engine_client(settings: EngineSettings, database: Database, queue: LocalQueue) -> EngineClient:
    return EngineClient(LocalTransport(settings, database, queue))


@pytest.fixture
def app(tmp_path: Path, engine_client: EngineClient) -> flask.Flask:
    return create_app(
        {"TESTING": True, "HEAT_CONF": heat_conf(tmp_path), "ENGINE_CLIENT": engine_client}
    )


@pytest.fixture
def client(app: flask.Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def run_engine(queue: LocalQueue) -> Any:
    """Run the convergence steps the requests so far have sent, to the end."""
    return queue.run_until_idle


def v1(path: str) -> str:
    """``path`` below the caller's project in the v1 API: ``v1("stacks")``."""
    return f"/v1/{PROJECT}/{path}"


@pytest.fixture
def caller() -> RequestContext:
    """The API caller's project and user as the engine sees them, for calls made straight
    to the engine (setting up what a test then reads through the API)."""
    return RequestContext(
        user_id=USER, username=USER, project_id=PROJECT, roles=["admin", "member", "reader"]
    )


@pytest.fixture
def make_stack(engine_client: EngineClient, caller: RequestContext, run_engine: Any) -> Any:
    """``make_stack(name, template, files=…)``: a stack created through the engine and run
    to the end of its create; its identity."""

    def make(name: str, template: dict[str, Any], files: dict[str, str] | None = None) -> Any:
        identity = engine_client.create_stack(caller, name, template, {}, files or {}, {})
        run_engine()
        return identity

    return make


@pytest.fixture
def heat(app: flask.Flask) -> Iterator[Any]:
    """python-heatclient's v1 client of the app, served by a WSGI server thread on a
    loopback port (noauth: the client's caller is the admin of project ``admin``)."""
    server = make_server("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        endpoint = f"http://127.0.0.1:{server.server_port}/v1/admin"
        yield heat_client.Client("1", endpoint=endpoint, token="unused")
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
