"""Many predecessors reporting to one sync point at once: none is lost, none sleeps."""

from __future__ import annotations

import threading

from keel_app.engine.convergence import sync_point
from keel_app.models.api import sync_points
from tests.models.api import factories

THREADS = 8
REPORTS_EACH = 25


def test_concurrent_merges_keep_every_report(database) -> None:
    stack = factories.stack(database)
    sync_point.create_all(database, [(stack.id, True)], "traversal-1", stack.id)
    predecessors = {(index, True) for index in range(THREADS * REPORTS_EACH)}
    completions: list[int] = []
    errors: list[BaseException] = []

    def report(first: int) -> None:
        try:
            for index in range(first, first + REPORTS_EACH):
                sync_point.sync(
                    database,
                    stack.id,
                    "traversal-1",
                    True,
                    lambda *_: completions.append(1),
                    predecessors,
                    {(index, True): None},
                )
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=report, args=(n * REPORTS_EACH,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    stored = sync_points.get_sync_point(database, stack.id, "traversal-1", True)
    assert set(sync_point.deserialize_input_data(stored.input_data)) == predecessors
    assert stored.atomic_key == THREADS * REPORTS_EACH
    assert completions == [1]
