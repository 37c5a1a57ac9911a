"""stack_cancel_update: Heat's refusals, a traversal stopped, an update rolled back."""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.engine.service import stacks as service
from keel_app.engine.service.stack_cancel import stack_cancel_update
from keel_app.engine.service.stack_update import update_stack
from keel_app.models import RawTemplate, SyncPoint
from keel_app.models import Stack as StackRow
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE
from tests.engine.service.rows import (
    all_rows,
    stack_events,
    stack_row,
    states,
    template_row,
)

CREATED = {
    "first": ("CREATE", "COMPLETE"),
    "second": ("CREATE", "COMPLETE"),
    "last": ("CREATE", "COMPLETE"),
}


def _create(context, settings, database, queue, run: bool = True) -> dict[str, str]:
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=TEMPLATE,
        params=copy.deepcopy(ENVIRONMENT),
        files={},
        args={},
    )
    if run:
        queue.run_until_idle()
    return identity


def _start_update(context, settings, database, queue, identity) -> None:
    """An update whose steps are sent but not run yet."""
    template = copy.deepcopy(TEMPLATE)
    template["resources"]["first"]["properties"]["value"] = "changed"
    template["resources"]["extra"] = {"type": "OS::Heat::None"}
    update_stack(
        context,
        settings,
        database,
        queue,
        stack_identity=identity,
        template=template,
        params=copy.deepcopy(ENVIRONMENT),
        files={},
        args={},
    )


def _cancel(context, settings, database, queue, identity, rollback: bool) -> None:
    stack_cancel_update(
        context,
        settings,
        database,
        queue,
        stack_identity=identity,
        cancel_with_rollback=rollback,
    )


@pytest.mark.parametrize("rollback", [True, False])
def test_cancel_of_a_complete_stack_is_not_supported(
    context, settings, database, queue, rollback
) -> None:
    identity = _create(context, settings, database, queue)

    with pytest.raises(exception.NotSupported) as raised:
        _cancel(context, settings, database, queue, identity, rollback)

    assert str(raised.value) == (
        "Cancelling update when stack is CREATE_COMPLETE is not supported."
    )


def test_a_create_cannot_be_rolled_back_by_cancelling(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, run=False)

    with pytest.raises(exception.NotSupported) as raised:
        _cancel(context, settings, database, queue, identity, rollback=True)

    assert str(raised.value) == (
        "Cancelling update when stack is CREATE_IN_PROGRESS is not supported."
    )


def test_cancel_stops_a_create(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, run=False)
    creating = stack_row(database, identity["stack_id"]).current_traversal

    _cancel(context, settings, database, queue, identity, rollback=False)

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.status_reason) == (
        "CREATE",
        "FAILED",
        "Stack CREATE cancelled",
    )
    assert row.current_traversal not in (creating, None, "")
    assert all_rows(database, SyncPoint) == []
    # The steps already sent find their traversal gone and do nothing.
    queue.run_until_idle()
    assert states(database, identity["stack_id"]) == {
        "first": ("INIT", "COMPLETE"),
        "second": ("INIT", "COMPLETE"),
        "last": ("INIT", "COMPLETE"),
    }
    assert stack_events(database, identity["stack_id"]) == [
        ("CREATE", "IN_PROGRESS", "Stack CREATE started"),
        ("CREATE", "FAILED", "Stack CREATE cancelled"),
    ]


def test_cancel_stops_an_update(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)
    _start_update(context, settings, database, queue, identity)

    _cancel(context, settings, database, queue, identity, rollback=False)
    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.status_reason) == (
        "UPDATE",
        "FAILED",
        "Stack UPDATE cancelled",
    )
    assert states(database, identity["stack_id"]) == {**CREATED, "extra": ("INIT", "COMPLETE")}


def test_cancel_with_rollback_returns_to_the_previous_template(
    context, settings, database, queue
) -> None:
    identity = _create(context, settings, database, queue)
    _start_update(context, settings, database, queue, identity)

    _cancel(context, settings, database, queue, identity, rollback=True)

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.status_reason) == (
        "ROLLBACK",
        "IN_PROGRESS",
        "Stack ROLLBACK started",
    )
    queue.run_until_idle()
    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status) == ("ROLLBACK", "COMPLETE")
    assert template_row(database, row.raw_template_id).template == TEMPLATE
    assert states(database, identity["stack_id"]) == CREATED
    assert [event[:2] for event in stack_events(database, identity["stack_id"])[2:]] == [
        ("UPDATE", "IN_PROGRESS"),
        ("ROLLBACK", "IN_PROGRESS"),
        ("ROLLBACK", "COMPLETE"),
    ]


def _child_in_progress(database, parent: StackRow, name: str, **values: Any) -> str:
    with database.transaction() as session:
        template = RawTemplate(template={"heat_template_version": "2018-08-31"}, environment={})
        session.add(template)
        session.flush()
        child = StackRow(
            name=name,
            raw_template_id=template.id,
            tenant=parent.tenant,
            username=parent.username,
            action="CREATE",
            status="IN_PROGRESS",
            status_reason="Stack CREATE started",
            current_traversal=str(uuid.uuid4()),
            disable_rollback=True,
            convergence=True,
            backup=False,
            nested_depth=1,
            tags=[],
            **values,
        )
        session.add(child)
        session.flush()
        return child.id


def test_cancel_stops_the_nested_stacks_in_progress(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, run=False)
    parent = stack_row(database, identity["stack_id"])
    child = _child_in_progress(database, parent, "web-child", owner_id=parent.id)
    grandchild = _child_in_progress(database, parent, "web-grandchild", owner_id=child)
    traversal = stack_row(database, grandchild).current_traversal

    _cancel(context, settings, database, queue, identity, rollback=False)

    for stack_id in (child, grandchild):
        row = stack_row(database, stack_id)
        assert (row.action, row.status, row.status_reason) == (
            "CREATE",
            "FAILED",
            "Stack CREATE cancelled",
        )
    assert stack_row(database, grandchild).current_traversal != traversal
