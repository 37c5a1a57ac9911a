"""Scenario: what a create handler records commits with the state change that follows it,
unless the step is going to wait, when it is on record before the wait."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa

from tests.engine.convergence.harness import Engine


@contextmanager
def transactions(engine: Engine) -> Iterator[list[list[str]]]:
    """The statements the engine sends, grouped by the transaction they commit in."""
    committed: list[list[str]] = []
    current: list[str] = []

    def statement(_connection: Any, _cursor: Any, text: str, *_: Any) -> None:
        words = " ".join(text.split()[:3])
        # The count before an event's insert is sampled at random (Heat's purge check):
        # it is no part of what these tests pin.
        if not words.startswith("SELECT count(event.id)"):
            current.append(words)

    def commit(_connection: Any) -> None:
        committed.append(list(current))
        current.clear()

    for database_engine in engine.database.engines:
        sa.event.listen(database_engine, "before_cursor_execute", statement)
        sa.event.listen(database_engine, "commit", commit)
    try:
        yield committed
    finally:
        for database_engine in engine.database.engines:
            sa.event.remove(database_engine, "before_cursor_execute", statement)
            sa.event.remove(database_engine, "commit", commit)


def test_a_none_records_its_physical_id_and_data_with_create_complete(engine: Engine) -> None:
    template = {
        "heat_template_version": "2015-04-30",
        "resources": {"n": {"type": "OS::Heat::None"}},
    }
    with transactions(engine) as committed:
        stack_id = engine.create(template)

    [row] = engine.resources(stack_id)
    assert (row.action, row.status, row.engine_id) == ("CREATE", "COMPLETE", None)
    assert row.physical_resource_id is not None
    assert [(data.key, data.value) for data in engine.resource_data(row.id)] == [
        ("is_placeholder", "True")
    ]
    [with_data] = [
        statements
        for statements in committed
        if any(text.startswith("INSERT INTO resource_data") for text in statements)
    ]
    # One transaction: the data, the COMPLETE row (physical id in it) and its event.
    assert "UPDATE resource SET" in with_data
    assert "INSERT INTO event" in with_data
    # Still one event a state change, as Heat writes them.
    assert [event[1:3] for event in engine.events(stack_id) if event[0] == "n"] == [
        ("CREATE", "IN_PROGRESS"),
        ("CREATE", "COMPLETE"),
    ]


def test_a_resource_that_waits_has_its_handler_writes_on_record_first(engine: Engine) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "slow": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": "v", "action_wait_secs": {"create": 5}},
            }
        },
    }
    with transactions(engine) as committed:
        stack_id = engine.create(template)

    [row] = engine.resources(stack_id)
    assert (row.action, row.status) == ("CREATE", "COMPLETE")
    assert row.physical_resource_id.startswith("demo-slow-")
    assert [(data.key, data.value) for data in engine.resource_data(row.id)] == [("value", "v")]
    # The step that started the create was sent again to wait: what its handler wrote
    # (data and physical id) was committed as the handler wrote it, each write on its
    # own, not with the COMPLETE that came seconds later.
    [with_data] = [
        index
        for index, statements in enumerate(committed)
        if any(text.startswith("INSERT INTO resource_data") for text in statements)
    ]
    [with_physical_id, complete] = [
        index
        for index, statements in enumerate(committed)
        if "UPDATE resource SET" in statements
        and "INSERT INTO event" not in statements
        or "UPDATE resource SET" in statements
        and index > with_data + 1
    ][:2]
    assert with_data < complete and with_physical_id < complete
    assert "INSERT INTO event" not in committed[with_data]


def test_a_step_of_a_resource_that_acts_locally_commits_once(engine: Engine) -> None:
    template = {
        "heat_template_version": "2015-04-30",
        "resources": {"n": {"type": "OS::Heat::None"}},
    }
    with transactions(engine) as committed:
        stack_id = engine.create(template)

    [step] = [
        statements
        for statements in committed
        if any(text.startswith("INSERT INTO resource_data") for text in statements)
    ]
    # The lock with IN_PROGRESS and COMPLETE with the lock released (one compare-and-swap
    # from the unlocked row to COMPLETE), both events (one INSERT), the data and the
    # report to the stack's sync point: one commit.
    assert step.count("UPDATE resource SET") == 1
    assert step.count("INSERT INTO event") == 1
    assert "UPDATE sync_point SET" in step
    # A resource that was never created has no data to overwrite: none is looked for.
    assert "SELECT resource_data.id FROM" not in step
    assert engine.stack_row_deleted(stack_id) == ("CREATE", "COMPLETE")
    [row] = engine.resources(stack_id)
    # The key moved on twice, as the lock's taking and release move it.
    assert (row.atomic_key, row.engine_id) == (2, None)
    assert [event[1:3] for event in engine.events(stack_id) if event[0] == "n"] == [
        ("CREATE", "IN_PROGRESS"),
        ("CREATE", "COMPLETE"),
    ]


def test_a_resource_that_reaches_out_commits_in_progress_before_its_handler(
    engine: Engine,
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"t": {"type": "OS::Heat::TestResource", "properties": {"value": "v"}}},
    }
    with transactions(engine) as committed:
        engine.create(template)

    # The lock with IN_PROGRESS and its event alone, as in Heat; then each of the
    # handler's writes as it makes it (what a handler made elsewhere is on record even
    # if its step is cancelled), then COMPLETE: four commits before the report.
    writes = [
        [text for text in statements if text != "BEGIN IMMEDIATE"]
        for statements in committed
        if "UPDATE resource SET" in statements or "INSERT INTO resource_data" in statements
    ]
    assert writes == [
        ["UPDATE resource SET", "INSERT INTO event"],
        ["SELECT resource_data.id FROM", "INSERT INTO resource_data"],
        ["SELECT resource.id, resource.uuid,", "UPDATE resource SET"],
        ["UPDATE resource SET", "INSERT INTO event"],
    ]
