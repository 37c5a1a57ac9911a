"""One WSGI environ from a request's description, built the same way in our tests and in
the oracle (which runs this file's text), so that both apps see exactly the same request.

Standard library only: the oracle's interpreter executes it too.
"""

from __future__ import annotations

import io
import sys
from typing import Any

SERVER_NAME = "heat.example.com"
SERVER_PORT = "8000"


def build_environ(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec``: method, path, query, headers (name -> value), body (latin-1 text or None)."""
    body = (spec.get("body") or "").encode("latin-1")
    environ: dict[str, Any] = {
        "REQUEST_METHOD": spec["method"],
        "SCRIPT_NAME": "",
        "PATH_INFO": spec["path"],
        "QUERY_STRING": spec.get("query", ""),
        "SERVER_NAME": SERVER_NAME,
        "SERVER_PORT": SERVER_PORT,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    for name, value in spec.get("headers", {}).items():
        key = name.upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = "HTTP_" + key
        environ[key] = value
    return environ


def call(application: Any, spec: dict[str, Any]) -> dict[str, Any]:
    """The application's answer: status code, headers and body (latin-1 text)."""
    started: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
        started["status"] = int(status.split(" ", 1)[0])
        started["headers"] = dict(headers)
        return lambda data: None

    chunks = application(build_environ(spec), start_response)
    try:
        body = b"".join(chunks)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
    return {
        "status": started["status"],
        "headers": started["headers"],
        "body": body.decode("latin-1"),
    }
