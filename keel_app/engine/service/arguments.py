"""The ``args`` of a create or update call, read as Heat's ``extract_args`` reads them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.engine.template import format as template_format

MAX_TAG_LENGTH = 80


def extract_bool(name: str, value: Any) -> bool:
    if str(value).lower() not in ("true", "false"):
        raise ValueError(
            f'Unrecognized value "{value}" for "{name}", acceptable values are: true, false.'
        )
    return str(value).lower() == "true"


def _check_tags(tags: Any) -> list[str]:
    if not isinstance(tags, list):
        raise ValueError(f"Invalid tags, not a list: {tags}")
    for tag in tags:
        if not isinstance(tag, str):
            raise ValueError(f'Invalid tag, "{tag}" is not a string')
        if len(tag) > MAX_TAG_LENGTH:
            raise ValueError(f'Invalid tag, "{tag}" is longer than 80 characters')
        # The API working group's tagging guideline forbids commas.
        if "," in tag:
            raise ValueError(f'Invalid tag, "{tag}" contains a comma')
    return tags


def extract_args(params: Mapping[str, Any]) -> dict[str, Any]:
    """The stack options among ``params``, converted; ValueError for a bad one."""
    options: dict[str, Any] = {}
    timeout = params.get("timeout_mins")
    if timeout not in ("0", 0, None):
        try:
            minutes = int(timeout)
        except (ValueError, TypeError):
            # Heat logs an unreadable timeout and creates the stack without one.
            minutes = None
        if minutes is not None:
            if minutes <= 0:
                raise ValueError(f"Invalid timeout value {minutes}")
            options["timeout_mins"] = minutes
    for name in ("converge", "disable_rollback"):
        if name in params:
            options[name] = extract_bool(name, params[name])
    adopt_data = params.get("adopt_stack_data")
    if adopt_data:
        try:
            options["adopt_stack_data"] = template_format.simple_parse(adopt_data)
        except ValueError as error:
            raise ValueError(f"Invalid adopt data: {error}") from None
    tags = params.get("tags")
    if tags is not None:
        options["tags"] = _check_tags(tags)
    return options
