"""Stack documents as heat-api shows them: the engine's keys, its identity turned into
``id`` and ``links``, and action and status joined into one ``stack_status``."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode

import flask

from keel_app.web.v1 import util

STACK_IDENTITY = "stack_identity"
STACK_ACTION = "stack_action"
STACK_STATUS = "stack_status"

# What a listing shows of each stack.
BASIC_KEYS = (
    STACK_IDENTITY,
    "stack_name",
    "description",
    STACK_STATUS,
    "stack_status_reason",
    "creation_time",
    "deletion_time",
    "updated_time",
    "stack_owner",
    "parent",
    "stack_user_project_id",
    "tags",
)


def format_stack(
    stack: Mapping[str, Any],
    keys: Collection[str] | None = None,
    include_project: bool = False,
) -> dict[str, Any]:
    def items(key: str, value: Any) -> Iterator[tuple[str, Any]]:
        if keys and key not in keys:
            return
        if key == STACK_IDENTITY:
            yield "id", value["stack_id"]
            yield "links", [util.make_link(value)]
            if include_project:
                yield "project", value["tenant"]
        elif key == STACK_ACTION:
            return
        elif key == STACK_STATUS and STACK_ACTION in stack:
            # The API has always shown one status, "<action>_<status>".
            yield key, f"{stack[STACK_ACTION]}_{value}"
        else:
            yield key, value

    return {name: shown for key, value in stack.items() for name, shown in items(key, value)}


def collection(
    stacks: list[Mapping[str, Any]], count: int | None = None, include_project: bool = False
) -> dict[str, Any]:
    formatted = [format_stack(stack, BASIC_KEYS, include_project) for stack in stacks]
    result: dict[str, Any] = {"stacks": formatted}
    links = collection_links(formatted)
    if links:
        result["links"] = links
    if count is not None:
        result["count"] = count
    return result


def collection_links(items: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The ``next`` link when the page is full (``limit`` items)."""
    try:
        limit = int(util.query_value("limit") or 0)
    except ValueError:
        limit = 0
    if limit <= 0 or limit != len(items):
        return []
    return [{"rel": "next", "href": next_link(items[-1]["id"])}]


def next_link(marker: str) -> str:
    # The query string again with ``marker`` replaced, and moved last as webob does.
    pairs = [(key, value) for key, value in query_pairs() if key != "marker"]
    pairs.append(("marker", marker))
    return f"{flask.request.base_url}?{urlencode(pairs)}"


def query_pairs() -> list[tuple[str, str]]:
    """The query string's parameters in the order sent (Flask's ``args`` groups them)."""
    return parse_qsl(flask.request.query_string.decode("latin-1"), keep_blank_values=True)
