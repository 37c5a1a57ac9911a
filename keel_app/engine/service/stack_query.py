"""Which stack rows a listing or count returns: Heat's filters, tags, sorting and paging."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.models import Stack as StackRow
from keel_app.models import StackTag
from keel_app.models.database import Database

# API filter names and the columns they stand for.
FILTER_COLUMNS = {
    "stack_name": "name",
    "stack_action": "action",
    "stack_status": "status",
    "stack_status_reason": "status_reason",
    "disable_rollback": "disable_rollback",
    "timeout_mins": "timeout",
    "stack_owner": "username",
    "parent": "owner_id",
    "stack_user_project_id": "stack_user_project_id",
}
SORT_COLUMNS = {
    "stack_name": "name",
    "stack_status": "status",
    "creation_time": "created_at",
    "updated_time": "updated_at",
}
STATUSES = ("COMPLETE", "FAILED", "IN_PROGRESS")


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _split_status(values: Any) -> tuple[set[str], set[str]]:
    """``CREATE_COMPLETE`` is an action and a status; ``COMPLETE`` only a status."""
    actions, statuses = set(), set()
    for value in _as_list(values):
        for status in STATUSES:
            index = value.rfind(status)
            if index != -1:
                statuses.add(value[index:])
                if index > 1:
                    actions.add(value[: index - 1])
                break
    return actions, statuses


def translate_filters(filters: Mapping[str, Any]) -> dict[str, Any]:
    """API filter names to columns; a status filter may carry the action too."""
    translated = dict(filters)
    for key, column in FILTER_COLUMNS.items():
        value = translated.pop(key, None)
        if not value:
            continue
        existing = translated.get(column)
        if existing:
            value = _as_list(value) + _as_list(existing)
        translated[column] = value
    if "status" in translated:
        actions, statuses = _split_status(translated["status"])
        ordered = sorted(statuses)
        translated["status"] = ordered[0] if len(ordered) == 1 else ordered
        if actions:
            action = translated.get("action", [])
            merged = sorted(set(_as_list(action)) | actions)
            translated["action"] = merged[0] if len(merged) == 1 else merged
    return translated


def _has_tag(tag: str) -> sa.ColumnElement[bool]:
    return sa.exists().where(StackTag.stack_id == StackRow.id, StackTag.tag == tag)


def _has_any_tag(tags: list[str]) -> sa.ColumnElement[bool]:
    return sa.exists().where(StackTag.stack_id == StackRow.id, StackTag.tag.in_(tags))


def stack_query(
    scope: Any,
    *,
    filters: Mapping[str, Any] | None = None,
    show_deleted: bool = False,
    show_nested: bool = False,
    show_hidden: bool = False,
    hidden_tags: tuple[str, ...] = (),
    tags: list[str] | None = None,
    tags_any: list[str] | None = None,
    not_tags: list[str] | None = None,
    not_tags_any: list[str] | None = None,
) -> sa.Select[tuple[StackRow]]:
    statement = sa.select(StackRow)
    if not show_deleted:
        statement = statement.where(StackRow.deleted_at.is_(None))
    if show_nested:
        statement = statement.where(StackRow.backup.is_(False))
    else:
        statement = statement.where(StackRow.owner_id.is_(None))
    if not scope.is_admin:
        statement = statement.where(StackRow.tenant == scope.project_id)
    for tag in tags or []:
        statement = statement.where(_has_tag(tag))
    if tags_any:
        statement = statement.where(_has_any_tag(tags_any))
    if not_tags:
        statement = statement.where(~sa.and_(*(_has_tag(tag) for tag in not_tags)))
    if not_tags_any:
        statement = statement.where(~_has_any_tag(not_tags_any))
    if not show_hidden and hidden_tags:
        statement = statement.where(~_has_any_tag(list(hidden_tags)))
    for column, value in (filters or {}).items():
        attribute = getattr(StackRow, column, None)
        if attribute is None:
            raise exception.Invalid(reason=f"Unknown filter {column}")
        if isinstance(value, list | tuple | set | frozenset):
            statement = statement.where(attribute.in_(value))
        else:
            statement = statement.where(attribute == value)
    return statement


def list_rows(
    database: Database,
    statement: sa.Select[tuple[StackRow]],
    limit: int | None = None,
    sort_keys: Any = None,
    marker: str | None = None,
    sort_dir: str | None = None,
) -> list[StackRow]:
    """The rows in Heat's order (newest first by default, ``id`` breaking ties), the page
    after ``marker`` (a stack id), at most ``limit`` of them."""
    if isinstance(sort_keys, str):
        sort_keys = [sort_keys]
    columns = [SORT_COLUMNS[key] for key in sort_keys or [] if key in SORT_COLUMNS]
    if not columns:
        columns = ["created_at"]
        sort_dir = sort_dir or "desc"
    columns.append("id")
    direction = sort_dir or "asc"
    if direction not in ("asc", "desc"):
        raise exception.Invalid(reason="Unknown sort direction, must be 'desc' or 'asc'")
    order = [getattr(getattr(StackRow, column), direction)() for column in columns]
    with database.transaction() as session:
        rows = list(session.scalars(statement.order_by(*order)).all())
        for row in rows:
            # Loaded now, while the session is open, for the listing's tags.
            _ = list(row.tags)
    if marker:
        ids = [row.id for row in rows]
        if marker in ids:
            rows = rows[ids.index(marker) + 1 :]
    if limit is not None:
        rows = rows[: int(limit)]
    return rows


def count_rows(database: Database, statement: sa.Select[tuple[StackRow]]) -> int:
    with database.transaction() as session:
        counted = sa.select(sa.func.count()).select_from(statement.subquery())
        return int(session.scalar(counted) or 0)
