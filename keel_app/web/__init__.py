"""The native API (heat-api v1) as a Flask application.

Request flow, outermost first, as in heat-api's ``noauth`` pipeline: the access log,
``/healthcheck`` and the stack view's static page (``/stack-view/``) beside everything,
the CORS filter's rule for OPTIONS, request id,
version negotiation (``/`` and ``/versions`` answered there), then Flask: the auth
flavor, the request context, the JSON body, the v1 routes; every error leaves through
``faults``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import flask
from oslo_config import cfg

from keel_app.common import config as heat_config
from keel_app.rpc.client import EngineClient
from keel_app.web import auth_keystone, auth_noauth, faults, request_body, request_context, v1
from keel_app.web.access_log import AccessLog
from keel_app.web.cors import cors_filter
from keel_app.web.healthcheck import Healthcheck
from keel_app.web.json_provider import HeatJSONProvider
from keel_app.web.request_id import RequestId
from keel_app.web.routing import DeclaredMethodsRule
from keel_app.web.stack_view import StackView
from keel_app.web.v1.util import ENGINE_CLIENT_KEY
from keel_app.web.version_negotiation import VersionNegotiation

NOAUTH_FLAVOR = "noauth"


def create_app(config: Mapping[str, Any] | None = None) -> flask.Flask:
    """The native API; ``config["HEAT_CONF"]`` is the parsed heat.conf (loaded when absent),
    ``config["ENGINE_CLIENT"]`` the ``EngineClient`` the views call (by default one over
    the Celery transport, made from heat.conf)."""
    app = flask.Flask(__name__)
    app.json = HeatJSONProvider(app)
    app.url_rule_class = DeclaredMethodsRule
    app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False
    if config is not None:
        app.config.update(config)
    conf: cfg.ConfigOpts = app.config.get("HEAT_CONF") or heat_config.load([])
    app.config["HEAT_CONF"] = conf
    app.config["HEAT_DEBUG"] = conf.debug
    if app.config.get(ENGINE_CLIENT_KEY) is None:
        app.config[ENGINE_CLIENT_KEY] = celery_engine_client(conf)

    install_auth(app, conf)
    request_context.install(app)
    request_body.install(app, conf.max_json_body_size)
    faults.install(app)
    app.register_blueprint(v1.blueprint())

    app.wsgi_app = AccessLog(  # type: ignore[method-assign]
        Healthcheck(StackView(cors_filter(RequestId(VersionNegotiation(app.wsgi_app)), conf)))
    )
    return app


def celery_engine_client(conf: cfg.ConfigOpts) -> EngineClient:
    """An engine client whose calls travel as ``keel.engine_call`` tasks on heat.conf's broker."""
    # Imported here: the Celery app is only needed by an API that talks to a broker.
    from keel_app.tasks import app as celery_app
    from keel_app.tasks.engine_rpc import engine_client

    celery_app.configure(conf)
    return engine_client(conf.auth_encryption_key)


def install_auth(app: flask.Flask, conf: cfg.ConfigOpts) -> None:
    """``[paste_deploy] flavor``: ``noauth``, else (Heat's default) Keystone tokens."""
    if conf.paste_deploy.flavor == NOAUTH_FLAVOR:
        auth_noauth.install(app, conf.noauth.token_response)
    else:
        auth_keystone.install(app, conf)
