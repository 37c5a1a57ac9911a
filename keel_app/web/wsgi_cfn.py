"""The CFN API as a WSGI application for any WSGI server (Heat's ``heat-wsgi-api-cfn``).

    gunicorn 'keel_app.web.wsgi_cfn:application'
    uwsgi --module keel_app.web.wsgi_cfn:application

heat.conf is read as for the native API's module (``keel_app.web.wsgi_conf``); calls go
to the engines over its broker.
"""

from __future__ import annotations

from keel_app.web.cfn import create_cfn_app
from keel_app.web.wsgi_conf import heat_conf

application = create_cfn_app({"HEAT_CONF": heat_conf()})
