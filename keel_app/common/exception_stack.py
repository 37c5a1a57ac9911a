"""Exceptions about stored things and the operations running on them: lookups,
conflicts, engines, versioned objects."""

from __future__ import annotations

from typing import Any

from keel_app.common.exception_base import HeatException


class EntityNotFound(HeatException):
    msg_fmt = "The %(entity)s (%(name)s) could not be found."

    def __init__(self, entity: str | None = None, name: Any = None, **kwargs: Any) -> None:
        self.entity = entity
        self.name = name
        super().__init__(entity=entity, name=name, **kwargs)


class ResourceNotFound(EntityNotFound):
    msg_fmt = "The Resource (%(resource_name)s) could not be found in Stack %(stack_name)s."


class SnapshotNotFound(EntityNotFound):
    msg_fmt = "The Snapshot (%(snapshot)s) for Stack (%(stack)s) could not be found."


class PhysicalResourceExists(HeatException):
    msg_fmt = "The physical resource for (%(name)s) exists."


class PhysicalResourceNameAmbiguity(HeatException):
    msg_fmt = "Multiple physical resources were found with name (%(name)s)."


class PhysicalResourceIDAmbiguity(HeatException):
    msg_fmt = "Multiple resources were found with the physical ID (%(phys_id)s)."


class StackExists(HeatException):
    msg_fmt = "The Stack (%(stack_name)s) already exists."


class StackResourceLimitExceeded(HeatException):
    msg_fmt = "Maximum resources per stack exceeded."


class ActionInProgress(HeatException):
    msg_fmt = "Stack %(stack_name)s already has an action (%(action)s) in progress."


class ActionNotComplete(HeatException):
    msg_fmt = "Stack %(stack_name)s has an action (%(action)s) in progress or failed state."


class StopActionFailed(HeatException):
    msg_fmt = "Failed to stop stack (%(stack_name)s) on other engine (%(engine_id)s)"


class EventSendFailed(HeatException):
    msg_fmt = "Failed to send message to stack (%(stack_name)s) on other engine (%(engine_id)s)"


class ConcurrentTransaction(HeatException):
    msg_fmt = "Concurrent transaction for %(action)s"


class SIGHUPInterrupt(HeatException):
    msg_fmt = "System SIGHUP signal received."


class InvalidServiceVersion(HeatException):
    msg_fmt = "Invalid service %(service)s version %(version)s"


class UnsupportedObjectError(HeatException):
    msg_fmt = "Unsupported object type %(objtype)s"


class OrphanedObjectError(HeatException):
    msg_fmt = "Cannot call %(method)s on orphaned %(objtype)s object"


class IncompatibleObjectVersion(HeatException):
    msg_fmt = "Version %(objver)s of %(objname)s is not supported"


class ObjectActionError(HeatException):
    msg_fmt = "Object action %(action)s failed because: %(reason)s"


class ReadOnlyFieldError(HeatException):
    msg_fmt = "Cannot modify readonly field %(field)s"


class ObjectFieldInvalid(HeatException):
    msg_fmt = "Field %(field)s of %(objname)s is not an instance of Field"
