"""Neutron's errors as Heat reports them: python-neutronclient's classes and messages.

Heat's resource failures read ``<error class>: resources.<name>: <message>``, and for
Neutron the class and message are python-neutronclient's: the ``NeutronError`` type of
the answer with ``Client`` appended when the client names such a class
(``IpAddressGenerationFailureClient``), else the class of the status code
(``Conflict``); the message is Neutron's, its detail on a line of its own, then the
request ids (``Neutron server returns request_ids: [...]``).
"""

from __future__ import annotations

from typing import Any


class NeutronClientException(Exception):
    status_code = 0

    def __init__(self, message: str, status_code: int | None = None, request_ids: Any = None):
        if status_code is not None:
            self.status_code = status_code
        self.request_ids = request_ids
        if request_ids:
            message = f"{message}\nNeutron server returns request_ids: {request_ids}"
        super().__init__(message)
        self.message = message


class BadRequest(NeutronClientException):
    status_code = 400


class Unauthorized(NeutronClientException):
    status_code = 401


class Forbidden(NeutronClientException):
    status_code = 403


class NotFound(NeutronClientException):
    status_code = 404


class Conflict(NeutronClientException):
    status_code = 409


class InternalServerError(NeutronClientException):
    status_code = 500


class ServiceUnavailable(NeutronClientException):
    status_code = 503


class NeutronClientNoUniqueMatch(Exception):
    def __init__(self, resource: str, name: str) -> None:
        super().__init__(
            f"Multiple {resource} matches found for name '{name}', use an ID to be more specific."
        )


BY_STATUS: dict[int, type[NeutronClientException]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    500: InternalServerError,
    503: ServiceUnavailable,
}


def _typed(name: str, base: type[NeutronClientException]) -> type[NeutronClientException]:
    return type(name, (base,), {"__module__": __name__})


# The NeutronError types the client has a class of its own for.
BY_TYPE: dict[str, type[NeutronClientException]] = {
    error_type: _typed(f"{error_type}Client", base)
    for error_type, base in (
        ("NetworkNotFound", NotFound),
        ("PortNotFound", NotFound),
        ("StateInvalid", BadRequest),
        ("NetworkInUse", Conflict),
        ("PortInUse", Conflict),
        ("IpAddressInUse", Conflict),
        ("IpAddressAlreadyAllocated", Conflict),
        ("InvalidIpForNetwork", BadRequest),
        ("InvalidIpForSubnet", BadRequest),
        ("OverQuota", Conflict),
        ("IpAddressGenerationFailure", Conflict),
        ("MacAddressInUse", Conflict),
        ("HostNotCompatibleWithFixedIps", Conflict),
        ("ExternalIpAddressExhausted", BadRequest),
    )
}
OverQuotaClient = BY_TYPE["OverQuota"]


def from_response(status_code: int, body: Any, request_ids: Any) -> NeutronClientException:
    """The exception python-neutronclient raises for an error answer."""
    error = body.get("NeutronError") if isinstance(body, dict) else None
    error_class: type[NeutronClientException] | None = None
    if isinstance(error, dict) and "type" in error and "message" in error:
        message = str(error["message"])
        if error.get("detail"):
            message += "\n" + str(error["detail"])
        error_class = BY_TYPE.get(str(error["type"]))
    elif error:
        message = str(error)
    else:
        message = body.get("message") if isinstance(body, dict) else None
        message = message or f"{status_code}-{body}"
    error_class = error_class or BY_STATUS.get(status_code, NeutronClientException)
    return error_class(message, status_code=status_code, request_ids=request_ids)
