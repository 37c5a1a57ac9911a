"""What heat-api's outermost filter, oslo.middleware's CORS, does to every OPTIONS request.

The filter lets the request through, and when the answer is not a success it throws it
away for a bare ``200 OK`` (no body, no type, and so none of the headers set further in,
the request id among them). An OPTIONS request for an unknown URL, or for ``/`` and
``/versions``, is therefore answered 200; a route's own OPTIONS answer (204) stays.
The preflight headers the filter adds for origins listed in ``[cors]`` are not
produced: OpenKeel reads no ``[cors]`` options.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

WSGIApplication = Callable[[dict[str, Any], Any], Iterable[bytes]]

BARE_STATUS = "200 OK"
BARE_HEADERS = [("Content-Length", "0")]


class OptionsAnswer:
    def __init__(self, application: WSGIApplication) -> None:
        self.application = application

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "OPTIONS":
            return self.application(environ, start_response)
        started: list[tuple[str, list[tuple[str, str]]]] = []
        body: list[bytes] = []

        def capture(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            started.append((status, headers))
            return body.append

        # The whole answer is read first: its status is known only once it has started.
        answer = self.application(environ, capture)
        try:
            body.extend(answer)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        status, headers = started[-1]
        if 200 <= int(status.split(" ", 1)[0]) < 300:
            start_response(status, headers)
            return body
        start_response(BARE_STATUS, list(BARE_HEADERS))
        return []
