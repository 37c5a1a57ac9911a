from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import flask
import pytest
from oslo_config import cfg

from keel_app.common import config, exception
from keel_app.web import create_app, request_body, request_context
from keel_app.web.routing import Route, connect
from tests.web.heat_api import MAX_JSON_BODY_SIZE

# The routes every web test app gets besides the real ones: a URL with GET and POST,
# as heat-api's stack collection has, whose views show what the hooks prepared.
PROBE_URL = "/<tenant_id>/probe"


def probe_blueprint() -> flask.Blueprint:
    blueprint = flask.Blueprint("probe", __name__)

    def show(tenant_id: str) -> dict[str, Any]:
        return {"context": request_context.current().to_dict(), "body": request_body.body()}

    def fail(tenant_id: str) -> dict[str, Any]:
        raise RuntimeError("a bug in a view")

    def missing(tenant_id: str) -> dict[str, Any]:
        raise exception.EntityNotFound(entity="Stack", name=tenant_id)

    connect(
        blueprint,
        [
            Route(PROBE_URL, "show", show, ["GET"]),
            Route(PROBE_URL, "show_body", show, ["POST"]),
            Route("/<tenant_id>/broken", "fail", fail, ["GET"]),
            Route("/<tenant_id>/missing", "missing", missing, ["GET"]),
        ],
    )
    return blueprint


def heat_conf(tmp_path: Path, *, debug: bool = False, extra: str = "") -> cfg.ConfigOpts:
    path = tmp_path / "heat.conf"
    path.write_text(
        f"[DEFAULT]\ndebug = {debug}\nmax_json_body_size = {MAX_JSON_BODY_SIZE}\n{extra}"
        "[paste_deploy]\nflavor = noauth\n"
    )
    return config.load(["--config-file", str(path)])


@pytest.fixture
def make_app(tmp_path: Path) -> Callable[..., flask.Flask]:
    def make(*, debug: bool = False, extra: str = "") -> flask.Flask:
        app = create_app(
            {"TESTING": True, "HEAT_CONF": heat_conf(tmp_path, debug=debug, extra=extra)}
        )
        app.register_blueprint(probe_blueprint())
        return app

    return make


@pytest.fixture
def app(make_app: Callable[..., flask.Flask]) -> flask.Flask:
    return make_app()
