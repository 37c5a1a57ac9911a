"""The stack's own sync point when a traversal has many roots: a record per root, a count.

Each root of a traversal reports to the stack's sync point. Merged as Heat merges them,
every report reads and writes a document holding one key per root reported so far,
under the row's lock: a traversal of N roots moves O(N²) bytes through one row, which
for thousands of roots takes longer than the steps themselves. Beyond ``MANY_ROOTS``
roots, each root instead stores a completion record of its own (a sync point row of the
traversal, keyed by the root's id behind ``-``) and the stack's sync point only counts
the records in its ``atomic_key``, which moves on at every change as in Heat. The report
that completes the count writes the stack sync point's data in Heat's form (a key per
root, the failures merged) before the stack completes. The records go with the
traversal's other sync points, deleted by stack and traversal as Heat deletes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common import exception
from keel_app.engine.convergence import sync_point
from keel_app.models.api import sync_points
from keel_app.models.database import Database

# Up to this many roots, the stack's sync point is merged into as Heat merges it.
MANY_ROOTS = 500


def record_id(root: Any) -> str:
    """The completion record's entity id: a resource id, or a snapshot's UUID unhyphened
    (to fit the 36-character column)."""
    rsrc_id = root.rsrc_id
    text = str(rsrc_id) if isinstance(rsrc_id, int) else str(rsrc_id).replace("-", "")
    return sync_points.RECORD_PREFIX + text


def report(
    database: Database,
    stack_id: str,
    traversal: str,
    root: Any,
    roots: frozenset[Any],
    failures: Mapping[str, str],
    complete: sync_point.Propagate,
) -> None:
    """Count ``root`` as reported; the last root to report calls ``complete`` as the
    stack's sync point would (stack id, its input data, every root's failures, False).

    EntityNotFound when the traversal's sync points are gone (it was superseded).
    """
    extra = (
        sync_point.serialize_extra_data({"resource_failures": dict(failures)}) if failures else None
    )
    record = {
        "entity_id": record_id(root),
        "traversal_id": traversal,
        "is_update": root.is_update,
        "atomic_key": 0,
        "stack_id": stack_id,
        "input_data": {},
        "extra_data": extra,
    }
    outcome: dict[str, Any] = {}

    def finish(extras: list[Any]) -> tuple[Any, Any]:
        all_failures: dict[str, str] = {}
        for stored in extras:
            all_failures.update(
                sync_point.deserialize_extra_data(stored).get("resource_failures", {})
            )
        inputs = sync_point.serialize_input_data({tuple(node): None for node in roots})
        outcome.update(inputs=inputs, failures=all_failures)
        stored_extra = (
            sync_point.serialize_extra_data({"resource_failures": all_failures})
            if all_failures
            else None
        )
        return inputs, stored_extra

    counted = sync_points.count_root_report(
        database, stack_id, traversal, record, len(roots), finish
    )
    if counted is None:
        raise exception.EntityNotFound(entity="Sync Point", name=(stack_id, traversal, True))
    if outcome:
        complete(stack_id, outcome["inputs"], outcome["failures"], False)
