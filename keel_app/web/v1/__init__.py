"""heat-api v1: every route of the native API, one module a controller of Heat's.

Each module gives ``routes()``, the URLs (below ``/v1``, starting with ``/<tenant_id>``)
with their methods and views; ``blueprint()`` joins them, so that every URL answers
OPTIONS and refuses the methods it was not declared with as heat-api's router does.
"""

from __future__ import annotations

import importlib

import flask

from keel_app.web.routing import Route, connect

# In the order heat-api's router connects its controllers: a URL matched by two routes
# goes to the one declared first.
ROUTE_MODULES = (
    "stacks",
    "actions",
    "catalog",
    "resources",
    "events",
    "stack_watch",
    "software_configs",
    "software_deployments",
    "services",
    "build_info",
)


def all_routes() -> list[Route]:
    routes: list[Route] = []
    for name in ROUTE_MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        routes.extend(module.routes())
    return routes


def blueprint() -> flask.Blueprint:
    v1 = flask.Blueprint("v1", __name__)
    connect(v1, all_routes())
    return v1
