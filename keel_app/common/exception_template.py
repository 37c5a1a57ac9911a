"""Exceptions about what the user wrote: templates, parameters, environments, schemas."""

from __future__ import annotations

from typing import Any, Protocol

from keel_app.common.exception_base import HeatException, HeatExceptionWithPath


class TemplateResource(Protocol):
    """What StackValidationFailed needs to know about the resource it blames."""

    name: str
    # The top-level section of the resource's template: "resources" in HOT,
    # "Resources" in CFN.
    resources_section_name: str


class UserParameterMissing(HeatException):
    msg_fmt = "The Parameter (%(key)s) was not provided."


class UnknownUserParameter(HeatException):
    msg_fmt = "The Parameter (%(key)s) was not defined in template."


class InvalidTemplateVersion(HeatException):
    msg_fmt = "The template version is invalid: %(explanation)s"


class InvalidTemplateVersions(HeatException):
    msg_fmt = (
        "A template version alias %(version)s was added for a template class that has "
        "no official YYYY-MM-DD version."
    )


class InvalidTemplateSection(HeatException):
    msg_fmt = "The template section is invalid: %(section)s"


class ImmutableParameterModified(HeatException):
    msg_fmt = "The following parameters are immutable and may not be updated: %(keys)s"

    def __init__(self, *keys: str, **kwargs: Any) -> None:
        if keys:
            kwargs["keys"] = ", ".join(keys)
        super().__init__(**kwargs)


class InvalidMergeStrategyForParam(HeatException):
    msg_fmt = "Invalid merge strategy '%(strategy)s' for parameter '%(param)s'."


class ConflictingMergeStrategyForParam(HeatException):
    msg_fmt = (
        "Conflicting merge strategy '%(strategy)s' for parameter '%(param)s' "
        "in file '%(env_file)s'."
    )


class InvalidTemplateAttribute(HeatException):
    msg_fmt = "The Referenced Attribute (%(resource)s %(key)s) is incorrect."


class InvalidTemplateReference(HeatException):
    msg_fmt = 'The specified reference "%(resource)s" (in %(key)s) is incorrect.'


class TemplateOutputError(HeatException):
    msg_fmt = "Error in %(resource)s output %(attribute)s: %(message)s"


class InvalidExternalResourceDependency(HeatException):
    msg_fmt = "Invalid dependency with external %(resource_type)s resource: %(external_id)s"


class InvalidSchemaError(HeatException):
    msg_fmt = "%(message)s"


class InvalidGlobalResource(HeatException):
    msg_fmt = "There was an error loading the definition of the global resource type %(type_name)s."


class InvalidBreakPointHook(HeatException):
    msg_fmt = "%(message)s"


class InvalidRestrictedAction(HeatException):
    msg_fmt = "%(message)s"


class CircularDependencyException(HeatException):
    msg_fmt = "Circular Dependency Found: %(cycle)s"


class StackValidationFailed(HeatExceptionWithPath):
    """A validation error; wrapping another one prepends this error's path to its path."""

    def __init__(
        self,
        error: str | Exception | None = None,
        path: list[Any] | str | None = None,
        message: str | None = None,
        resource: TemplateResource | None = None,
    ) -> None:
        if path is None:
            path = []
        elif isinstance(path, str):
            path = [path]
        if resource is not None and not path:
            path = [resource.resources_section_name, resource.name]
        if isinstance(error, StackValidationFailed):
            error_name: str | None = error.error
            message = error.error_message
            path = path + error.path
            # Sharing the inner error's args (rather than chaining it) keeps the
            # exception serialisable by oslo.messaging, as in Heat.
            self.args = error.args
        elif isinstance(error, Exception):
            error_name = type(error).__name__
            message = str(error)
        else:
            error_name = error
        super().__init__(error=error_name, path=path, message=message)
