"""Query and body parameters of the stack views, converted as Heat's ``param_utils`` does.

Every conversion error is a webob 400 with Heat's message. ``index_arguments`` reads a
stack listing's query string: the engine's ``list_stacks`` arguments, its filters, and
whether the answer carries a count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from keel_app.common.fault_map import BAD_REQUEST
from keel_app.web.faults import HttpFault
from keel_app.web.v1 import util

MAX_TAG_LENGTH = 80

SHOW_DELETED = "show_deleted"
SHOW_NESTED = "show_nested"
SHOW_HIDDEN = "show_hidden"
LIMIT = "limit"
TAG_FILTERS = ("tags", "tags_any", "not_tags", "not_tags_any")
WITH_COUNT = "with_count"
GLOBAL_TENANT = "global_tenant"

LIST_PARAMS = {
    LIMIT: util.SINGLE,
    "marker": util.SINGLE,
    "sort_dir": util.SINGLE,
    "sort_keys": util.MULTI,
    SHOW_DELETED: util.SINGLE,
    SHOW_NESTED: util.SINGLE,
    SHOW_HIDDEN: util.SINGLE,
    **dict.fromkeys(TAG_FILTERS, util.SINGLE),
}
# The stack document's keys a listing can be filtered on (the others are timestamps,
# texts or not stored in the stack table), then the older names Heat still accepts.
FILTERS = dict.fromkeys(
    (
        "stack_name",
        "stack_action",
        "stack_status",
        "stack_status_reason",
        "disable_rollback",
        "timeout_mins",
        "stack_owner",
        "parent",
        "stack_user_project_id",
        "id",
        "status",
        "name",
        "action",
        "tenant",
        "username",
        "owner_id",
    ),
    util.MIXED,
)


def bad_request(message: str) -> HttpFault:
    return HttpFault(BAD_REQUEST, message)


def extract_bool(name: str, value: Any) -> bool:
    if str(value).lower() not in ("true", "false"):
        raise bad_request(
            f'Unrecognized value "{value}" for "{name}", acceptable values are: true, false.'
        )
    return str(value).lower() == "true"


def is_int_like(value: Any) -> bool:
    try:
        return str(int(value)) == str(value)
    except (TypeError, ValueError):
        return False


def extract_int(
    name: str, value: Any, allow_zero: bool = True, allow_negative: bool = False
) -> int | None:
    if value is None:
        return None
    if not is_int_like(value):
        raise bad_request(f"Only integer is acceptable by '{name}'.")
    if value in ("0", 0):
        if allow_zero:
            return int(value)
        raise bad_request(f"Only non-zero integer is acceptable by '{name}'.")
    result = int(value)
    if not allow_negative and result < 0:
        raise bad_request(
            f"Value '{value}' is invalid for '{name}' which only accepts non-negative integer."
        )
    return result


def extract_tags(subject: Any) -> list[str]:
    # Heat splits whatever it was given: a list fails here as it fails in Heat.
    tags: list[str] = subject.split(",")
    for tag in tags:
        if len(tag) > MAX_TAG_LENGTH:
            raise bad_request(f'Invalid tag, "{tag}" is longer than 80 characters')
    return tags


def optional_bool(name: str) -> bool | None:
    """A boolean query parameter, None when absent (present but empty is an error)."""
    value = util.query_value(name)
    if value is None:
        return None
    return extract_bool(name, value)


@dataclass
class IndexArguments:
    # The keywords of the engine's list_stacks, filters aside.
    listing: dict[str, Any]
    filters: dict[str, Any] | None
    with_count: bool

    def count_arguments(self) -> dict[str, Any]:
        """The keywords of the engine's count_stacks for the same selection."""
        listing = self.listing
        return {
            "filters": self.filters,
            SHOW_DELETED: listing.get(SHOW_DELETED, False),
            SHOW_NESTED: listing.get(SHOW_NESTED, False),
            SHOW_HIDDEN: listing.get(SHOW_HIDDEN, False),
            **{name: listing.get(name) for name in TAG_FILTERS},
        }


def index_arguments() -> IndexArguments:
    """The listing's query string, checked in Heat's order."""
    listing = util.allowed_params(LIST_PARAMS)
    filters = util.allowed_params(FILTERS)
    for name in (SHOW_DELETED, SHOW_NESTED, LIMIT, SHOW_HIDDEN, *TAG_FILTERS):
        if name not in listing:
            continue
        if name == LIMIT:
            listing[name] = extract_int(name, listing[name])
        elif name in TAG_FILTERS:
            listing[name] = extract_tags(listing[name])
        else:
            listing[name] = extract_bool(name, listing[name])
    with_count = False
    count_value = util.query_value(WITH_COUNT)
    if count_value:
        with_count = extract_bool(WITH_COUNT, count_value)
    return IndexArguments(listing, filters or None, with_count)
