"""Every request gets an id, returned in ``x-openstack-request-id`` (oslo.middleware's rules).

A caller may pass its own id in ``X-OpenStack-Request-ID``; when well formed it becomes
the global request id that follows the work into other services.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from keel_app.common.context import generate_request_id

REQUEST_ID_KEY = "openstack.request_id"
GLOBAL_REQUEST_ID_KEY = "openstack.global_request_id"
RESPONSE_HEADER = "x-openstack-request-id"
INBOUND_HEADER_KEY = "HTTP_X_OPENSTACK_REQUEST_ID"
REQUEST_ID_FORMAT = re.compile(
    r"^req-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$"
)


class RequestId:
    def __init__(self, application: Any) -> None:
        self.application = application

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        inbound = environ.get(INBOUND_HEADER_KEY, "")
        if REQUEST_ID_FORMAT.match(inbound):
            environ[GLOBAL_REQUEST_ID_KEY] = inbound
        request_id = generate_request_id()
        environ[REQUEST_ID_KEY] = request_id

        def start_with_id(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            if not any(name.lower() == RESPONSE_HEADER for name, _ in headers):
                headers = [*headers, (RESPONSE_HEADER, request_id)]
            return start_response(status, headers, *rest)

        return self.application(environ, start_with_id)
