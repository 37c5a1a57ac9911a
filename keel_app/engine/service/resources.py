"""The resource and event calls of the RPC surface: a stack's resources and its events."""

from __future__ import annotations

import collections.abc
import logging
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine import api_format
from keel_app.engine.service import resource_tree, stack_query, stack_user_access
from keel_app.engine.service.stacks import get_stack_row, load_stack
from keel_app.engine.settings import EngineSettings
from keel_app.models import Event
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)

EVENT_SORT_COLUMNS = {"event_time": "created_at", "resource_type": "resource_type"}


def _required_by(stack: Any, resource: Any) -> list[str]:
    try:
        return [requirer.name for requirer in stack.dependencies.required_by(resource)]
    except KeyError:
        return []


def _attributes(resource: Any, with_attr: list[str] | None) -> dict[str, Any]:
    """Every attribute's current value, None where it cannot be had (Heat's rule for
    ``show``: a mapping answers for all, else it is dropped and each is resolved)."""
    wanted = list(with_attr or [])

    def resolve(name: str) -> Any:
        try:
            return resource.FnGetAtt(name)
        except Exception:
            return None

    names = set(resource.attributes)
    if "show" in names:
        shown = resolve("show")
        if isinstance(shown, collections.abc.Mapping):
            shown = dict(shown)
            for name in wanted:
                if name not in shown:
                    shown[name] = resolve(name)
            return shown
        names.discard("show")
    return {name: resolve(name) for name in names | set(wanted)}


def format_resource(
    stack: Any, resource: Any, detail: bool = True, with_attr: Any = None
) -> dict[str, Any]:
    """A resource's document; with ``detail`` its attributes, so the stack's resources
    must already know what they read of each other (``resolve_outputs_data``)."""
    answer = api_format.format_stack_resource(
        resource, stack, detail=detail, required_by=_required_by(stack, resource)
    )
    if detail and with_attr is not False:
        answer["attributes"] = _attributes(resource, with_attr)
    return answer


