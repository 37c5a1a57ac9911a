"""The CFN API as a WSGI application for any WSGI server (Heat's ``heat-wsgi-api-cfn``).

    gunicorn 'keel_app.web.wsgi_cfn:application'
    uwsgi --module keel_app.web.wsgi_cfn:application

heat.conf is read as for the native API's module (``$KEEL_CONFIG_FILE``, paths separated
by commas, or else Heat's default locations); calls go to the engines over its broker.
"""

from __future__ import annotations

import os
import threading

import flask

from keel_app.common import config
from keel_app.web.cfn import create_cfn_app

CONFIG_FILE_ENV = "KEEL_CONFIG_FILE"

_lock = threading.Lock()
_application: flask.Flask | None = None


def init_application() -> flask.Flask:
    """The CFN app for this process's heat.conf, made on first call."""
    global _application
    with _lock:
        if _application is None:
            argv: list[str] = []
            for path in filter(None, os.environ.get(CONFIG_FILE_ENV, "").split(",")):
                argv += ["--config-file", path]
            _application = create_cfn_app({"HEAT_CONF": config.load(argv)})
        return _application


application = init_application()
