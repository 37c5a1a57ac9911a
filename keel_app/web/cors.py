"""heat-api's outermost filter: oslo.middleware's CORS, read from heat.conf's ``[cors]``.

Heat mounts the library's filter with defaults of its own for the headers and methods a
browser may use; OpenKeel mounts the same filter with the same defaults, so an operator's
``[cors]`` section (``allowed_origin``, ``allow_credentials``, ``max_age``, ...) means what
it means to Heat. Whatever the origin, an OPTIONS request whose answer is not a success
is answered a bare ``200 OK`` (no body, no type, no request id), so an OPTIONS request for
an unknown URL, or for ``/`` and ``/versions``, gets 200; a route's own OPTIONS answer
(204) stays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from oslo_config import cfg
from oslo_middleware import cors

WSGIApplication = Callable[[dict[str, Any], Any], Iterable[bytes]]

HEAT_ALLOW_HEADERS = [
    "X-Auth-Token",
    "X-Identity-Status",
    "X-Roles",
    "X-Service-Catalog",
    "X-User-Id",
    "X-Tenant-Id",
    "X-OpenStack-Request-ID",
]
HEAT_EXPOSE_HEADERS = [
    "X-Auth-Token",
    "X-Subject-Token",
    "X-Service-Token",
    "X-OpenStack-Request-ID",
]
HEAT_ALLOW_METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH"]


def set_heat_defaults() -> None:
    """Heat's defaults for the ``[cors]`` options (the library keeps them process-wide)."""
    cors.set_defaults(
        allow_headers=HEAT_ALLOW_HEADERS,
        expose_headers=HEAT_EXPOSE_HEADERS,
        allow_methods=HEAT_ALLOW_METHODS,
    )


def cors_filter(application: WSGIApplication, conf: cfg.ConfigOpts) -> WSGIApplication:
    """``application`` behind the CORS filter configured by ``conf``'s ``[cors]``."""
    set_heat_defaults()
    return cors.CORS(application, conf)  # type: ignore[return-value]
