"""Exceptions about resources: their types, properties, actions and failures."""

from __future__ import annotations

from typing import Any, Protocol

from keel_app.common.exception_base import HeatException, HeatExceptionWithPath


class FailedResource(Protocol):
    """What ResourceFailure needs to know about the resource that failed."""

    name: str
    action: str


# Heat asks the template for the name of its resources section through a lookup that
# answers "resources" for HOT and CFN alike, so failure paths never say "Resources".
FAILURE_SECTION = "resources"


class ResourceTypeUnavailable(HeatException):
    error_code = "99001"


class ResourceNotAvailable(HeatException):
    msg_fmt = "The Resource (%(resource_name)s) is not available."


class ClientNotAvailable(HeatException):
    msg_fmt = "The client (%(client_name)s) is not available."


class ResourceActionNotSupported(HeatException):
    msg_fmt = "%(action)s is not supported for resource."


class ResourceActionRestricted(HeatException):
    msg_fmt = "%(action)s is restricted for resource."


class ResourcePropertyConflict(HeatException):
    msg_fmt = "Cannot define the following properties at the same time: %(props)s."

    def __init__(self, *properties: str, **kwargs: Any) -> None:
        if properties:
            kwargs["props"] = ", ".join(properties)
        super().__init__(**kwargs)


class ResourcePropertyDependency(HeatException):
    msg_fmt = "%(prop1)s cannot be specified without %(prop2)s."


class ResourcePropertyValueDependency(HeatException):
    msg_fmt = "%(prop1)s property should only be specified for %(prop2)s with value %(value)s."


class PropertyUnspecifiedError(HeatException):
    msg_fmt = "At least one of the following properties must be specified: %(props)s."

    def __init__(self, *properties: str, **kwargs: Any) -> None:
        if properties:
            kwargs["props"] = ", ".join(properties)
        super().__init__(**kwargs)


class ResourceUnknownStatus(HeatException):
    msg_fmt = '%(result)s - Unknown status %(resource_status)s due to "%(status_reason)s"'

    def __init__(
        self, result: str = "Resource failed", status_reason: str = "Unknown", **kwargs: Any
    ) -> None:
        super().__init__(result=result, status_reason=status_reason, **kwargs)


class ResourceInError(HeatException):
    msg_fmt = 'Went to status %(resource_status)s due to "%(status_reason)s"'

    def __init__(self, status_reason: str = "Unknown", **kwargs: Any) -> None:
        super().__init__(status_reason=status_reason, **kwargs)


class EgressRuleNotAllowed(HeatException):
    msg_fmt = "Egress rules are only allowed when Neutron is used and the 'VpcId' property is set."


class InterfaceAttachFailed(HeatException):
    msg_fmt = "Failed to attach interface (%(port)s) to server (%(server)s)"


class InterfaceDetachFailed(HeatException):
    msg_fmt = "Failed to detach interface (%(port)s) from server (%(server)s)"


class UnableToAutoAllocateNetwork(HeatException):
    msg_fmt = "Unable to automatically allocate a network: %(message)s"


class UpdateReplace(Exception):
    """An update that can only be done by replacing the resource."""

    def __init__(self, resource_name: str = "Unknown") -> None:
        super().__init__(f"The Resource {resource_name} requires replacement.")


class UpdateInProgress(Exception):
    def __init__(self, resource_name: str = "Unknown") -> None:
        super().__init__(f"The resource {resource_name} is already being updated.")


class ResourceFailure(HeatExceptionWithPath):
    """A resource action that failed, from an exception or from a stored status reason.

    A status reason such as "Resource CREATE failed: ValueError: resources.a: boom"
    is split back into its error name, path and message.
    """

    def __init__(
        self,
        exception_or_error: Exception | str,
        resource: FailedResource | None,
        action: str | None = None,
    ) -> None:
        self.resource = resource
        self.action = action
        if action is None and resource is not None:
            self.action = resource.action
        resource_path: list[Any] = []
        if resource is not None:
            resource_path = [FAILURE_SECTION, resource.name]

        error: str | None
        path: list[Any]
        if isinstance(exception_or_error, ResourceFailure):
            self.exc: Exception | None = exception_or_error.exc
            error = exception_or_error.error
            message = exception_or_error.error_message
            path = exception_or_error.path
        elif isinstance(exception_or_error, Exception):
            self.exc = exception_or_error
            error = type(exception_or_error).__name__
            message = str(exception_or_error)
            path = resource_path
        else:
            self.exc = None
            # Heat reads self.action unguarded here; without one this fails the same way.
            prefix = f"Resource {self.action.upper()} failed: "  # type: ignore[union-attr]
            if prefix in exception_or_error:
                error, message, reason_path = split_status_reason(exception_or_error)
                path = resource_path + reason_path
            else:
                error = None
                message = exception_or_error
                path = resource_path
        super().__init__(error=error, path=path, message=message)


def split_status_reason(status_reason: str) -> tuple[str, str, list[str]]:
    """``"Resource DELETE failed: Exception: resources.a: foo"`` as
    ``("Exception", "foo", ["resources", "a"])``; a reason with fewer parts is all message."""
    parts = [part.strip() for part in status_reason.split(":")]
    if len(parts) < 4:
        return "", status_reason, []
    return parts[1], ": ".join(parts[3:]), parts[2].split(".")
