"""Many predecessors reporting to one sync point at once: none is lost, none sleeps."""

from __future__ import annotations

import threading

import sqlalchemy as sa

from keel_app.engine.convergence import sync_point
from keel_app.engine.convergence.traversal_graph import ConvergenceNode
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


def _statements(database) -> list[str]:
    seen: list[str] = []
    for engine in database.engines:
        sa.event.listen(
            engine, "before_cursor_execute", lambda *args: seen.append(args[2].split()[0])
        )
    return seen


def _cleanup_sync(database, stack, sender, value, propagated, **extra) -> None:
    # The cleanup node of resource 7 waits for its own update and the cleanup of 8.
    predecessors = {ConvergenceNode(7, True), ConvergenceNode(8, False)}
    sync_point.sync(
        database,
        7,
        "traversal-1",
        False,
        lambda *args: propagated.append(args[1]),
        predecessors,
        {tuple(sender): value},
        **extra,
    )


def test_the_last_merge_into_a_cleanup_node_needs_no_read(database) -> None:
    stack = factories.stack(database)
    sync_point.create_all(database, [(7, False)], "traversal-1", stack.id)
    propagated: list[dict] = []
    _cleanup_sync(database, stack, ConvergenceNode(7, True), None, propagated)
    statements = _statements(database)
    _cleanup_sync(database, stack, ConvergenceNode(8, False), 8, propagated)

    assert "SELECT" not in statements
    expected = {
        "tuple:(7, True, 'resource')": None,
        "tuple:(8, False, 'resource')": 8,
    }
    assert propagated == [{"input_data": expected}]
    stored = sync_points.get_sync_point(database, 7, "traversal-1", False)
    assert (stored.atomic_key, stored.input_data, stored.extra_data) == (
        2,
        {"input_data": expected},
        None,
    )


def test_a_cleanup_node_holding_something_else_is_read_and_merged(database) -> None:
    stack = factories.stack(database)
    sync_point.create_all(database, [(7, False)], "traversal-1", stack.id)
    propagated: list[dict] = []
    failures: list[dict] = []
    # The update carried a failure along: the sync point holds extra data.
    _cleanup_sync(
        database,
        stack,
        ConvergenceNode(7, True),
        None,
        propagated,
        new_resource_failures={"r7": "x"},
    )
    statements = _statements(database)
    sync_point.sync(
        database,
        7,
        "traversal-1",
        False,
        lambda *args: failures.append(args[2]),
        {ConvergenceNode(7, True), ConvergenceNode(8, False)},
        {tuple(ConvergenceNode(8, False)): 8},
    )

    assert "SELECT" in statements
    assert failures == [{"r7": "x"}]
    stored = sync_points.get_sync_point(database, 7, "traversal-1", False)
    assert stored.atomic_key == 2
    assert stored.input_data == {
        "input_data": {"tuple:(7, True, 'resource')": None, "tuple:(8, False, 'resource')": 8}
    }


def test_a_cleanup_node_still_waiting_on_its_update_is_not_completed(database) -> None:
    stack = factories.stack(database)
    sync_point.create_all(database, [(7, False)], "traversal-1", stack.id)
    propagated: list[dict] = []
    _cleanup_sync(database, stack, ConvergenceNode(8, False), 8, propagated)

    stored = sync_points.get_sync_point(database, 7, "traversal-1", False)
    assert (stored.atomic_key, propagated) == (1, [])
    _cleanup_sync(database, stack, ConvergenceNode(7, True), None, propagated)
    assert len(propagated) == 1
