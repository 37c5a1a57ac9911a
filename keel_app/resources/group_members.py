"""The members of a group's nested stack, as Heat's ``grouputils`` reads them.

``GroupInspector`` asks the engine, as Heat does over RPC, for the group's resources
(failed members first, then by creation time and name) and for its current template.
The member look-ups (``member_attribute``, ``member_reference``, ``nested_attribute``)
read the loaded nested stack itself: what a group answers for a member attribute that
none of its child's outputs carries.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from keel_app.common import exception
from keel_app.engine.template import Template

FAILED = "FAILED"


class GroupInspector:
    """What the engine lists of a group's nested stack, fetched once."""

    def __init__(self, group: Any) -> None:
        self._group = group
        self._identity = group.nested_identifier()
        self._members: list[dict[str, Any]] | None = None
        self._template: Any = None

    def _member_data(self) -> list[dict[str, Any]]:
        if self._identity is None:
            return []
        if self._members is None:
            listed = self._group._engine().resources(self._identity)
            self._members = sorted(
                listed,
                key=lambda member: (
                    member["resource_status"] != FAILED,
                    member["creation_time"] or "",
                    member["resource_name"],
                ),
            )
        return self._members

    def _selected(self, include_failed: bool) -> Iterator[dict[str, Any]]:
        return (
            member
            for member in self._member_data()
            if include_failed or member["resource_status"] != FAILED
        )

    def size(self, include_failed: bool) -> int:
        return sum(1 for _member in self._selected(include_failed))

    def member_names(self, include_failed: bool) -> Iterator[str]:
        return (member["resource_name"] for member in self._selected(include_failed))

    def template(self) -> Template | None:
        """The child's current template (without its environment)."""
        if self._identity is None:
            return None
        if self._template is None:
            self._template = self._group._engine().template(self._identity)
        return Template(self._template)


def member_definitions(group: Any, include_failed: bool = False) -> list[tuple[str, Any]]:
    """(name, definition) of the group's members, in the inspector's order."""
    inspector = GroupInspector(group)
    template = inspector.template()
    if template is None:
        return []
    definitions = template.resource_definitions(None)
    return [
        (name, definitions[name])
        for name in inspector.member_names(include_failed=include_failed)
        if name in definitions
    ]


def members(group: Any, include_failed: bool = False) -> list[Any]:
    """The loaded members, failed ones first if included, then by creation time and name."""
    nested = group.nested()
    if not nested:
        return []
    found = [
        resource
        for resource in nested.resources.values()
        if include_failed or resource.status != resource.FAILED
    ]
    return sorted(
        found,
        key=lambda resource: (
            resource.status != resource.FAILED,
            resource.created_time is None,
            resource.created_time or 0,
            resource.name,
        ),
    )


def member(group: Any, name: str, use_indices: bool) -> Any:
    """The member called ``name`` (or at that index); None when there is no child."""
    nested = group.nested()
    if not nested:
        return None
    try:
        if use_indices:
            return members(group)[int(name)]
        return nested.resources[name]
    except (IndexError, KeyError):
        raise exception.NotFound(
            f"Member '{name}' not found in group resource '{group.name}'."
        ) from None


def member_attribute(group: Any, use_indices: bool, name: str, *path: Any) -> Any:
    found = member(group, name, use_indices)
    if found is None:
        return None
    return found.FnGetAtt(*path)


def member_reference(group: Any, use_indices: bool, name: str) -> Any:
    found = member(group, name, use_indices)
    if found is None:
        return None
    return found.FnGetRefId()


def nested_attribute(group: Any, key: str, use_indices: bool, *path: Any) -> Any:
    """``resource.<name>`` (the member's reference) or ``resource.<name>.<attribute>``."""
    parts = key.split(".", 2)[1:] + list(path)
    if len(parts) > 1:
        return member_attribute(group, use_indices, *parts)
    return member_reference(group, use_indices, *parts)
