"""The native API as a WSGI application for any WSGI server (Heat's ``heat-wsgi-api``).

    gunicorn 'keel_app.web.wsgi:application'
    uwsgi --module keel_app.web.wsgi:application

heat.conf comes from ``keel_app.web.wsgi_conf`` (``$KEEL_CONFIG_FILE``, or Heat's default
locations); calls go to the engines over heat.conf's broker.
"""

from __future__ import annotations

from keel_app.web import create_app
from keel_app.web.wsgi_conf import heat_conf

application = create_app({"HEAT_CONF": heat_conf()})
