"""The documents the engine answers with: Heat's engine/api.py shapes, key for key.

Stacks come as runtime ``Stack`` objects (``format_stack``) or as stack rows with an
identifier (``format_stack_db_object``, for listings); events and resources as rows
or resource objects. Timestamps are ISO 8601 in UTC with a ``Z``, as Heat writes them.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping
from typing import Any

from keel_app.common.identifier import EventIdentifier, HeatIdentifier, ResourceIdentifier

LOG = logging.getLogger(__name__)

OUTPUT_DESCRIPTION, OUTPUT_KEY, OUTPUT_VALUE, OUTPUT_ERROR = (
    "description",
    "output_key",
    "output_value",
    "output_error",
)
STACK_NAME, STACK_ID = "stack_name", "stack_identity"


def isotime(moment: datetime.datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _utcnow() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


def format_stack_output(output: Any, resolve_value: bool = True) -> dict[str, Any]:
    """One output: key and description, and with ``resolve_value`` its value (None and
    ``output_error`` when resolving it fails)."""
    result: dict[str, Any] = {OUTPUT_KEY: output.name, OUTPUT_DESCRIPTION: output.description()}
    if resolve_value:
        value = None
        try:
            value = output.get_value()
        except Exception as error:
            result[OUTPUT_ERROR] = str(error)
        result[OUTPUT_VALUE] = value
    return result


def format_stack_outputs(outputs: Mapping[str, Any], resolve_value: bool = False) -> list[Any]:
    return [format_stack_output(outputs[key], resolve_value=resolve_value) for key in outputs]


def format_stack(stack: Any, preview: bool = False, resolve_outputs: bool = True) -> dict[str, Any]:
    """The show_stack document of a runtime stack."""
    description = stack.t[stack.t.DESCRIPTION]
    info: dict[str, Any] = {
        STACK_NAME: stack.name,
        STACK_ID: dict(stack.identifier()),
        "creation_time": isotime(stack.created_time or _utcnow()),
        "updated_time": isotime(stack.updated_time),
        "deletion_time": isotime(stack.deleted_time),
        "notification_topics": [],
        "parameters": stack.parameters.map(str),
        "description": description,
        "template_description": description,
        "capabilities": [],
        "disable_rollback": stack.disable_rollback,
        "timeout_mins": stack.timeout_mins,
        "stack_owner": stack.username,
        "parent": stack.owner_id,
        "stack_user_project_id": stack.stack_user_project_id,
        "tags": stack.tags,
    }
    if not preview:
        info["stack_action"] = stack.action or ""
        info["stack_status"] = stack.status or ""
        info["stack_status_reason"] = stack.status_reason
    deleted = stack.action == stack.DELETE and stack.status == stack.COMPLETE
    if resolve_outputs and not deleted:
        info["outputs"] = format_stack_outputs(stack.outputs, resolve_value=True)
    return info


def stack_row_identifier(row: Any) -> HeatIdentifier:
    return HeatIdentifier(row.tenant, row.name, row.id)


def format_stack_db_object(row: Any, tags: list[str] | None = None) -> dict[str, Any]:
    """A stack of a listing, from its row: no description, tags None when it has none."""
    identifier = row.identifier() if hasattr(row, "identifier") else stack_row_identifier(row)
    if tags is None and getattr(row, "tags", None):
        tags = [tag.tag for tag in row.tags]
    return {
        STACK_ID: dict(identifier),
        STACK_NAME: row.name,
        "description": "",
        "stack_action": row.action,
        "stack_status": row.status,
        "stack_status_reason": row.status_reason,
        "creation_time": isotime(row.created_at),
        "updated_time": isotime(row.updated_at),
        "deletion_time": isotime(row.deleted_at),
        "stack_owner": row.username,
        "parent": row.owner_id,
        "stack_user_project_id": row.stack_user_project_id,
        "tags": tags or None,
    }


def event_identifier(row: Any, stack_identifier: HeatIdentifier) -> EventIdentifier:
    resource = ResourceIdentifier(
        resource_name=row.resource_name,
        tenant=stack_identifier.tenant,
        stack_name=stack_identifier.stack_name,
        stack_id=stack_identifier.stack_id,
        path=stack_identifier.path,
    )
    return EventIdentifier(
        event_id=str(row.uuid),
        tenant=resource.tenant,
        stack_name=resource.stack_name,
        stack_id=resource.stack_id,
        path=resource.path,
    )


def format_event(
    row: Any,
    stack_identifier: HeatIdentifier,
    root_stack_identifier: HeatIdentifier | None = None,
    include_rsrc_prop_data: bool = True,
    resource_properties: Any = None,
) -> dict[str, Any]:
    """An event row as list_events shows it."""
    result: dict[str, Any] = {
        "event_identity": dict(event_identifier(row, stack_identifier)),
        STACK_ID: dict(stack_identifier),
        STACK_NAME: stack_identifier.stack_name,
        "event_time": isotime(row.created_at),
        "resource_name": row.resource_name,
        "physical_resource_id": row.physical_resource_id,
        "resource_action": row.resource_action,
        "resource_status": row.resource_status,
        "resource_status_reason": row.resource_status_reason,
        "resource_type": row.resource_type,
    }
    if root_stack_identifier:
        result["root_stack_id"] = dict(root_stack_identifier)
    if include_rsrc_prop_data:
        if resource_properties is None:
            resource_properties = row.resource_properties or {}
        result["resource_properties"] = resource_properties
    return result


def resource_metadata(resource: Any) -> Any:
    """The template's metadata until the resource exists, then what its row holds."""
    if getattr(resource, "id", None) is None or resource.action == resource.INIT:
        return resource.t.metadata()
    return getattr(resource, "stored_metadata", None)


