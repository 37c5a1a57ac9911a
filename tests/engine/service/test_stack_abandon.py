"""export_stack and abandon_stack: the data handed over, and an abandon deleting the
stack while its resources live on."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.engine.service import stacks as service
from keel_app.engine.service.stack_abandon import abandon_stack, export_stack
from keel_app.models import Resource as ResourceRow
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE
from tests.engine.service.rows import all_rows, stack_events, stack_row, states

# A resource whose delete takes a minute: a real delete waits for it, an abandon does not.
SLOW_TO_DELETE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "parameters": {"greeting": {"type": "string"}},
    "resources": {
        "slow": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": "kept", "action_wait_secs": {"delete": 60}},
        },
        "after": {"type": "OS::Heat::None", "depends_on": ["slow"]},
    },
}


@pytest.fixture
def enabled(settings):
    return dataclasses.replace(settings, enable_stack_abandon=True)


def _create(context, settings, database, queue, template=TEMPLATE, run=True, **args: Any):
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=template,
        params=copy.deepcopy(ENVIRONMENT),
        files=args.pop("files", {}),
        args=args,
    )
    if run:
        queue.run_until_idle()
    return identity


@pytest.mark.parametrize("operation", [abandon_stack, export_stack])
def test_refused_unless_enabled(context, settings, database, queue, operation) -> None:
    identity = _create(context, settings, database, queue)

    with pytest.raises(exception.NotSupported) as raised:
        operation(context, settings, database, queue, stack_identity=identity)

    assert str(raised.value) == "Stack Abandon is not supported."
    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.deleted_at) == ("CREATE", "COMPLETE", None)


def test_export_hands_over_the_stack(context, enabled, database, queue) -> None:
    identity = _create(context, enabled, database, queue, files={"notes.txt": "hi"}, tags=["blue"])
    physical = {row.name: row.physical_resource_id for row in all_rows(database, ResourceRow)}

    exported = export_stack(context, enabled, database, queue, stack_identity=identity)

    def resource(name: str, resource_type: str, data: dict[str, str]) -> dict[str, Any]:
        return {
            "name": name,
            "resource_id": physical[name],
            "type": resource_type,
            "action": "CREATE",
            "status": "COMPLETE",
            "metadata": {},
            "resource_data": data,
        }

    assert exported == {
        "name": "web",
        "id": identity["stack_id"],
        "action": "CREATE",
        "status": "COMPLETE",
        "template": TEMPLATE,
        "environment": {
            "resource_registry": {"resources": {}},
            "parameters": {"greeting": "hello"},
            "parameter_defaults": {},
            "event_sinks": [],
        },
        "files": {"notes.txt": "hi"},
        "resources": {
            "first": resource("first", "OS::Heat::Value", {}),
            "second": resource("second", "OS::Heat::Value", {}),
            "last": resource("last", "OS::Heat::None", {"is_placeholder": "True"}),
        },
        "project_id": "project-a",
        "stack_user_project_id": None,
        "tags": ["blue"],
    }
    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.deleted_at) == ("CREATE", "COMPLETE", None)
    assert queue.pending() == []


def test_abandon_answers_the_export(context, enabled, database, queue) -> None:
    identity = _create(context, enabled, database, queue)
    exported = export_stack(context, enabled, database, queue, stack_identity=identity)

    abandoned = abandon_stack(context, enabled, database, queue, stack_identity=identity)

    assert abandoned == exported
    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.status_reason) == (
        "DELETE",
        "IN_PROGRESS",
        "Stack DELETE started",
    )


def test_abandon_deletes_the_stack_but_not_its_resources(context, enabled, database, queue) -> None:
    identity = _create(context, enabled, database, queue, SLOW_TO_DELETE)
    started = queue.now()

    abandon_stack(context, enabled, database, queue, stack_identity=identity)
    queue.run_until_idle()

    row = stack_row(database, identity["stack_id"])
    assert (row.action, row.status, row.deleted_at is not None) == ("DELETE", "COMPLETE", True)
    assert all_rows(database, ResourceRow) == []
    steps = [message for message in queue.delivered if message.arguments.get("resource_id")]
    deletes = steps[-2:]
    assert [message.arguments["abandon"] for message in deletes] == [True, True]
    # No delete handler ran: nothing was waited for.
    assert all(message.countdown == 0 for message in deletes)
    assert queue.now() == started


def test_a_delete_of_the_same_stack_waits_for_its_resource(
    context, enabled, database, queue
) -> None:
    identity = _create(context, enabled, database, queue, SLOW_TO_DELETE)
    started = queue.now()

    service.delete_stack(context, enabled, database, queue, stack_identity=identity)
    queue.run_until_idle()

    assert queue.now() >= started + 60


def test_abandon_of_a_stack_in_progress_cancels_it_first(context, enabled, database, queue) -> None:
    identity = _create(context, enabled, database, queue, run=False)

    abandon_stack(context, enabled, database, queue, stack_identity=identity)
    queue.run_until_idle()

    assert stack_events(database, identity["stack_id"]) == [
        ("CREATE", "IN_PROGRESS", "Stack CREATE started"),
        ("CREATE", "FAILED", "Stack CREATE cancelled"),
        ("DELETE", "IN_PROGRESS", "Stack DELETE started"),
        ("DELETE", "COMPLETE", "Stack DELETE completed successfully"),
    ]
    assert states(database, identity["stack_id"]) == {}


def test_abandon_asks_the_engines_holding_locks_to_stop(context, enabled, database, queue) -> None:
    identity = _create(context, enabled, database, queue)
    with database.transaction() as session:
        (first,) = [row for row in session.query(ResourceRow) if row.name == "first"]
        first.engine_id = "engine-9"

    abandon_stack(context, enabled, database, queue, stack_identity=identity)

    cancels = [
        (message.engine_id, message.arguments)
        for message in queue.pending()
        if message.method == "cancel_check_resource"
    ]
    assert cancels == [("engine-9", {"stack_id": identity["stack_id"]})]
