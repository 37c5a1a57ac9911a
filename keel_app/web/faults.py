"""Errors as Heat's fault middleware answers them: one JSON body shape for every failure.

``{"code", "title", "explanation", "error": {"type", "traceback", "message"}}``: the
HTTP error comes from the exception's class name (``fault_map``), the message is shown
only for exceptions marked safe (Heat's own), and the traceback only with
``[DEFAULT] debug``. A request sent as XML gets Heat's (degenerate) XML form.
"""

from __future__ import annotations

import json
import traceback
from typing import Any

import flask
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound
from werkzeug.wrappers import Response

from keel_app.common.exception import HeatException
from keel_app.common.fault_map import HttpError, http_error_for
from keel_app.web import plain_errors
from keel_app.web.request_id import REQUEST_ID_KEY

TRACEBACK_MARKER = "Traceback (most recent call last)"
# Errors from the engine over RPC carry this suffix on their class name, and the
# remote traceback after the first line of their message.
REMOTE_SUFFIX = "_Remote"

# webob gives 405 no explanation of its own, so it inherits the 4xx one.
METHOD_NOT_ALLOWED = HttpError(
    "HTTPMethodNotAllowed",
    405,
    "Method Not Allowed",
    "The server could not comply with the request since it is either malformed or "
    "otherwise incorrect.",
)
# The methods Heat's router knows; any other one matches no route at all.
ROUTED_METHODS = ("HEAD", "GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


class HttpFault(Exception):
    """An HTTP error a view (or a hook) answers on purpose, with an optional detail.

    Heat's controllers raise webob's HTTP errors for these; the body names that class.
    """

    safe = True

    def __init__(self, error: HttpError, detail: str | None = None) -> None:
        super().__init__(detail or error.explanation)
        self.error = error
        self.detail = detail


def fault_body(exception: BaseException, debug: bool) -> dict[str, Any]:
    trace: str | None = None
    safe = getattr(exception, "safe", False)
    if isinstance(exception, HttpFault):
        http_error = exception.error
        type_name = http_error.name
        message = str(exception)
        if debug:
            trace = "".join(traceback.format_tb(exception.__traceback__))
    else:
        http_error = http_error_for(type(exception))
        type_name, message, message_trace = describe(exception)
        if debug:
            trace = message_trace
    error: dict[str, Any] = {"type": type_name, "traceback": trace}
    if safe:
        error["message"] = message
    return {
        "code": http_error.code,
        "title": http_error.title,
        "explanation": http_error.explanation,
        "error": error,
    }


def describe(exception: BaseException) -> tuple[str, str, str]:
    """The type name, message and traceback text the body reports for an exception."""
    type_name = type(exception).__name__
    is_remote = type_name.endswith(REMOTE_SUFFIX)
    if is_remote:
        type_name = type_name[: -len(REMOTE_SUFFIX)]
    full_message = str(exception)
    if is_remote and "\n" in full_message:
        message, trace = full_message.split("\n", 1)
    elif TRACEBACK_MARKER in full_message:
        message, trace = full_message.split(TRACEBACK_MARKER, 1)
        message = message.rstrip("\n")
        trace = TRACEBACK_MARKER + trace
    else:
        message = full_message
        trace = current_traceback(exception)
    if isinstance(exception, HeatException):
        message = exception.message
    return type_name, message, trace


def current_traceback(exception: BaseException) -> str:
    # An exception that was never raised has no traceback; Heat writes "None" then.
    if exception.__traceback__ is None:
        return "None\n"
    return "".join(traceback.format_exception(exception))


def fault_response(body: dict[str, Any]) -> Response:
    if (flask.request.content_type or "").split(";")[0].strip() == "application/xml":
        # Heat's XML serializer keeps only the first key of the body.
        return Response(
            f"<code>{body['code']}</code>".encode(),
            status=body["code"],
            headers={"Content-Type": "application/xml; charset=UTF-8"},
        )
    return Response(
        json.dumps(body).encode("latin-1"),
        status=body["code"],
        headers={"Content-Type": "application/json"},
    )


def handle_exception(exception: Exception) -> Response:
    debug = flask.current_app.config["HEAT_DEBUG"]
    if not isinstance(exception, HeatException | HttpFault):
        flask.current_app.logger.error(
            "[%s] Unexpected error occurred serving API: %s",
            flask.request.environ.get(REQUEST_ID_KEY, "-"),
            exception,
            exc_info=exception if debug else None,
        )
    return fault_response(fault_body(exception, debug))


def handle_http_exception(exception: HTTPException) -> Response:
    accept = flask.request.headers.get("Accept", "")
    if isinstance(exception, MethodNotAllowed):
        if flask.request.method not in ROUTED_METHODS:
            return plain_errors.not_found(accept)
        return handle_exception(HttpFault(METHOD_NOT_ALLOWED))
    if isinstance(exception, NotFound):
        return plain_errors.not_found(accept)
    code = exception.code or 500
    error = HttpError(type(exception).__name__, code, exception.name, exception.description or "")
    return handle_exception(HttpFault(error))


def install(app: flask.Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_exception)
