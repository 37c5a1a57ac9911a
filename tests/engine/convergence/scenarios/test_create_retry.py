"""Scenario: a create whose resource goes into an error state is deleted and made again,
up to action_retry_limit times with a growing pause, as Heat's Resource.create retries;
the stack then reports the first failure."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.common.exception import ResourceInError
from keel_app.engine.environment.global_environment import global_env
from keel_app.resources.heat.none import NoneResource
from tests.engine.convergence.harness import Engine, make_engine
from tests.models.api.factories import migrated_database

FLAKY = "Keel::Test::Flaky"
# How many of the next creates go into an error state, and what each step did.
SCRIPT: dict[str, Any] = {"errors": 0, "error_class": ResourceInError, "calls": []}


class Flaky(NoneResource):
    """Made at once, then found in an error state as long as the script says so."""

    def handle_create(self) -> str:
        super().handle_create()
        SCRIPT["calls"].append("create")
        return "made"

    def check_create_complete(self, token: Any) -> bool:
        if SCRIPT["errors"] > 0:
            SCRIPT["errors"] -= 1
            attempt = SCRIPT["calls"].count("create")
            if SCRIPT["error_class"] is ResourceInError:
                raise ResourceInError(resource_status="ERROR", status_reason=f"attempt {attempt}")
            raise SCRIPT["error_class"](f"attempt {attempt}")
        return True

    def handle_delete(self) -> Any:
        SCRIPT["calls"].append("delete")
        return None


@pytest.fixture(autouse=True)
def flaky_type() -> Iterator[None]:
    registry = global_env().registry
    registry.register_class(FLAKY, Flaky)
    SCRIPT.update(errors=0, error_class=ResourceInError, calls=[])
    yield
    registry._registry.pop(FLAKY)


def engine_with(database_url: str, **settings: Any) -> Engine:
    return make_engine(migrated_database(database_url), **settings)


TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"flaky": {"type": FLAKY}},
}


def flaky_events(engine: Engine, stack_id: str) -> list[tuple[str, str, str]]:
    return [
        (action, status, reason)
        for name, action, status, reason in engine.events(stack_id)
        if name == "flaky"
    ]


def test_an_error_is_deleted_and_created_again_after_a_pause(empty_database_url: str) -> None:
    engine = engine_with(empty_database_url)
    SCRIPT["errors"] = 1
    started = engine.queue.now()

    stack_id = engine.create(TEMPLATE)

    assert engine.stack_row(stack_id).status == "COMPLETE"
    assert SCRIPT["calls"] == ["create", "delete", "create"]
    assert [(action, status) for action, status, _ in flaky_events(engine, stack_id)] == [
        ("CREATE", "IN_PROGRESS"),
        ("CREATE", "FAILED"),
        ("DELETE", "IN_PROGRESS"),
        ("DELETE", "COMPLETE"),
        ("CREATE", "IN_PROGRESS"),
        ("CREATE", "COMPLETE"),
    ]
    assert flaky_events(engine, stack_id)[1][2] == (
        'ResourceInError: resources.flaky: Went to status ERROR due to "attempt 1"'
    )
    # The second create waited 2^1 seconds and up to 2 of jitter.
    assert 2.0 <= engine.queue.now() - started <= 4.0


def test_the_stack_fails_with_the_first_failure_once_the_retries_are_used_up(
    empty_database_url: str,
) -> None:
    engine = engine_with(empty_database_url, action_retry_limit=2)
    SCRIPT["errors"] = 10

    stack_id = engine.create(TEMPLATE, disable_rollback=True)

    assert SCRIPT["calls"] == ["create", "delete", "create", "delete", "create"]
    stack = engine.stack_row(stack_id)
    assert (stack.action, stack.status, stack.status_reason) == (
        "CREATE",
        "FAILED",
        "Resource CREATE failed: ResourceInError: resources.flaky: "
        'Went to status ERROR due to "attempt 1"',
    )
    [row] = engine.resources(stack_id)
    assert (row.action, row.status, row.engine_id) == ("CREATE", "FAILED", None)
    assert row.status_reason.endswith('due to "attempt 3"')


def test_other_errors_are_not_retried(empty_database_url: str) -> None:
    engine = engine_with(empty_database_url)
    SCRIPT.update(errors=1, error_class=ValueError)

    stack_id = engine.create(TEMPLATE, disable_rollback=True)

    assert SCRIPT["calls"] == ["create"]
    assert engine.stack_row(stack_id).status_reason == (
        "Resource CREATE failed: ValueError: resources.flaky: attempt 1"
    )


def test_no_retry_when_the_limit_is_zero(empty_database_url: str) -> None:
    engine = engine_with(empty_database_url, action_retry_limit=0)
    SCRIPT["errors"] = 1

    stack_id = engine.create(TEMPLATE, disable_rollback=True)

    assert SCRIPT["calls"] == ["create"]
    assert engine.stack_row(stack_id).status == "FAILED"
