"""stack_cancel_update: stop a running update (or create), with or without rollback.

With rollback (updates only), the stack converges back on its previous template: a
ROLLBACK traversal takes over from the update's. Without it (updates and creates), the
traversal is stopped: the stack gets a traversal id no step belongs to and is marked
FAILED, "Stack <action> cancelled"; steps already running finish their resource's
work, then find themselves stale.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common import exception
from keel_app.engine.convergence import converge
from keel_app.engine.service.stacks import convergence_view, load_stack
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database


def stack_cancel_update(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    cancel_with_rollback: bool = True,
) -> None:
    stack = load_stack(context, settings, database, stack_identity)
    if cancel_with_rollback:
        allowed_actions: tuple[str, ...] = (stack.UPDATE,)
    else:
        allowed_actions = (stack.UPDATE, stack.CREATE)
    if not (stack.status == stack.IN_PROGRESS and stack.action in allowed_actions):
        state = "_".join(stack.state)
        raise exception.NotSupported(feature=f"Cancelling update when stack is {state}")
    view = convergence_view(stack)
    if cancel_with_rollback:
        converge.rollback(view, dispatcher)
    else:
        converge.stop_traversal(view)
