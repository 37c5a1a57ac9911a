"""The convergence steps as Celery tasks: ``keel.check_resource`` (and
``keel.check_resource_batch``, several leaves of a traversal) and
``keel.check_resource_delete_snapshot``.

Argument names are those of Heat's worker API (spec section 1.3) plus the sealed
``context``. Each task runs one step and returns; the next steps are sent by the engine
through the worker's ``CeleryDispatcher`` only after the commit that justifies them.
Late acknowledgement means a step lost with its worker is delivered again: steps are
idempotent per (resource id, traversal), which makes that safe.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.engine.convergence.worker import Worker
from keel_app.tasks import context_wire
from keel_app.tasks.app import app
from keel_app.tasks.runtime import WorkerRuntime, current

LOG = logging.getLogger(__name__)

# Steps one task may run in a row (a chain's hops); then the next goes through the broker,
# so that one long chain does not keep a thread from the other stacks' steps for long.
CONTINUED_STEPS = 50


def _worker(runtime: WorkerRuntime) -> Worker:
    return Worker(runtime.database, runtime.settings, runtime.dispatcher)


def _context(runtime: WorkerRuntime, context: dict[str, Any]) -> Any:
    return context_wire.unseal(context, runtime.settings.auth_encryption_key)


# The steps are casts: nobody reads their results, so workers do not store them.
@app.task(
    name="keel.check_resource", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def check_resource(
    context: dict[str, Any],
    resource_id: int,
    current_traversal: str,
    data: dict[str, Any],
    is_update: bool,
    adopt_stack_data: dict[str, Any] | None,
    converge: bool = False,
    skip_propagate: bool = False,
    accumulated_failures: dict[str, str] | None = None,
    node_type: str = "resource",
    abandon: bool = False,
) -> None:
    runtime = current()
    step = {
        "resource_id": resource_id,
        "current_traversal": current_traversal,
        "data": data,
        "is_update": is_update,
        "adopt_stack_data": adopt_stack_data,
        "converge": converge,
        "skip_propagate": skip_propagate,
        "accumulated_failures": accumulated_failures,
        "node_type": node_type,
        "abandon": abandon,
    }
    _run_with_continuations(runtime, _context(runtime, context), step)


def _run_with_continuations(runtime: WorkerRuntime, context: Any, step: dict[str, Any]) -> None:
    """Run the step, then the next one it kept for this thread, and so on, at most
    ``CONTINUED_STEPS`` in all. A step kept and not run (past that number, or after a
    step that raised) leaves as a message."""
    worker = _worker(runtime)
    dispatcher = runtime.dispatcher
    unrun: list[tuple[Any, dict[str, Any]]] = []
    try:
        with dispatcher.continuation() as kept:
            unrun = kept
            for _ in range(CONTINUED_STEPS):
                worker.check_resource(context, **step)
                if not kept:
                    return
                context, step = kept.pop()
            kept.append((context, step))
    finally:
        for kept_context, kept_step in unrun:
            dispatcher.send_check_resource(kept_context, **kept_step)


@app.task(
    name="keel.check_resource_batch",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def check_resource_batch(context: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    """Several leaves of one traversal, each run as ``keel.check_resource`` runs it.

    A step that fails does not keep the others from running; the first failure is the
    task's. Delivered again after a crash, every step runs again, as steps are idempotent.
    """
    runtime = current()
    worker = _worker(runtime)
    request_context = _context(runtime, context)
    failure: Exception | None = None
    for step in steps:
        try:
            worker.check_resource(request_context, **step)
        except Exception as error:
            LOG.exception("Step of resource %s failed", step.get("resource_id"))
            failure = failure or error
    if failure is not None:
        raise failure


@app.task(
    name="keel.check_resource_delete_snapshot",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def check_resource_delete_snapshot(
    context: dict[str, Any],
    snapshot_id: str,
    resource_name: str,
    start_time: str | None = None,
    is_stack_delete: bool = False,
    current_traversal: str | None = None,
) -> None:
    """One resource's part of deleting a snapshot; the last to report removes the rows."""
    runtime = current()
    _worker(runtime).check_resource_delete_snapshot(
        _context(runtime, context),
        snapshot_id,
        resource_name,
        start_time=start_time,
        is_stack_delete=is_stack_delete,
        current_traversal=current_traversal,
    )


@app.task(name="keel.cancel_check_resource", acks_late=True, ignore_result=True)
def cancel_check_resource(context: dict[str, Any], stack_id: str) -> None:
    """Sent to one engine's own queue: abort the actions it holds locks for in the stack."""
    runtime = current()
    _worker(runtime).cancel_check_resource(_context(runtime, context), stack_id)
