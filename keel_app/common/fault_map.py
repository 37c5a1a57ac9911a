"""Which HTTP error the API answers for an exception, as Heat's fault middleware decides.

Heat looks the exception's class name up in a table, then the name of its base
class, and so on up to ``Exception``, which (like anything unknown) is a 500.
Names are matched, not classes, so exceptions from anywhere (``ValueError``,
engine errors re-raised from RPC) map the same way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HttpError:
    """An HTTP error as webob names and describes it in Heat's error bodies."""

    name: str
    code: int
    title: str
    explanation: str


BAD_REQUEST = HttpError(
    "HTTPBadRequest",
    400,
    "Bad Request",
    "The server could not comply with the request since it is either malformed or "
    "otherwise incorrect.",
)
FORBIDDEN = HttpError("HTTPForbidden", 403, "Forbidden", "Access was denied to this resource.")
NOT_FOUND = HttpError("HTTPNotFound", 404, "Not Found", "The resource could not be found.")
CONFLICT = HttpError(
    "HTTPConflict", 409, "Conflict", "There was a conflict when trying to complete your request."
)
INTERNAL_SERVER_ERROR = HttpError(
    "HTTPInternalServerError",
    500,
    "Internal Server Error",
    "The server has either erred or is incapable of performing the requested operation.",
)

HTTP_ERRORS: dict[str, HttpError] = {
    error.name: error
    for error in (BAD_REQUEST, FORBIDDEN, NOT_FOUND, CONFLICT, INTERNAL_SERVER_ERROR)
}

# Some names (RevertFailed, ServerBuildFailed) belong to no class any more; they stay
# because the table is Heat's.
FAULT_MAP: dict[str, HttpError] = {
    "AttributeError": BAD_REQUEST,
    "ActionInProgress": CONFLICT,
    "ValueError": BAD_REQUEST,
    "EntityNotFound": NOT_FOUND,
    "NotFound": NOT_FOUND,
    "ResourceActionNotSupported": BAD_REQUEST,
    "InvalidGlobalResource": INTERNAL_SERVER_ERROR,
    "ResourceNotAvailable": NOT_FOUND,
    "PhysicalResourceNameAmbiguity": BAD_REQUEST,
    "PhysicalResourceIDAmbiguity": BAD_REQUEST,
    "InvalidTenant": FORBIDDEN,
    "Forbidden": FORBIDDEN,
    "StackExists": CONFLICT,
    "StackValidationFailed": BAD_REQUEST,
    "InvalidSchemaError": BAD_REQUEST,
    "InvalidTemplateReference": BAD_REQUEST,
    "InvalidTemplateVersion": BAD_REQUEST,
    "InvalidTemplateSection": BAD_REQUEST,
    "UnknownUserParameter": BAD_REQUEST,
    "RevertFailed": INTERNAL_SERVER_ERROR,
    "StopActionFailed": INTERNAL_SERVER_ERROR,
    "EventSendFailed": INTERNAL_SERVER_ERROR,
    "ServerBuildFailed": INTERNAL_SERVER_ERROR,
    "InvalidEncryptionKey": INTERNAL_SERVER_ERROR,
    "NotSupported": BAD_REQUEST,
    "MissingCredentialError": BAD_REQUEST,
    "UserParameterMissing": BAD_REQUEST,
    "RequestLimitExceeded": BAD_REQUEST,
    "DownloadLimitExceeded": BAD_REQUEST,
    "Invalid": BAD_REQUEST,
    "ResourcePropertyConflict": BAD_REQUEST,
    "PropertyUnspecifiedError": BAD_REQUEST,
    "ObjectFieldInvalid": BAD_REQUEST,
    "ReadOnlyFieldError": BAD_REQUEST,
    "ObjectActionError": BAD_REQUEST,
    "IncompatibleObjectVersion": BAD_REQUEST,
    "OrphanedObjectError": BAD_REQUEST,
    "UnsupportedObjectError": BAD_REQUEST,
    "ResourceTypeUnavailable": BAD_REQUEST,
    "InvalidBreakPointHook": BAD_REQUEST,
    "ImmutableParameterModified": BAD_REQUEST,
    "CircularDependencyException": BAD_REQUEST,
}


def http_error_for(exception_class: type[BaseException]) -> HttpError:
    """The HTTP error for an exception class: its own entry or its nearest base's."""
    current: type[BaseException] = exception_class
    while current is not Exception and current is not BaseException:
        if current.__name__ in FAULT_MAP:
            return FAULT_MAP[current.__name__]
        # Heat follows __base__, the first base only, not the whole MRO.
        current = current.__base__  # type: ignore[assignment]
    return INTERNAL_SERVER_ERROR
