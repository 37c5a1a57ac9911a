"""abandon_stack and export_stack: a stack handed over as data, for a later adopt.

Both are behind ``enable_stack_abandon``, export included (it is an abandon that
deletes nothing). An abandon then deletes the stack as a delete does, except that
every resource is left alive: the DELETE traversal runs with ``abandon`` set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common import exception
from keel_app.engine.service.stacks import load_stack, start_delete
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database


def abandon_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
    abandon: bool = True,
) -> dict[str, Any]:
    """The stack's data (``Stack.prepare_abandon``); with ``abandon``, the stack is then
    deleted from the database, its resources kept."""
    if not settings.enable_stack_abandon:
        raise exception.NotSupported(feature="Stack Abandon")
    stack = load_stack(context, settings, database, stack_identity)
    # Read before anything is deleted.
    data = stack.prepare_abandon()
    if abandon:
        start_delete(stack, dispatcher, abandon=True)
    return data


def export_stack(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    stack_identity: Mapping[str, Any],
) -> dict[str, Any]:
    """What an abandon would hand over, the stack left as it is."""
    return abandon_stack(
        context, settings, database, dispatcher, stack_identity=stack_identity, abandon=False
    )
