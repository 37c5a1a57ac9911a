"""What each process of a race test runs: its own Database, one contest, many rounds.

Lives outside the test module so that spawned processes import only this.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from keel_app.common import exception
from keel_app.models.api import resources, stack_locks, stacks, sync_points
from keel_app.models.database import Database
from tests.models.api.factories import FAST_RETRY, PROJECT

BARRIER_TIMEOUT = 30


def _resource_lock(database: Database, contender: str, resource_id: int) -> bool:
    return resources.acquire_resource_lock(database, resource_id, contender, 0)


def _sync_point(database: Database, contender: str, key: tuple[str, str]) -> bool:
    entity_id, traversal_id = key
    merged = {"input_data": {contender: True}}
    return sync_points.update_sync_point_input(database, entity_id, traversal_id, True, 0, merged)


def _stack_lock(database: Database, contender: str, stack_id: str) -> bool:
    return stack_locks.create_stack_lock(database, stack_id, contender) is None


def _stack_name(database: Database, contender: str, target: tuple[str, int]) -> bool:
    name, template_id = target
    values = {
        "name": name,
        "raw_template_id": template_id,
        "tenant": PROJECT,
        "username": contender,
        "disable_rollback": True,
    }
    try:
        stacks.create_stack(database, values)
    except exception.StackExists:
        return False
    return True


CONTESTS: dict[str, Callable[[Database, str, Any], bool]] = {
    "resource_lock": _resource_lock,
    "sync_point": _sync_point,
    "stack_lock": _stack_lock,
    "stack_name": _stack_name,
}


def compete(
    url: str, contest: str, contender: str, targets: list[Any], barrier: Any, results: Any
) -> None:
    """Play every round, each started together with the rival by ``barrier``.

    Puts ``(contender, [won, ...])`` on ``results``, or ``(contender, traceback)``.
    """
    try:
        database = Database(url, retry=FAST_RETRY)
        # Connect before the first round, so that round is not decided by connecting.
        with database.engine.connect():
            pass
        play = CONTESTS[contest]
        outcomes = []
        for target in targets:
            barrier.wait(BARRIER_TIMEOUT)
            outcomes.append(play(database, contender, target))
        database.dispose()
        results.put((contender, outcomes))
    except BaseException:
        barrier.abort()
        results.put((contender, traceback.format_exc()))
