"""Driving a stack's life through the service on the LocalQueue, for plugin scenarios:
create, update (converged directly), signal, and the rows and events left behind."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from keel_app.engine.convergence import converge
from keel_app.engine.convergence.runtime import ConvergenceStack
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.environment import Environment
from keel_app.engine.service import signals
from keel_app.engine.service import stacks as service
from keel_app.engine.template import Template
from keel_app.models import Event
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow


def hot(resources: dict[str, Any], outputs: dict[str, Any] | None = None) -> dict[str, Any]:
    template: dict[str, Any] = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        template["outputs"] = outputs
    return template


def create(
    context,
    settings,
    database,
    queue,
    template: dict[str, Any],
    params: dict[str, Any] | None = None,
    name: str = "life",
    **args: Any,
) -> dict[str, str]:
    """Store the stack and send its first steps (run them with the queue)."""
    return service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name=name,
        template=template,
        params=params or {},
        files={},
        args=args,
    )


def update(
    context,
    settings,
    database,
    queue,
    identity: dict[str, str],
    template: dict[str, Any],
    params: dict[str, Any] | None = None,
) -> None:
    """Start an UPDATE traversal to ``template`` as the stack update does."""
    stack = ConvergenceStack.load(context, database, settings, identity["stack_id"])
    assert stack is not None
    stack.clock = queue.now
    converge.converge_stack(stack, Template(template, env=Environment(params or {})), queue)


def signal(
    context,
    settings,
    database,
    identity: dict[str, str],
    name: str,
    details: Any,
    sync_call: bool = False,
) -> Any:
    return signals.resource_signal(
        context,
        settings,
        database,
        None,
        stack_identity=identity,
        resource_name=name,
        details=details,
        sync_call=sync_call,
    )


def at_hook(message: Any) -> bool:
    return bool(message.arguments["data"].get("keel_progress", {}).get("hook"))


def settle(queue: LocalQueue) -> None:
    """Run until the only messages left are steps waiting at a hook."""
    while queue.pending() and not all(at_hook(message) for message in queue.pending()):
        queue.run_one()


def run_for(queue: LocalQueue, seconds: float) -> None:
    """Run the messages due within ``seconds`` of the queue's clock."""
    until = queue.now() + seconds
    while queue.pending() and queue._pending[0][0] <= until:
        queue.run_one()


def rows(database, model: Any, **where: Any) -> list[Any]:
    with database.transaction() as session:
        statement = sa.select(model)
        for column, value in where.items():
            statement = statement.where(getattr(model, column) == value)
        return list(session.scalars(statement.order_by(model.id)).all())


def stack_state(database, identity: dict[str, str]) -> tuple[str, str, str]:
    (row,) = rows(database, StackRow, id=identity["stack_id"])
    return row.action, row.status, row.status_reason


def states(database, identity: dict[str, str]) -> dict[str, tuple[str, str]]:
    """The state of each resource, by name (of replaced ones, the newest row)."""
    found = rows(database, ResourceRow, stack_id=identity["stack_id"])
    return {row.name: (row.action, row.status) for row in found}


def resource_row(database, identity: dict[str, str], name: str) -> ResourceRow:
    return rows(database, ResourceRow, stack_id=identity["stack_id"], name=name)[-1]


def resource_events(database, name: str, **where: Any) -> list[tuple[str, str, str]]:
    return [
        (event.resource_action, event.resource_status, event.resource_status_reason)
        for event in rows(database, Event, resource_name=name, **where)
    ]
