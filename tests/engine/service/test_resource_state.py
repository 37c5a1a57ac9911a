"""resource_mark_unhealthy and find_physical_resource."""

from __future__ import annotations

import pytest

from keel_app.common import exception
from keel_app.engine.service.resource_state import find_physical_resource, resource_mark_unhealthy
from keel_app.engine.service.stack_update import update_stack
from keel_app.models import Resource as ResourceRow
from tests.engine.service.rows import all_rows, states
from tests.engine.service.stack_life import create, hot, resource_events, resource_row

TEMPLATE = hot(
    {
        "a": {"type": "OS::Heat::TestResource", "properties": {"value": "x"}},
        "b": {"type": "OS::Heat::None"},
    }
)


def _created(context, settings, database, queue, name: str = "life") -> dict[str, str]:
    identity = create(context, settings, database, queue, TEMPLATE, name=name)
    queue.run_until_idle()
    return identity


def _mark(context, settings, database, identity, name: str, unhealthy, reason=None) -> None:
    resource_mark_unhealthy(
        context,
        settings,
        database,
        None,
        stack_identity=identity,
        resource_name=name,
        mark_unhealthy=unhealthy,
        resource_status_reason=reason,
    )


def test_marking_unhealthy_fails_the_check(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)

    _mark(context, settings, database, identity, "a", True, "broken disk")

    row = resource_row(database, identity, "a")
    assert (row.action, row.status, row.status_reason, row.engine_id) == (
        "CHECK",
        "FAILED",
        "broken disk",
        None,
    )
    assert resource_events(database, "a", resource_action="CHECK") == [
        ("CHECK", "FAILED", "broken disk"),
    ]


def test_marking_healthy_again_completes_the_check(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    _mark(context, settings, database, identity, "a", True)

    _mark(context, settings, database, identity, "a", False)

    assert resource_events(database, "a", resource_action="CHECK") == [
        ("CHECK", "FAILED", "state changed by resource_mark_unhealthy api"),
        ("CHECK", "COMPLETE", "state changed by resource_mark_unhealthy api"),
    ]


def test_marking_a_healthy_resource_healthy_changes_nothing(
    context, settings, database, queue
) -> None:
    identity = _created(context, settings, database, queue)

    _mark(context, settings, database, identity, "b", False)

    assert states(database, identity["stack_id"])["b"] == ("CREATE", "COMPLETE")
    assert resource_events(database, "b", resource_action="CHECK") == []


def test_a_resource_is_found_by_its_physical_id(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    physical_id = resource_row(database, identity, "a").physical_resource_id

    _mark(context, settings, database, identity, physical_id, True)

    assert states(database, identity["stack_id"])["a"] == ("CHECK", "FAILED")


def test_an_unhealthy_resource_is_replaced_by_the_next_update(
    context, settings, database, queue
) -> None:
    identity = _created(context, settings, database, queue)
    unhealthy_id = resource_row(database, identity, "a").id
    _mark(context, settings, database, identity, "a", True)

    update_stack(
        context,
        settings,
        database,
        queue,
        stack_identity=identity,
        template=TEMPLATE,
        params={},
        files={},
        args={},
    )
    queue.run_until_idle()

    rows = all_rows(database, ResourceRow, stack_id=identity["stack_id"], name="a")
    assert [(row.action, row.status) for row in rows] == [("CREATE", "COMPLETE")]
    assert rows[0].id != unhealthy_id


def test_mark_unhealthy_refusals(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)

    with pytest.raises(exception.Invalid) as raised:
        _mark(context, settings, database, identity, "a", "yes")
    assert str(raised.value) == "Data supplied was not valid: mark_unhealthy is not a boolean"
    with pytest.raises(exception.ResourceNotFound) as raised:
        _mark(context, settings, database, identity, "nope", True)
    assert str(raised.value) == "The Resource (nope) could not be found in Stack life."


def test_a_locked_resource_is_an_action_in_progress(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    with database.transaction() as session:
        row = session.get(ResourceRow, resource_row(database, identity, "a").id)
        row.engine_id = "another-engine"

    with pytest.raises(exception.ActionInProgress) as raised:
        _mark(context, settings, database, identity, "a", True)

    assert str(raised.value) == "Stack life already has an action (CREATE) in progress."
    assert states(database, identity["stack_id"])["a"] == ("CREATE", "COMPLETE")


def test_find_physical_resource(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    physical_id = resource_row(database, identity, "a").physical_resource_id

    found = find_physical_resource(
        context, settings, database, None, physical_resource_id=physical_id
    )

    assert found == {**identity, "path": "/resources/a"}
    with pytest.raises(exception.EntityNotFound) as raised:
        find_physical_resource(context, settings, database, None, physical_resource_id="nope")
    assert str(raised.value) == "The Resource (nope) could not be found."


def test_a_physical_id_in_two_stacks_is_ambiguous(context, settings, database, queue) -> None:
    first = _created(context, settings, database, queue)
    second = _created(context, settings, database, queue, name="second")
    physical_id = resource_row(database, first, "a").physical_resource_id
    with database.transaction() as session:
        row = session.get(ResourceRow, resource_row(database, second, "a").id)
        row.physical_resource_id = physical_id

    with pytest.raises(exception.PhysicalResourceIDAmbiguity):
        find_physical_resource(context, settings, database, None, physical_resource_id=physical_id)