def list_stack_resources(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    nested_depth: int = 0,
    with_detail: bool = False,
    filters: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The stack's resources (its template's, in their stored state), filtered by row
    columns (``name``, ``status``...) and by a ``type`` substring; with ``nested_depth``
    those of its nested stacks too, as ``resource_tree`` walks them."""
    stack = load_stack(context, settings, database, stack_identity, show_deleted=True)
    resource_type = None
    column_filters: dict[str, Any] = {}
    if filters is not None:
        column_filters = stack_query.translate_filters(filters)
        resource_type = column_filters.pop("type", None)
    depth = min(nested_depth, settings.max_nested_stack_depth)
    answers = []
    for owner, listed in resource_tree.listed_resources(database, stack, depth, column_filters):
        if with_detail:
            owner.resolve_outputs_data()
        answers.extend(
            format_resource(owner, resource, detail=with_detail)
            for resource in listed
            if resource_type is None or resource_type in resource.type()
        )
    return answers


def describe_stack_resource(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    resource_name: str,
    with_attr: Any = None,
) -> dict[str, Any]:
    stack = load_stack(context, settings, database, stack_identity)
    if stack_user_access.is_stack_user(context, settings) and not (
        stack_user_access.access_allowed(context, stack, resource_name)
    ):
        LOG.warning("Access denied to resource %s", resource_name)
        raise exception.Forbidden()
    stack.resolve_outputs_data()
    resource = stack.resources.get(resource_name)
    if resource is None:
        raise exception.ResourceNotFound(resource_name=resource_name, stack_name=stack.name)
    return format_resource(stack, resource, with_attr=with_attr)


def describe_stack_resources(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    resource_name: str | None,
) -> list[dict[str, Any]]:
    stack = load_stack(context, settings, database, stack_identity)
    stack.resolve_outputs_data()
    return [
        format_resource(stack, resource)
        for name, resource in stack.resources.items()
        if resource_name is None or name == resource_name
    ]


def list_events(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any] | None,
    filters: Mapping[str, Any] | None = None,
    limit: int | None = None,
    marker: str | None = None,
    sort_keys: Any = None,
    sort_dir: str | None = None,
    nested_depth: int | None = None,
) -> list[dict[str, Any]]:
    """A stack's events, newest first unless sorted otherwise; ``marker`` is an event
    uuid. Properties are shown only when one event is asked for by ``uuid``.

    With ``nested_depth``, the events of the stacks nested under it too, down to that
    ``nested_depth`` column value (Heat's rule, counted from the top of the tree), each
    naming the stack asked for as ``root_stack_id``. As in Heat, the stacks are those
    with resources that count this stack as their root, of the caller's project and not
    deleted. With no ``stack_identity``, the events of every live stack of the project.
    """
    root_identifier = None
    identifiers: dict[str, Any] | None = None
    # Events of the caller's live stacks (Heat's ``event_get_all_by_tenant``).
    tenant_events = (
        sa.select(Event)
        .join(StackRow, Event.stack_id == StackRow.id)
        .where(StackRow.tenant == context.project_id, StackRow.deleted_at.is_(None))
    )
    if stack_identity is None:
        statement = tenant_events
    else:
        row = get_stack_row(context, database, stack_identity, show_deleted=True)
        if nested_depth:
            root_identifier = api_format.stack_row_identifier(row)
            identifiers = _nested_stack_identifiers(
                context, settings, database, row.id, nested_depth
            )
            statement = tenant_events.where(Event.stack_id.in_(list(identifiers)))
        else:
            identifiers = {row.id: api_format.stack_row_identifier(row)}
            statement = sa.select(Event).where(Event.stack_id == row.id)
    for column, value in (filters or {}).items():
        attribute = getattr(Event, column, None)
        if attribute is None:
            raise exception.Invalid(reason=f"Unknown filter {column}")
        if isinstance(value, list | tuple | set | frozenset):
            statement = statement.where(attribute.in_(value))
        else:
            statement = statement.where(attribute == value)
    if isinstance(sort_keys, str):
        sort_keys = [sort_keys]
    columns = [EVENT_SORT_COLUMNS[key] for key in sort_keys or [] if key in EVENT_SORT_COLUMNS]
    if not columns:
        columns = ["created_at"]
        sort_dir = sort_dir or "desc"
    direction = sort_dir or "asc"
    order = [getattr(getattr(Event, column), direction)() for column in [*columns, "id"]]
    with database.transaction() as session:
        events = list(session.scalars(statement.order_by(*order)).all())
    if marker:
        uuids = [event.uuid for event in events]
        if marker in uuids:
            events = events[uuids.index(marker) + 1 :]
    if limit is not None:
        events = events[: int(limit)]
    if identifiers is None:
        identifiers = _stack_identifiers(
            context, settings, database, {event.stack_id for event in events}
        )
    include_properties = bool(filters and "uuid" in filters)
    return [
        api_format.format_event(
            event,
            identifiers[event.stack_id],
            root_identifier,
            include_rsrc_prop_data=include_properties,
        )
        for event in events
        # A hidden stack's events have no stack to show them with (Heat fails on them).
        if event.stack_id in identifiers
    ]


def _nested_stack_identifiers(
    context: Any, settings: EngineSettings, database: Database, root_id: str, depth: int
) -> dict[str, Any]:
    """The identifiers of the stacks under ``root_id`` (itself included) that a nested
    listing reaches, by id."""
    with database.transaction() as session:
        stack_ids = set(
            session.scalars(
                sa.select(ResourceRow.stack_id).where(ResourceRow.root_stack_id == root_id)
            ).all()
        )
    return _stack_identifiers(
        context, settings, database, stack_ids, {"nested_depth": list(range(depth + 1))}
    )


def _stack_identifiers(
    context: Any,
    settings: EngineSettings,
    database: Database,
    stack_ids: set[str],
    filters: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The identifiers of those of ``stack_ids`` a listing shows (nested ones too), by id."""
    statement = stack_query.stack_query(
        context,
        filters={"id": sorted(stack_ids), **(filters or {})},
        show_nested=True,
        hidden_tags=settings.hidden_stack_tags,
    )
    return {
        row.id: api_format.stack_row_identifier(row)
        for row in stack_query.list_rows(database, statement)
    }
