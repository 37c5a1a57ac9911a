"""Fixtures of the CFN API tests: the CFN app (noauth) over an in-process engine.

The engine fixtures are the v1 tests' (a migrated SQLite database a test, the local
transport, convergence steps run by ``run_engine``); requests carry the noauth identity
headers, so the caller's project is ``PROJECT``.
"""

from __future__ import annotations

from pathlib import Path

import flask
import pytest
from flask.testing import FlaskClient

from keel_app.rpc.client import EngineClient
from keel_app.web.cfn import create_cfn_app
from tests.web.conftest import heat_conf
from tests.web.v1.conftest import (  # noqa: F401 (fixtures)
    HEADERS,
    PROJECT,
    USER,
    caller,
    database,
    engine_client,
    make_stack,
    queue,
    run_engine,
    settings,
)


@pytest.fixture
def app(tmp_path: Path, engine_client: EngineClient) -> flask.Flask:  # noqa: F811
    return create_cfn_app(
        {"TESTING": True, "HEAT_CONF": heat_conf(tmp_path), "ENGINE_CLIENT": engine_client}
    )


@pytest.fixture
def client(app: flask.Flask) -> FlaskClient:
    return app.test_client()
