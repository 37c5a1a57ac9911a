"""``/healthcheck``: the liveness answer load balancers poll, as oslo.middleware gives it.

heat-api mounts it beside the API (so it has no request id and needs no auth). No
health checks are configured, so the service is healthy whenever it answers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from werkzeug.wrappers import Response

from keel_app.web.plain_errors import preferred_offer

PATH = "/healthcheck"
OFFERS = ("text/plain", "application/json", "text/html")

HTML_BODY = (
    "<HTML>\n<HEAD><TITLE>Healthcheck Status</TITLE></HEAD>\n<BODY>\n\n"
    "<H2>Result of 0 checks:</H2>\n"
    '<TABLE bgcolor="#ffffff" border="1">\n<TBODY>\n<TR>\n\n<TH>\nReason\n</TH>\n</TR>\n\n'
    "</TBODY>\n</TABLE>\n<HR></HR>\n\n</BODY>\n</HTML>"
)


def health_response(method: str, accept_header: str | None) -> Response:
    if method == "HEAD":
        response = Response(status=204)
        del response.headers["Content-Type"]
        return response
    # No Accept header accepts anything; nothing acceptable falls back to plain text.
    offer = preferred_offer(accept_header, OFFERS) if accept_header is not None else OFFERS[0]
    if offer == "application/json":
        body = json.dumps({"detailed": False, "reasons": []}, indent=4)
        content_type = "application/json"
    elif offer == "text/html":
        body = HTML_BODY
        content_type = "text/html; charset=UTF-8"
    else:
        body = ""
        content_type = "text/plain; charset=UTF-8"
    return Response(body.encode(), status=200, headers={"Content-Type": content_type})


class Healthcheck:
    def __init__(self, application: Any) -> None:
        self.application = application

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path == PATH or path.startswith(PATH + "/"):
            response = health_response(environ["REQUEST_METHOD"], environ.get("HTTP_ACCEPT"))
            return response(environ, start_response)
        return self.application(environ, start_response)