def format_resource_properties(resource: Any) -> dict[str, Any]:
    """Every property of the type's schema, None where its value cannot be had."""

    def value(name: str) -> Any:
        try:
            return resource.properties[name]
        except (KeyError, ValueError):
            LOG.exception("Error in fetching property %s of resource %s", name, resource.name)
            return None

    return {name: value(name) for name in resource.properties_schema}


def _nested_identifier(resource: Any) -> HeatIdentifier | None:
    """The identifier of the stack a resource owns; None when it owns none (yet)."""
    has_nested = getattr(resource, "has_nested", None)
    if has_nested is None or not has_nested():
        return None
    identifier: HeatIdentifier | None = resource.nested_identifier()
    return identifier


def format_stack_resource(
    resource: Any, stack: Any, detail: bool = True, required_by: list[str] | None = None
) -> dict[str, Any]:
    """A resource of a stack, in its stored state (attributes and properties not shown),
    with ``nested_stack_id`` when it owns a nested stack."""
    identifier = ResourceIdentifier(resource_name=resource.name, **stack.identifier())
    result: dict[str, Any] = {
        "updated_time": isotime(resource.updated_time or resource.created_time),
        "creation_time": isotime(resource.created_time),
        "resource_name": resource.name,
        "physical_resource_id": resource.resource_id or "",
        "resource_action": resource.action,
        "resource_status": resource.status,
        "resource_status_reason": resource.status_reason,
        "resource_type": resource.type(),
        "resource_identity": dict(identifier),
        STACK_ID: dict(stack.identifier()),
        STACK_NAME: stack.name,
        "required_by": list(required_by or []),
    }
    nested_identifier = _nested_identifier(resource)
    if nested_identifier is not None:
        result["nested_stack_id"] = dict(nested_identifier)
    if stack.parent_resource_name:
        result["parent_resource"] = stack.parent_resource_name
    if detail:
        result["description"] = resource.t.description
        result["metadata"] = resource_metadata(resource)
    return result


def format_notification_body(stack: Any) -> dict[str, Any]:
    """The payload of an ``orchestration.stack.<action>.<start|end|error>`` notification."""
    if stack.status is not None and stack.action is not None:
        state = f"{stack.action}_{stack.status}"
    else:
        state = "Unknown"
    context = stack.context
    result: dict[str, Any] = {
        "tenant_id": context.project_id,
        # Heat's old key, which carries the user's name despite its own.
        "user_id": context.username,
        "user_identity": context.user_id,
        "username": context.username,
        STACK_ID: stack.id,
        STACK_NAME: stack.name,
        "state": state,
        "state_reason": stack.status_reason,
        "create_at": isotime(stack.created_time),
        "tags": stack.tags,
        "updated_at": isotime(stack.updated_time),
    }
    if stack.t is not None:
        result["description"] = stack.t[stack.t.DESCRIPTION]
    return result


def notification_event_type(stack: Any, default_level: str = "INFO") -> tuple[str, str]:
    """The notification's event type and level for the stack's current state: the
    default level for a start or an end, ERROR otherwise."""
    level = default_level.upper()
    if stack.status == stack.IN_PROGRESS:
        suffix = "start"
    elif stack.status == stack.COMPLETE:
        suffix = "end"
    else:
        suffix, level = "error", "ERROR"
    return f"orchestration.stack.{stack.action.lower()}.{suffix}", level
