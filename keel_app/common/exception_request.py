"""Exceptions about the request itself: who is asking, and what arrived on the wire."""

from __future__ import annotations

import sys
from types import TracebackType

from keel_app.common.exception_base import HeatException


class MissingCredentialError(HeatException):
    msg_fmt = "Missing required credential: %(required)s"


class AuthorizationFailure(HeatException):
    msg_fmt = "Authorization failed.%(failure_reason)s"

    def __init__(self, failure_reason: str = "") -> None:
        # The reason follows "failed." directly in the template, hence the space.
        if failure_reason != "":
            failure_reason = " " + failure_reason
        super().__init__(failure_reason=failure_reason)


class NotAuthenticated(HeatException):
    msg_fmt = "You are not authenticated."


class Forbidden(HeatException):
    msg_fmt = "You are not authorized to use %(action)s."

    def __init__(self, action: str = "this action") -> None:
        super().__init__(action=action)


class NotAuthorized(Forbidden):
    msg_fmt = "You are not authorized to complete this action."


class InvalidTenant(HeatException):
    msg_fmt = "Searching Tenant %(target)s from Tenant %(actual)s forbidden."


class KeystoneServiceNameConflict(HeatException):
    msg_fmt = (
        "Keystone has more than one service with same name %(service)s. "
        "Please use service id instead of name"
    )


class InvalidEncryptionKey(HeatException):
    msg_fmt = "Can not decrypt data with the auth_encryption_key in heat config."


class InvalidContentType(HeatException):
    msg_fmt = "Invalid content type %(content_type)s"


class RequestLimitExceeded(HeatException):
    msg_fmt = "Request limit exceeded: %(message)s"


class DownloadLimitExceeded(HeatException):
    msg_fmt = "Permissible download limit exceeded: %(message)s"


class HTTPExceptionDisguise(Exception):
    """Carries an HTTP error through code that would otherwise swallow or rewrap it,
    so that the fault middleware answers with that HTTP error itself."""

    safe = True

    def __init__(self, exception: BaseException) -> None:
        self.exc = exception
        self.tb: TracebackType | None = sys.exc_info()[2]
