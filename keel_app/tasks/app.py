"""The Celery application of the OpenKeel worker fleet.

Its settings come from ``celeryconfig`` (queues, routes, late acknowledgement, task
events); ``configure`` lays heat.conf over them: the broker is heat.conf's
``transport_url`` when one is set, unless ``KEEL_BROKER_URL`` says otherwise.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery

import celeryconfig

TASK_MODULES = ("keel_app.tasks.convergence", "keel_app.tasks.engine_rpc")

app = Celery("openkeel", include=list(TASK_MODULES))
app.config_from_object(celeryconfig)

# oslo.messaging's scheme for RabbitMQ; kombu calls the same broker amqp.
_SCHEMES = {"rabbit": "amqp", "kombu+rabbit": "amqp"}


def broker_url_from_transport_url(transport_url: str) -> str:
    """heat.conf's ``transport_url`` as a kombu broker URL (one broker per comma)."""
    scheme, separator, rest = transport_url.partition("://")
    if not separator:
        raise ValueError(f"Invalid transport_url: {transport_url!r}")
    return f"{_SCHEMES.get(scheme, scheme)}://{rest}"


def configure(conf: Any) -> Celery:
    """Point the app at heat.conf's broker and reply timeout; returns the app."""
    if not os.environ.get("KEEL_BROKER_URL") and conf.transport_url:
        app.conf.broker_url = broker_url_from_transport_url(conf.transport_url)
    app.conf.keel_rpc_response_timeout = conf.rpc_response_timeout
    return app
