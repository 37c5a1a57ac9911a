"""stack_suspend, stack_resume and stack_check: actions on every resource of a stack.

Heat 27 runs these on a convergence stack as traversals of the stack's own template
(``converge_stack`` with action SUSPEND, RESUME or CHECK): no template changes, and
each node's ``check_resource`` suspends (dependents first, on the cleanup nodes),
resumes or checks (requirements first, on the update nodes) its resource. OpenKeel does
the same, and so keeps DESIGN.md's "Convergence on Celery": the call returns once the
traversal's first steps are sent, no worker slot waits for a resource (a handler still
working is polled by re-sent steps), and a Heat engine can continue the traversal.

As in Heat, nothing refuses the call for the stack's state: a suspended stack is not
suspended again (nor a resumed one resumed), and any other state starts the traversal,
whose resources then refuse a state they cannot act from ("State ... invalid for
resume"), failing the stack. A failed check does not stop the CHECK traversal: the
stack fails at its end with every failure named.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from keel_app.engine.service import catalog
from keel_app.engine.service.stacks import converge_stored_stack, load_stack
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)


def _action_unless_done(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    stack_identity: Mapping[str, Any],
    action: str,
    done: str,
) -> None:
    """Run ``action`` over the stack, unless its last one was ``action`` and completed."""
    stack = load_stack(context, settings, database, stack_identity)
    catalog.enforce_stack(context, settings, stack)
    if stack.state == (action, stack.COMPLETE):
        LOG.info("%s is already %s", stack, done)
        return
    converge_stored_stack(stack, None, action, dispatcher)


def stack_suspend(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> None:
    _action_unless_done(
        context, settings, database, dispatcher, stack_identity, "SUSPEND", "suspended"
    )


def stack_resume(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> None:
    _action_unless_done(
        context, settings, database, dispatcher, stack_identity, "RESUME", "resumed"
    )


def stack_check(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> None:
    stack = load_stack(context, settings, database, stack_identity)
    LOG.info("Checking stack %s", stack.name)
    converge_stored_stack(stack, None, stack.CHECK, dispatcher)
