"""A scaling group's change as a list of steps that never block a worker slot.

Heat's groups (ResourceGroup, AutoScalingGroup) change their nested stack in a loop:
update it, wait for it, pause, update again. Here the loop is a list of steps kept in
the handler's token; each call of ``run_steps`` (from ``check_*_complete``) goes on from
where the token says and returns at the first step that must wait, to be called again
later by whoever drives the resource. A step is a list whose first item names it: a
pause (``[PAUSE, seconds]``) waits on the stack's clock; any other step is started by
the group's ``start_step`` callback, which returns the token of the nested stack's
update (``StackResource.update_with_template``), and is then waited on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from keel_app.engine.resource.stack_resource import RESTART, TARGET_ACTION

# The steps of a create or an update, as they travel in the step's token.
RESIZE, BATCH, PAUSE = "resize", "batch", "pause"
STEPS, INDEX, CHILD, RESUME_AT = "steps", "index", "child", "resume_at"

UPDATE_TIMEOUT_MESSAGE = "The current update policy will result in stack update timeout."


def steps_token(steps: list[list[Any]]) -> dict[str, Any]:
    """The token of a list of steps, none run yet."""
    return {STEPS: steps, INDEX: 0, CHILD: None, RESUME_AT: None}


def run_steps(
    group: Any, token: dict[str, Any], start_step: Callable[[list[Any]], dict[str, Any]]
) -> bool:
    """Run the steps on from where the token says; True once all are done.

    A step updates the nested stack and waits for it; a pause waits on the clock.
    A nested stack that had to be created empty first runs its step again.
    """
    steps = token[STEPS]
    while token[INDEX] < len(steps):
        step = steps[token[INDEX]]
        if step[0] == PAUSE:
            if token[RESUME_AT] is None:
                token[RESUME_AT] = group.stack.now() + step[1]
            if group.stack.now() < token[RESUME_AT]:
                return False
            token[RESUME_AT] = None
        elif token[CHILD] is None:
            token[CHILD] = start_step(step)
            return False
        else:
            child = token[CHILD]
            if not group._check_status_complete(child[TARGET_ACTION]):
                return False
            token[CHILD] = None
            if child.get(RESTART):
                continue
        token[INDEX] += 1
    return True


def update_timeout(stack: Any, batch_count: int, pause_seconds: float) -> float:
    """Seconds left for the batches once the pauses between them are taken off."""
    total_pause = pause_seconds * max(batch_count - 1, 0)
    if total_pause >= stack.timeout_secs():
        raise ValueError(UPDATE_TIMEOUT_MESSAGE)
    return float(stack.timeout_secs() - total_pause)


def batch_steps(
    stack: Any,
    batches: Iterable[tuple[int, int]],
    pause_seconds: float,
    with_timeout: bool = True,
) -> list[list[Any]]:
    """One step a batch (its size, its new members, and with ``with_timeout`` the nested
    stack's timeout in minutes), with pauses between them."""
    batches = list(batches)
    timeout_mins = math.ceil(update_timeout(stack, len(batches), pause_seconds) / 60)
    steps: list[list[Any]] = []
    for index, (capacity, max_updates) in enumerate(batches):
        steps.append([BATCH, capacity, max_updates, timeout_mins if with_timeout else None])
        if index < len(batches) - 1 and pause_seconds > 0:
            steps.append([PAUSE, pause_seconds])
    return steps
