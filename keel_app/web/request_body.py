"""The JSON request body, read and checked before any view runs (Heat's deserializer rules).

A body counts only when it is declared (Content-Length), is JSON (or has no or a
text/plain content type, which old clients send) and starts with ``{``; anything else
is no body at all. A body over ``max_json_body_size`` is refused before it is read.
"""

from __future__ import annotations

import json
from typing import Any

import flask
from werkzeug.exceptions import NotFound

from keel_app.common.exception import RequestLimitExceeded
from keel_app.common.fault_map import BAD_REQUEST
from keel_app.web.faults import HttpFault

JSON_CONTENT_TYPES = ("JSON", "application/json")


def declared_content_type(request: flask.Request) -> str:
    # Compared as sent (no case folding), parameters left out.
    header_type = (request.content_type or "").split(";")[0].strip()
    if request.method == "GET":
        # The CFN API's clients name the type in a query parameter; it wins.
        content_type = request.args.get("ContentType") or header_type
    else:
        content_type = header_type
    if not content_type or content_type.startswith("text/plain"):
        return "application/json"
    return content_type


def read_body(request: flask.Request, max_size: int) -> dict[str, Any] | None:
    length = request.content_length or 0
    if length <= 0 or declared_content_type(request) not in JSON_CONTENT_TYPES:
        return None
    stream = request.stream
    first_byte = stream.read(1)
    if first_byte != b"{":
        return None
    if length > max_size:
        raise RequestLimitExceeded(
            message=f"JSON body size ({length} bytes) exceeds maximum allowed size "
            f"({max_size} bytes)."
        )
    data = first_byte + stream.read()
    try:
        return json.loads(data.decode("utf-8"))
    except ValueError as error:
        raise HttpFault(BAD_REQUEST, str(error)) from error


def body() -> dict[str, Any] | None:
    """The request's JSON body, or None when it has none."""
    return flask.g.body


def install(app: flask.Flask, max_size: int) -> None:
    def parse_body() -> None:
        flask.g.body = None
        # An unknown route never reaches Heat's deserializer; a known route with a
        # method it lacks does (its 405 comes from a controller too).
        if isinstance(flask.request.routing_exception, NotFound):
            return
        flask.g.body = read_body(flask.request, max_size)

    app.before_request(parse_body)
