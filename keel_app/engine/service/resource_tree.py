"""Which resources a resource listing shows: a stack's own, then those of the stacks
nested under it, down to ``nested_depth`` levels (Heat's ``Stack.iter_resources``).

The walk is depth first: a stack's listed resources, then, for each of its resources
that owns a nested stack, that stack's walk one level less deep. A stack's resources
come in the order of their rows, as Heat reads them (with no ordering, which is the
rows' order on MariaDB and SQLite). Column filters (``name``, ``status``...) select
the listed resources of every stack.

One quirk of Heat's is kept, because ``openstack stack resource list -n N --filter
status=FAILED`` depends on it: when the stack listed is the root of its tree and
there are column filters, Heat caches the filtered rows of the whole tree first, and a
stack holding some of them descends only into those; a stack holding none descends
into all its resources. Listing a nested stack itself has no such cache.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.models import Resource as ResourceRow
from keel_app.models.database import Database


def listed_resources(
    database: Database, stack: Any, depth: int, column_filters: Mapping[str, Any]
) -> Iterator[tuple[Any, list[Any]]]:
    """Each stack the listing reaches, with its listed resources, in Heat's order."""
    descend_matching = bool(column_filters) and depth > 0 and stack.owner_id is None
    yield from _walk(database, stack, depth, column_filters, descend_matching)


def _walk(
    database: Database,
    stack: Any,
    depth: int,
    column_filters: Mapping[str, Any],
    descend_matching: bool,
) -> Iterator[tuple[Any, list[Any]]]:
    stored = stored_resources(stack)
    matching = filtered_names(database, stack.id, column_filters) if column_filters else None
    listed = [resource for resource in stored if matching is None or resource.name in matching]
    yield stack, listed
    if depth <= 0:
        return
    descended = listed if descend_matching and matching else stored
    for resource in descended:
        nested = nested_stack(resource)
        if nested is not None:
            yield from _walk(database, nested, depth - 1, column_filters, descend_matching)


def stored_resources(stack: Any) -> list[Any]:
    """The stack's resources that have rows, in the order of their rows (by name, the
    newest row of a replaced resource in its first one's place), as Heat reads them."""
    resources = stack.resources
    return [resources[name] for name in stack.db_resources() if name in resources]


def nested_stack(resource: Any) -> Any:
    """The stack a resource owns (loaded, deleted or not), or None."""
    has_nested = getattr(resource, "has_nested", None)
    if has_nested is None or not has_nested():
        return None
    return resource.nested()


def filtered_names(database: Database, stack_id: str, filters: Mapping[str, Any]) -> set[str]:
    """The names of the stack's resource rows that match every column filter."""
    statement = sa.select(ResourceRow.name).where(ResourceRow.stack_id == stack_id)
    for column, value in filters.items():
        attribute = getattr(ResourceRow, column, None)
        if attribute is None:
            raise exception.Invalid(reason=f"Unknown filter {column}")
        if isinstance(value, list | tuple | set | frozenset):
            statement = statement.where(attribute.in_(value))
        else:
            statement = statement.where(attribute == value)
    with database.transaction() as session:
        return {str(name) for name in session.scalars(statement).all()}
