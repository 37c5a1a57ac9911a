"""How heat-api's ``wsgi.Resource`` calls a stack controller, where that is observable.

Heat passes the JSON body to a controller method as its ``body`` argument: a method
that needs one and gets none, or gets one it does not take, fails with ``TypeError``,
and Heat answers any ``TypeError`` of a controller with a bare 400. Engine calls go
through ``call``, which also reaches engine methods the client does not name yet.
"""

from __future__ import annotations

import functools
from typing import Any

from keel_app.common.fault_map import BAD_REQUEST
from keel_app.rpc.contract import HEAT_ENGINE_API
from keel_app.web import request_body
from keel_app.web.faults import HttpFault
from keel_app.web.v1 import util


def resource_call(view: util.View) -> util.View:
    """The view, a ``TypeError`` anywhere in it answered as Heat's dispatcher answers it."""

    @functools.wraps(view)
    def dispatched(**url_values: Any) -> Any:
        try:
            return view(**url_values)
        except TypeError:
            raise HttpFault(BAD_REQUEST) from None

    return dispatched


def required_body() -> dict[str, Any]:
    """The request's JSON body, which the view cannot do without."""
    body = request_body.body()
    if body is None:
        raise TypeError("missing the body argument")
    return body


def refuse_body() -> None:
    """For the views that take no body: sending one is a malformed request."""
    if request_body.body() is not None:
        raise TypeError("unexpected body argument")


def call(method: str, **arguments: Any) -> Any:
    """The engine's ``method`` with Heat's defaults for the arguments not given."""
    client = util.engine()
    named = getattr(client, method, None)
    if named is not None:
        return named(util.context(), **arguments)
    signature = HEAT_ENGINE_API[method]
    full = {**signature.optional, **signature.internal, **arguments}
    return client.call(util.context(), method, full, signature.version)
