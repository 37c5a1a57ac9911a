"""Many roots reporting to the stack: a record each, counted once, Heat's row at the end."""

from __future__ import annotations

import threading

import pytest

from keel_app.common import exception
from keel_app.engine.convergence import stack_completion, sync_point
from keel_app.engine.convergence.traversal_graph import ConvergenceNode
from keel_app.models.api import sync_points
from tests.models.api import factories

THREADS = 8
ROOTS = 200
TRAVERSAL = "traversal-1"


def _start(database):
    stack = factories.stack(database)
    sync_point.create_all(database, [(stack.id, True)], TRAVERSAL, stack.id)
    return stack


def test_concurrent_reports_complete_once_with_heats_row(database) -> None:
    stack = _start(database)
    roots = frozenset(ConvergenceNode(index, True) for index in range(ROOTS))
    completions: list[tuple] = []
    errors: list[BaseException] = []

    def report(first: int) -> None:
        try:
            # Every root reports twice (a redelivered step): it is counted once.
            for index in [*range(first, ROOTS, THREADS), *range(first, ROOTS, THREADS)]:
                stack_completion.report(
                    database,
                    stack.id,
                    TRAVERSAL,
                    ConvergenceNode(index, True),
                    roots,
                    {},
                    lambda *arguments: completions.append(arguments),
                )
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=report, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    expected_inputs = {f"tuple:({index}, True, 'resource')": None for index in range(ROOTS)}
    assert completions == [(stack.id, {"input_data": expected_inputs}, {}, False)]
    stored = sync_points.get_sync_point(database, stack.id, TRAVERSAL, True)
    assert (stored.input_data, stored.extra_data, stored.atomic_key) == (
        {"input_data": expected_inputs},
        None,
        ROOTS,
    )


def test_failures_of_every_root_reach_the_completion_and_the_row(database) -> None:
    stack = _start(database)
    roots = frozenset(
        {ConvergenceNode(1, True), ConvergenceNode(2, True), ConvergenceNode(3, True)}
    )
    completions: list[tuple] = []
    for index, failures in [(1, {"a": "Boom"}), (2, {}), (3, {"c": "Bang"})]:
        stack_completion.report(
            database,
            stack.id,
            TRAVERSAL,
            ConvergenceNode(index, True),
            roots,
            failures,
            lambda *arguments: completions.append(arguments),
        )

    assert [arguments[2] for arguments in completions] == [{"a": "Boom", "c": "Bang"}]
    stored = sync_points.get_sync_point(database, stack.id, TRAVERSAL, True)
    assert stored.extra_data == {"extra_data": {"resource_failures": {"a": "Boom", "c": "Bang"}}}


def test_records_go_with_the_traversals_sync_points(database) -> None:
    stack = _start(database)
    roots = frozenset({ConvergenceNode(7, True), ConvergenceNode(8, True)})
    stack_completion.report(
        database, stack.id, TRAVERSAL, ConvergenceNode(7, True), roots, {}, lambda *_: None
    )
    assert sync_points.get_sync_point(database, "-7", TRAVERSAL, True) is not None

    assert sync_point.delete_all(database, stack.id, TRAVERSAL) == 2
    with pytest.raises(exception.EntityNotFound):
        stack_completion.report(
            database, stack.id, TRAVERSAL, ConvergenceNode(8, True), roots, {}, lambda *_: None
        )
    assert sync_points.get_sync_point(database, "-8", TRAVERSAL, True) is None


def test_a_snapshot_roots_record_fits_the_column() -> None:
    snapshot = ConvergenceNode("0b5f0c5e-6a8e-4a36-9d7c-2f1e9c3b4a21", False, "snapshot")
    assert stack_completion.record_id(snapshot) == "-0b5f0c5e6a8e4a369d7c2f1e9c3b4a21"
