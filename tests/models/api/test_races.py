"""Two OS processes race for the same row, round after round: exactly one wins each round."""

from __future__ import annotations

import multiprocessing
import queue
import time
import uuid
from typing import Any

import sqlalchemy as sa

from keel_app.models import Resource, Stack, StackLock, SyncPoint
from keel_app.models.database import Database
from tests.models.api import contenders, factories

ROUNDS = 20
CONTENDERS = ("engine-a", "engine-b")
RESULT_TIMEOUT = 60


def _race(url: str, contest: str, targets: list[Any]) -> list[str]:
    """Run the contest between two processes and return each round's winner."""
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(len(CONTENDERS))
    results = context.Queue()
    processes = [
        context.Process(
            target=contenders.compete,
            args=(url, contest, contender, targets, barrier, results),
        )
        for contender in CONTENDERS
    ]
    for process in processes:
        process.start()
    try:
        outcomes = _collect(results, processes)
    finally:
        for process in processes:
            process.join(RESULT_TIMEOUT)
            if process.is_alive():
                process.terminate()
    for contender, outcome in outcomes.items():
        assert isinstance(outcome, list), f"{contender} failed:\n{outcome}"
    winners = []
    for round_outcomes in zip(*(outcomes[name] for name in CONTENDERS), strict=True):
        assert sum(round_outcomes) == 1, f"round outcomes {round_outcomes}"
        winners.append(CONTENDERS[round_outcomes.index(True)])
    return winners


def _collect(results: Any, processes: list[Any]) -> dict[str, Any]:
    outcomes: dict[str, Any] = {}
    deadline = time.monotonic() + RESULT_TIMEOUT
    while len(outcomes) < len(processes):
        try:
            contender, outcome = results.get(timeout=1)
        except queue.Empty:
            crashed = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
            assert not crashed, f"a contender died with exit code {crashed}"
            assert time.monotonic() < deadline, "the race did not finish"
            continue
        outcomes[contender] = outcome
    return outcomes


def test_one_engine_takes_each_resource_lock(database: Database, empty_database_url: str) -> None:
    stack = factories.stack(database)
    ids = [factories.resource(database, stack.id, atomic_key=0).id for _ in range(ROUNDS)]

    winners = _race(empty_database_url, "resource_lock", ids)

    with database.transaction() as session:
        stored = {
            row.id: (row.engine_id, row.atomic_key) for row in session.scalars(sa.select(Resource))
        }
    assert [stored[resource_id] for resource_id in ids] == [(w, 1) for w in winners]


def test_one_predecessor_merges_into_each_sync_point(
    database: Database, empty_database_url: str
) -> None:
    stack = factories.stack(database)
    traversal = str(uuid.uuid4())
    keys = [(str(entity), traversal) for entity in range(ROUNDS)]
    for entity_id, _ in keys:
        factories.sync_point(database, stack.id, entity_id=entity_id, traversal_id=traversal)

    winners = _race(empty_database_url, "sync_point", keys)

    for (entity_id, _), winner in zip(keys, winners, strict=True):
        stored = factories.row(database, SyncPoint, (entity_id, traversal, True))
        assert (stored.atomic_key, stored.input_data) == (1, {"input_data": {winner: True}})


def test_one_engine_takes_each_stack_lock(database: Database, empty_database_url: str) -> None:
    ids = [factories.stack(database).id for _ in range(ROUNDS)]

    winners = _race(empty_database_url, "stack_lock", ids)

    for stack_id, winner in zip(ids, winners, strict=True):
        assert factories.row(database, StackLock, stack_id).engine_id == winner


def test_one_stack_of_each_name_is_created(database: Database, empty_database_url: str) -> None:
    targets = [(f"race-{index}", factories.raw_template(database).id) for index in range(ROUNDS)]

    winners = _race(empty_database_url, "stack_name", targets)

    with database.transaction() as session:
        created = session.execute(sa.select(Stack.name, Stack.username)).all()
    assert sorted(created) == sorted(
        (name, winner) for (name, _), winner in zip(targets, winners, strict=True)
    )
