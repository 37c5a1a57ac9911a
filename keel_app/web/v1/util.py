"""What every v1 view shares: the engine client, the project and policy checks made
before a view runs, stack identities from URLs, links, and query parameters.

A view is declared with ``@policy_checked(scope, action)`` (Heat's
``registered_policy_enforce``): the ``tenant_id`` of the URL must be the caller's
project (an admin's project stands in for any), and the registered policy
``<scope>:<action>`` must allow the caller on the target ``{"project_id": tenant_id}``.
``@identified_stack`` also turns ``stack_name``/``stack_id`` into Heat's identity dict.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import flask

from keel_app.common.context import RequestContext
from keel_app.common.fault_map import FORBIDDEN
from keel_app.common.identifier import HeatIdentifier
from keel_app.rpc.client import EngineClient
from keel_app.web import policy, request_context
from keel_app.web.faults import HttpFault

ENGINE_CLIENT_KEY = "ENGINE_CLIENT"

View = Callable[..., Any]


def engine() -> EngineClient:
    """The engine client the app was made with (``create_app({"ENGINE_CLIENT": …})``)."""
    client: EngineClient = flask.current_app.config[ENGINE_CLIENT_KEY]
    return client


def context() -> RequestContext:
    return request_context.current()


def checked_tenant(caller: RequestContext, tenant_id: str) -> str:
    """The project a request acts in: the URL's, which must be the caller's own.

    Heat redirects an admin to the stack owner's project, so an admin's own project
    replaces whatever the URL names.
    """
    if caller.is_admin and caller.project_id:
        tenant_id = caller.project_id
    if caller.project_id != tenant_id:
        raise HttpFault(FORBIDDEN)
    return tenant_id


def policy_checked(scope: str, action: str) -> Callable[[View], View]:
    """The view runs only for the URL's own project and when ``scope:action`` allows."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def checked(tenant_id: str, **url_values: Any) -> Any:
            caller = context()
            tenant = checked_tenant(caller, tenant_id)
            policy.enforce(caller, scope, action, {"project_id": tenant})
            return view(**url_values)

        return checked

    return decorate


def identified_stack(scope: str, action: str) -> Callable[[View], View]:
    """As ``policy_checked``, the view getting ``identity`` for the URL's stack."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def with_identity(stack_name: str, stack_id: str, **url_values: Any) -> Any:
            identity = dict(HeatIdentifier(context().project_id or "", stack_name, stack_id))
            return view(identity=identity, **url_values)

        return policy_checked(scope, action)(with_identity)

    return decorate


def make_url(identity: Mapping[str, Any]) -> str:
    """The absolute URL of a stack (or of a path below it) from its identity dict."""
    path = HeatIdentifier(**identity).url_path()
    return flask.request.host_url.rstrip("/") + flask.request.script_root + "/" + path


def make_link(identity: Mapping[str, Any], relationship: str = "self") -> dict[str, str]:
    return {"href": make_url(identity), "rel": relationship}


SINGLE = "single"
MULTI = "multi"
MIXED = "mixed"


def query_value(name: str) -> str | None:
    """A query parameter as webob's ``params.get`` reads it: the last of repeated ones."""
    values = flask.request.args.getlist(name)
    return values[-1] if values else None


def allowed_params(param_types: Mapping[str, str]) -> dict[str, Any]:
    """The query parameters named in ``param_types``, each as its type says (Heat's
    ``get_allowed_params``): ``single`` the last value (``query_value``), ``multi`` a
    list, ``mixed`` a list unless there is one value. Empty values are left out."""
    allowed: dict[str, Any] = {}
    for key, kind in param_types.items():
        value: Any
        if kind == SINGLE:
            value = query_value(key)
        else:
            value = flask.request.args.getlist(key)
            if kind == MIXED and len(value) == 1:
                value = value[0]
        if value:
            allowed[key] = value
    return allowed
