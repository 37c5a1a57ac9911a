"""A scaling group's change in batches: Heat's rolling-update arithmetic and the member
definitions of each batch (``heat/scaling/rolling_update.py`` and ``template.py``).

A batch is (the group's size during the batch, how many members get the new
definition in it). New members count towards the second number first; the rest of
a batch's quota goes to existing members, in the order the caller sorted them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from keel_app.engine.template import Template

HOT_2015_04_30 = ("heat_template_version", "2015-04-30")


def needs_update(target_capacity: int, current_capacity: int, up_to_date: int) -> bool:
    """Whether batches remain: the group is not yet all new at its target size."""
    return not (up_to_date >= current_capacity == target_capacity)


def next_batch(
    target_capacity: int,
    current_capacity: int,
    up_to_date: int,
    batch_size: int,
    min_in_service: int,
) -> tuple[int, int]:
    """(the group's size, the members given the new definition) of the next batch."""
    assert up_to_date <= current_capacity
    effective_minimum = min(min_in_service, target_capacity, current_capacity)
    effective_batch = min(batch_size, max(target_capacity - up_to_date, 0))
    new_capacity = effective_batch + max(
        min(current_capacity, target_capacity - effective_batch), effective_minimum
    )
    return new_capacity, effective_batch


def batches(
    target_capacity: int, current_capacity: int, batch_size: int, min_in_service: int
) -> Iterator[tuple[int, int]]:
    """Every batch that takes the group from its current size to the target, all new."""
    updated = 0
    while needs_update(target_capacity, current_capacity, updated):
        new_capacity, total_new = next_batch(
            target_capacity, current_capacity, updated, batch_size, min_in_service
        )
        yield new_capacity, total_new
        # Members created beyond both sizes are temporary: they do not stay updated.
        updated += total_new - max(new_capacity - max(current_capacity, target_capacity), 0)
        current_capacity = new_capacity


def member_definitions(
    old_members: list[tuple[str, Any]],
    new_definition: Any,
    count: int,
    new_count: int,
    next_name: Callable[[], str],
    customise: Callable[[str, Any], Any],
) -> Iterator[tuple[str, Any]]:
    """(name, definition) of each of ``count`` members after the next batch.

    ``old_members`` are sorted first-to-replace (or first-to-remove) first; those past
    ``count`` from the end are removed. Of ``new_count`` new definitions, created
    members take theirs first; the rest replace existing members' definitions in order.
    """
    old_members = old_members[-count:] if count else []
    creating = count - len(old_members)
    replacing = new_count - creating
    for index in range(count):
        if index < len(old_members):
            name, old_definition = old_members[index]
            custom_definition = customise(name, new_definition)
            if old_definition != custom_definition and replacing > 0:
                replacing -= 1
                yield name, custom_definition
            else:
                yield name, old_definition
        else:
            name = next_name()
            yield name, customise(name, new_definition)


def make_template(
    definitions: Iterator[tuple[str, Any]] | list[tuple[str, Any]],
    version: tuple[str, str] = HOT_2015_04_30,
    child_env: Any = None,
) -> Template:
    """A template of the given resource definitions (HOT unless ``version`` says else)."""
    template = Template(dict([version]), env=child_env)
    for name, definition in definitions:
        template.add_resource(definition, name)
    return template
