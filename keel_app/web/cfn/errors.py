"""The CFN API's errors: AWS error codes with Heat's classes, statuses and messages.

    CfnError
    ├── HeatIncompleteSignatureError, HeatInvalidActionError, ... (one class an AWS code)
    └── HeatActionInProgressError, HeatRequestLimitExceeded, ... (Heat's own codes)

Each answers ``<ErrorResponse><Error><Type/><Code/><Message/></Error></ErrorResponse>``:
``Type`` is ``Sender`` or ``Server``, ``Code`` the AWS code (the class's ``title``) and
``Message`` the explanation, followed by ``:`` and the detail when there is one.
``map_remote_error`` picks the error for an exception the engine raised, by class name.
"""

from __future__ import annotations

from typing import Any

from keel_app.rpc.client import EngineClient


class CfnError(Exception):
    code = 400
    title = "HeatAPIException"
    explanation = "Generic HeatAPIException, please use specific subclasses!"
    err_type = "Sender"

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or self.explanation)
        self.detail = detail

    @property
    def message(self) -> str:
        if self.detail:
            return f"{self.explanation}:{self.detail}"
        return self.explanation

    def body(self) -> dict[str, Any]:
        return {
            "ErrorResponse": {
                "Error": {"Type": self.err_type, "Code": self.title, "Message": self.message}
            }
        }


class HeatIncompleteSignatureError(CfnError):
    title = "IncompleteSignature"
    explanation = "The request signature does not conform to AWS standards"


class HeatInternalFailureError(CfnError):
    code = 500
    title = "InternalFailure"
    explanation = "The request processing has failed due to an internal error"
    err_type = "Server"


class HeatInvalidActionError(CfnError):
    title = "InvalidAction"
    explanation = "The action or operation requested is invalid"


class HeatInvalidClientTokenIdError(CfnError):
    code = 403
    title = "InvalidClientTokenId"
    explanation = "The certificate or AWS Key ID provided does not exist"


class HeatInvalidParameterCombinationError(CfnError):
    title = "InvalidParameterCombination"
    explanation = "Incompatible parameters were used together"


class HeatInvalidParameterValueError(CfnError):
    title = "InvalidParameterValue"
    explanation = "A bad or out-of-range value was supplied"


class HeatInvalidQueryParameterError(CfnError):
    title = "InvalidQueryParameter"
    explanation = "AWS query string is malformed, does not adhere to AWS spec"


class HeatMalformedQueryStringError(CfnError):
    code = 404
    title = "MalformedQueryString"
    explanation = "The query string is malformed"


class HeatMissingActionError(CfnError):
    title = "MissingAction"
    explanation = "The request is missing an action or operation parameter"


class HeatMissingAuthenticationTokenError(CfnError):
    code = 403
    title = "MissingAuthenticationToken"
    explanation = "Does not contain a valid AWS Access Key or certificate"


class HeatMissingParameterError(CfnError):
    title = "MissingParameter"
    explanation = "A mandatory input parameter is missing"


class HeatOptInRequiredError(CfnError):
    code = 403
    title = "OptInRequired"
    explanation = "The AWS Access Key ID needs a subscription for the service"


class HeatRequestExpiredError(CfnError):
    title = "RequestExpired"
    explanation = "Request expired or more than 15mins in the future"


class HeatServiceUnavailableError(CfnError):
    code = 503
    title = "ServiceUnavailable"
    explanation = "Service temporarily unavailable"
    err_type = "Server"


class HeatThrottlingError(CfnError):
    title = "Throttling"
    explanation = "Request was denied due to request throttling"


class AlreadyExistsError(CfnError):
    title = "AlreadyExists"
    explanation = "Resource with the name requested already exists"


class HeatAccessDeniedError(CfnError):
    code = 403
    title = "AccessDenied"
    explanation = "User is not authorized to perform action"


class HeatSignatureError(CfnError):
    code = 403
    title = "SignatureDoesNotMatch"
    explanation = "The request signature we calculated does not match the signature you provided"


class HeatAPINotImplementedError(CfnError):
    code = 500
    title = "APINotImplemented"
    explanation = "The requested action is not yet implemented"
    err_type = "Server"


class HeatActionInProgressError(CfnError):
    title = "InvalidAction"
    explanation = "Cannot perform action on stack while other actions are in progress"


class HeatRequestLimitExceeded(CfnError):
    title = "RequestLimitExceeded"
    explanation = "Payload exceeds maximum allowed size"


INVALID_PARAMETER_ERRORS = frozenset(
    {
        "AttributeError",
        "ValueError",
        "InvalidTenant",
        "EntityNotFound",
        "ResourceActionNotSupported",
        "ResourceNotFound",
        "ResourceNotAvailable",
        "StackValidationFailed",
        "InvalidSchemaError",
        "InvalidTemplateReference",
        "InvalidTemplateVersion",
        "InvalidTemplateSection",
        "UnknownUserParameter",
        "UserParameterMissing",
        "MissingCredentialError",
        "ResourcePropertyConflict",
        "PropertyUnspecifiedError",
        "NotSupported",
        "InvalidBreakPointHook",
        "PhysicalResourceIDAmbiguity",
    }
)
DENIED_ERRORS = frozenset({"Forbidden", "NotAuthorized"})
# Heat writes these two as bare strings, not tuples, so its test is a substring test.
ALREADY_EXISTS_ERRORS = "StackExists"
REQUEST_LIMIT_ERRORS = "RequestLimitExceeded"


def map_remote_error(error: BaseException) -> CfnError:
    """The AWS error answering an exception of the engine (or of the API itself).

    The detail is the exception's message when it is safe to show (Heat's own errors);
    our RPC replies rebuild errors without the engine's traceback, so none is shown.
    """
    type_name = EngineClient.local_error_name(error)
    detail = str(error) if getattr(error, "safe", False) else None
    if type_name in INVALID_PARAMETER_ERRORS:
        return HeatInvalidParameterValueError(detail=detail)
    if type_name in DENIED_ERRORS:
        return HeatAccessDeniedError(detail=detail)
    if type_name in ALREADY_EXISTS_ERRORS:
        return AlreadyExistsError(detail=detail)
    if type_name == "ActionInProgress":
        return HeatActionInProgressError(detail=detail)
    if type_name in REQUEST_LIMIT_ERRORS:
        return HeatRequestLimitExceeded(detail=detail)
    return HeatInternalFailureError(detail=detail)
