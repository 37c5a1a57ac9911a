"""The native API as a WSGI application for any WSGI server (Heat's ``heat-wsgi-api``).

    gunicorn 'keel_app.web.wsgi:application'
    uwsgi --module keel_app.web.wsgi:application

heat.conf is read from ``$KEEL_CONFIG_FILE`` (paths separated by commas) or else from
Heat's default locations (``/etc/heat/heat.conf`` among them); calls go to the engines
over heat.conf's broker.
"""

from __future__ import annotations

import os
import threading

import flask

from keel_app.common import config
from keel_app.web import create_app

CONFIG_FILE_ENV = "KEEL_CONFIG_FILE"

_lock = threading.Lock()
_application: flask.Flask | None = None


def init_application() -> flask.Flask:
    """The app for this process's heat.conf, made on first call."""
    global _application
    with _lock:
        if _application is None:
            argv: list[str] = []
            for path in filter(None, os.environ.get(CONFIG_FILE_ENV, "").split(",")):
                argv += ["--config-file", path]
            _application = create_app({"HEAT_CONF": config.load(argv)})
        return _application


application = init_application()
