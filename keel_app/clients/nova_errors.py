"""Nova's errors as Heat reports them: python-novaclient's classes and messages.

Heat's Nova resources fail with novaclient's exceptions, so a failure reads
``<class>: resources.<name>: <Nova's message> (HTTP <code>) (Request-ID: req-...)``; the
class is the one novaclient maps the status code to (``BadRequest``, ``NotFound``,
``Conflict``...), ``ClientException`` for any other code.

    ClientException
    ├── BadRequest (400)     ├── MethodNotAllowed (405)   ├── RetryAfterException
    ├── Unauthorized (401)   ├── NotAcceptable (406)      │   ├── OverLimit (413)
    ├── Forbidden (403)      ├── Conflict (409)           │   └── RateLimit (429)
    ├── NotFound (404)       └── HTTPNotImplemented (501)
    NoUniqueMatch (a name that several things carry)
"""

from __future__ import annotations

from typing import Any


class ClientException(Exception):
    http_status = 0
    default_message = "Unknown Error"

    def __init__(
        self,
        code: int,
        message: str | None = None,
        details: Any = None,
        request_id: str | None = None,
    ) -> None:
        self.code = code
        self.message = message or self.default_message
        self.details = details
        self.request_id = request_id
        super().__init__(self.message)

    def __str__(self) -> str:
        text = f"{self.message} (HTTP {self.code})"
        if self.request_id:
            text += f" (Request-ID: {self.request_id})"
        return text


class BadRequest(ClientException):
    http_status = 400
    default_message = "Bad request"


class Unauthorized(ClientException):
    http_status = 401
    default_message = "Unauthorized"


class Forbidden(ClientException):
    http_status = 403
    default_message = "Forbidden"


class NotFound(ClientException):
    http_status = 404
    default_message = "Not found"


class MethodNotAllowed(ClientException):
    http_status = 405
    default_message = "Method Not Allowed"


class NotAcceptable(ClientException):
    http_status = 406
    default_message = "Not Acceptable"


class Conflict(ClientException):
    http_status = 409
    default_message = "Conflict"


class RetryAfterException(ClientException):
    retry_after = 0


class OverLimit(RetryAfterException):
    http_status = 413
    default_message = "Over limit"


class RateLimit(RetryAfterException):
    http_status = 429
    default_message = "Rate limit"


class HTTPNotImplemented(ClientException):
    http_status = 501
    default_message = "Not Implemented"


class NoUniqueMatch(Exception):
    pass


BY_STATUS: dict[int, type[ClientException]] = {
    error.http_status: error
    for error in (
        BadRequest,
        Unauthorized,
        Forbidden,
        NotFound,
        MethodNotAllowed,
        NotAcceptable,
        Conflict,
        OverLimit,
        RateLimit,
        HTTPNotImplemented,
    )
}


def from_response(status_code: int, body: Any, request_id: str | None) -> ClientException:
    """The error novaclient raises for an answer with this status and body."""
    message = details = None
    if body:
        message = details = "n/a"
        if isinstance(body, dict):
            # Nova wraps its fault in one key named after it ({"itemNotFound": {...}}).
            fault = body if "message" in body else body[next(iter(body))]
            if isinstance(fault, dict):
                message, details = fault.get("message"), fault.get("details")
    error_class = BY_STATUS.get(status_code, ClientException)
    return error_class(status_code, message=message, details=details, request_id=request_id)
