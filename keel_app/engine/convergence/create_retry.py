"""Heat's retries of a create that failed in a way worth another try.

A resource whose create fails because what it made went into an error state
(``ResourceInError``), or because its service answered a conflict, is deleted and created
again, up to ``action_retry_limit`` times, as Heat's ``Resource.create`` does: the failed
create is recorded (CREATE_FAILED), the delete runs at once (DELETE_IN_PROGRESS,
DELETE_COMPLETE), and each new create waits ``2^n`` seconds plus up to two of jitter
before it starts. A delete that fails the same way is retried after the same back-off.
When the creates or the deletes are used up, the resource has failed with the *first*
failure, which is what the stack reports.

The state travels in the step's progress (``RETRY_KEY``) from one re-scheduled step to
the next, so any worker can go on with it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from keel_app.common import exception

RETRY_KEY = "create_retry"
# The progress of a step that is to start the next create attempt.
RESTART_KEY = "restart_create"
JITTER_MAX = 2.0


def is_retryable(resource: Any, failure: exception.ResourceFailure) -> bool:
    """Whether a failed create or delete is worth another attempt."""
    error = failure.exc
    if isinstance(error, exception.ResourceInError):
        return True
    if error is None or resource.default_client_name is None:
        return False
    try:
        plugin = resource.client_plugin()
    except exception.ClientNotAvailable:
        return False
    return bool(plugin.is_conflict(error))


def backoff_delay(attempt: int) -> float:
    """Seconds before attempt ``attempt`` (1, 2, ...) of an action."""
    return float(2**attempt) + random.random() * JITTER_MAX


def after_failure(
    state: Mapping[str, Any] | None,
    failure: exception.ResourceFailure,
    action: str,
    limit: int,
) -> dict[str, Any] | None:
    """The state after ``action`` (CREATE or DELETE) failed; None when the attempts are
    used up. A delete always comes next: after a failed create, and again after a failed
    delete."""
    state = state or {"creates": 0, "deletes": 0, "first": f"Resource CREATE failed: {failure}"}
    creates, deletes = state["creates"], state["deletes"]
    if action == "CREATE":
        creates, deletes = creates + 1, 0
    else:
        deletes += 1
    if creates > limit or deletes > limit:
        return None
    return {**state, "creates": creates, "deletes": deletes}


def first_failure(state: Mapping[str, Any]) -> exception.ResourceFailure:
    """The failure the resource ends with: its first, as Heat raises it (the stored text
    already names the resource's path)."""
    return exception.ResourceFailure(state["first"], None, "CREATE")
