"""``GET /<tenant_id>/services``: the engines and whether each is up (admins only)."""

from __future__ import annotations

from typing import Any

from werkzeug.exceptions import NotFound

from keel_app.common.exception_wire import MessagingTimeout
from keel_app.common.fault_map import HttpError
from keel_app.web.faults import HttpFault
from keel_app.web.routing import Route
from keel_app.web.v1 import util
from keel_app.web.v1.stack_dispatch import refuse_body, resource_call

OTHER_METHODS = ["HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
SERVICE_UNAVAILABLE = HttpError(
    "HTTPServiceUnavailable",
    503,
    "Service Unavailable",
    "The server is currently unavailable. Please try again at a later time.",
)


@resource_call
@util.policy_checked("service", "index")
def index() -> dict[str, Any]:
    refuse_body()
    try:
        services = util.engine().list_services(util.context())
    except MessagingTimeout as error:
        raise HttpFault(SERVICE_UNAVAILABLE, "All heat engines are down.") from error
    return {"services": services}


def not_routed(**_url_values: Any) -> Any:
    # Heat connects this URL through a submapper, without the 405 and OPTIONS answers of
    # its other URLs: any other method matches no route at all.
    raise NotFound()


def routes() -> list[Route]:
    url = "/<tenant_id>/services"
    return [
        Route(url, "service_index", index, ["GET"]),
        Route(url, "service_other_methods", not_routed, OTHER_METHODS),
    ]
