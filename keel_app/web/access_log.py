"""One INFO line per API request, as heat-api's server writes its access log::

    [req-…] 127.0.0.1 "GET /v1/admin/stacks?limit=2 HTTP/1.1" status: 200 len: 85 time: 3.1 ms

The request id is the one the answer carries in ``x-openstack-request-id`` ("-" for
what is answered before an id is given, as ``/healthcheck``). The line is written
when the server closes the answer, so that its time and length are the whole answer's.
"""

from __future__ import annotations

import logging
import time
import urllib.parse
from collections.abc import Iterable, Iterator
from typing import Any

from keel_app.web.request_id import REQUEST_ID_KEY, RESPONSE_HEADER

LOG = logging.getLogger(__name__)


class AccessLog:
    """WSGI middleware: the access line of every request ``application`` answers."""

    def __init__(self, application: Any) -> None:
        self.application = application

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        entry = _Entry(environ)

        def start_and_note(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            entry.note_start(status, headers)
            return start_response(status, headers, *rest)

        try:
            body = self.application(environ, start_and_note)
        except BaseException:
            entry.status = entry.status or "500"
            entry.write()
            raise
        return _LoggedBody(body, entry)


class _Entry:
    """What the line of one request says, gathered while it is answered."""

    def __init__(self, environ: dict[str, Any]) -> None:
        self.environ = environ
        self.started = time.monotonic()
        self.status = ""
        self.request_id = ""
        self.length = 0

    def note_start(self, status: str, headers: list[tuple[str, str]]) -> None:
        self.status = status.split(" ", 1)[0]
        for name, value in headers:
            if name.lower() == RESPONSE_HEADER:
                self.request_id = value

    def write(self) -> None:
        environ = self.environ
        path = urllib.parse.quote(environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", ""))
        if environ.get("QUERY_STRING"):
            path += "?" + environ["QUERY_STRING"]
        LOG.info(
            '[%s] %s "%s %s %s" status: %s len: %d time: %.1f ms',
            self.request_id or environ.get(REQUEST_ID_KEY) or "-",
            environ.get("REMOTE_ADDR", "-"),
            environ.get("REQUEST_METHOD", "-"),
            path,
            environ.get("SERVER_PROTOCOL", "-"),
            self.status or "-",
            self.length,
            (time.monotonic() - self.started) * 1000,
        )


class _LoggedBody:
    """The answer's body, passed through; closing it writes the line."""

    def __init__(self, body: Iterable[bytes], entry: _Entry) -> None:
        self._body = body
        self._entry = entry

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._body:
            self._entry.length += len(chunk)
            yield chunk

    def close(self) -> None:
        try:
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
        finally:
            self._entry.write()
