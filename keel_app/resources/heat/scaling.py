"""A scaling group's arithmetic: Heat's rolling-update batches, the member definitions of
each batch (``heat/scaling/rolling_update.py`` and ``template.py``), and the new size an
adjustment asks for (``heat/scaling/scalingutil.py``).

A batch is (the group's size during the batch, how many members get the new
definition in it). New members count towards the second number first; the rest of
a batch's quota goes to existing members, in the order the caller sorted them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

from keel_app.engine.template import Template

HOT_2015_04_30 = ("heat_template_version", "2015-04-30")

ADJUSTMENT_TYPES = (EXACT_CAPACITY, CHANGE_IN_CAPACITY, PERCENT_CHANGE_IN_CAPACITY) = (
    "exact_capacity",
    "change_in_capacity",
    "percent_change_in_capacity",
)
CFN_ADJUSTMENT_TYPES = (
    CFN_EXACT_CAPACITY,
    CFN_CHANGE_IN_CAPACITY,
    CFN_PERCENT_CHANGE_IN_CAPACITY,
) = ("ExactCapacity", "ChangeInCapacity", "PercentChangeInCapacity")


def _percent_change(current: int, adjustment: float, min_adjustment_step: int | None) -> int:
    """The members a percentage adds or removes: at least one, otherwise rounded towards
    zero, and at least ``min_adjustment_step``."""
    delta = current * adjustment / 100.0
    if math.fabs(delta) < 1.0:
        rounded = int(math.ceil(delta) if delta > 0.0 else math.floor(delta))
    else:
        rounded = int(math.floor(delta) if delta > 0.0 else math.ceil(delta))
    if min_adjustment_step and min_adjustment_step > abs(rounded):
        return min_adjustment_step if rounded > 0 else -min_adjustment_step
    return rounded


def calculate_new_capacity(
    current: int,
    adjustment: Any,
    adjustment_type: str,
    min_adjustment_step: int | None,
    minimum: int,
    maximum: int,
) -> Any:
    """The group's size after the adjustment, kept within ``minimum`` and ``maximum``.

    An unknown adjustment type is read as a percentage, as Heat does.
    """
    if adjustment_type in (CHANGE_IN_CAPACITY, CFN_CHANGE_IN_CAPACITY):
        new_capacity = current + adjustment
    elif adjustment_type in (EXACT_CAPACITY, CFN_EXACT_CAPACITY):
        new_capacity = adjustment
    else:
        new_capacity = current + _percent_change(current, adjustment, min_adjustment_step)
    if new_capacity > maximum:
        return maximum
    if new_capacity < minimum:
        return minimum
    return new_capacity


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


def instance_group_batches(
    target_capacity: int, current_capacity: int, batch_size: int, min_in_service: int
) -> Iterator[tuple[int, int]]:
    """The batches of an InstanceGroup or AutoScalingGroup: as ``batches``, except that
    every member given the new definition counts as updated (Heat's ``_get_batches``)."""
    updated = 0
    while needs_update(target_capacity, current_capacity, updated):
        batch = next_batch(target_capacity, current_capacity, updated, batch_size, min_in_service)
        yield batch
        current_capacity, new_members = batch
        updated += new_members


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
