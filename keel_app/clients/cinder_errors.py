"""Cinder's errors as Heat reports them: python-cinderclient's classes and messages.

Heat's failures read ``<error class>: resources.<name>: <message>``; for Cinder the class
is cinderclient's class of the status code (``BadRequest``, ``NotFound``, ``OverLimit``...,
any other status ``ClientException``) and the message is Cinder's, followed by
`` (HTTP <status>)`` and `` (Request-ID: req-...)``.
"""

from __future__ import annotations

from typing import Any


class ClientException(Exception):
    message = "Unknown Error"

    def __init__(
        self,
        code: int,
        message: str | None = None,
        details: Any = None,
        request_id: str | None = None,
    ) -> None:
        self.code = code
        self.message = message or type(self).message
        self.details = details
        self.request_id = request_id
        super().__init__(self.message)

    def __str__(self) -> str:
        text = str(self.message)
        if self.code >= 100:
            text += f" (HTTP {self.code})"
        if self.request_id:
            text += f" (Request-ID: {self.request_id})"
        return text


class BadRequest(ClientException):
    http_status = 400
    message = "Bad request"


class Unauthorized(ClientException):
    http_status = 401
    message = "Unauthorized"


class Forbidden(ClientException):
    http_status = 403
    message = "Forbidden"


class NotFound(ClientException):
    http_status = 404
    message = "Not found"


class NotAcceptable(ClientException):
    http_status = 406
    message = "Not Acceptable"


class OverLimit(ClientException):
    http_status = 413
    message = "Over limit"


class HTTPNotImplemented(ClientException):
    http_status = 501
    message = "Not Implemented"


BY_STATUS: dict[int, type[ClientException]] = {
    kind.http_status: kind
    for kind in (BadRequest, Unauthorized, Forbidden, NotFound, NotAcceptable, OverLimit)
}
BY_STATUS[HTTPNotImplemented.http_status] = HTTPNotImplemented


class NoUniqueMatch(Exception):
    """More than one thing has the name looked up (cinderclient's ``NoUniqueMatch``)."""


def from_response(status: int, reason: str, body: Any, request_id: str | None) -> ClientException:
    """The error cinderclient raises for an answer of ``status`` with ``body``."""
    kind = BY_STATUS.get(status, ClientException)
    if not body or not isinstance(body, dict):
        # An answer that is not JSON reads as none, as the client parses it.
        return kind(code=status, message=reason, request_id=request_id)
    message: Any = "n/a"
    details: Any = "n/a"
    fault = body if "message" in body else body[next(iter(body))]
    if isinstance(fault, dict):
        message = fault.get("message", message)
        details = fault.get("details", details)
    return kind(code=status, message=message, details=details, request_id=request_id)
