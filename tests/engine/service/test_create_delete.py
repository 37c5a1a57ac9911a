"""create_stack and delete_stack through the service, traversed on the LocalQueue by the
convergence worker, with the stored rows and the answers checked on each database."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine.service import resources as resource_service
from keel_app.engine.service import stacks as service
from keel_app.models import Event, RawTemplate, SyncPoint
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE


def _create(context, settings, database, queue, **args: Any) -> dict[str, str]:
    return service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=TEMPLATE,
        params=ENVIRONMENT,
        files={},
        args=args,
    )


def _all(database, model, **where: Any) -> list[Any]:
    with database.transaction() as session:
        statement = sa.select(model)
        for column, value in where.items():
            statement = statement.where(getattr(model, column) == value)
        order = model.entity_id if model is SyncPoint else model.id
        return list(session.scalars(statement.order_by(order)).all())


def test_create_stores_the_stack_and_sends_the_leaf(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)

    (row,) = _all(database, StackRow)
    assert (row.id, row.action, row.status, row.status_reason) == (
        identity["stack_id"],
        "CREATE",
        "IN_PROGRESS",
        "Stack CREATE started",
    )
    assert row.current_traversal
    (template_row,) = _all(database, RawTemplate)
    assert (template_row.id, template_row.template) == (row.raw_template_id, TEMPLATE)
    resources = {resource.name: resource for resource in _all(database, ResourceRow)}
    assert {name: (r.action, r.status) for name, r in resources.items()} == {
        "first": ("INIT", "COMPLETE"),
        "second": ("INIT", "COMPLETE"),
        "last": ("INIT", "COMPLETE"),
    }
    sync_points = _all(database, SyncPoint, stack_id=row.id)
    assert sorted(str(point.entity_id) for point in sync_points) == sorted(
        [str(resource.id) for resource in resources.values()] + [row.id]
    )
    assert {point.traversal_id for point in sync_points} == {row.current_traversal}
    (leaf,) = queue.pending()
    assert (leaf.method, leaf.arguments["resource_id"], leaf.arguments["is_update"]) == (
        "check_resource",
        resources["first"].id,
        True,
    )
    assert leaf.arguments["current_traversal"] == row.current_traversal


def test_create_runs_to_complete_with_outputs(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, tags=["blue"])

    queue.run_until_idle()

    (row,) = _all(database, StackRow)
    assert (row.action, row.status, row.status_reason) == (
        "CREATE",
        "COMPLETE",
        "Stack CREATE completed successfully",
    )
    assert _all(database, SyncPoint) == []
    resources = {resource.name: resource for resource in _all(database, ResourceRow)}
    assert {name: (r.action, r.status) for name, r in resources.items()} == {
        "first": ("CREATE", "COMPLETE"),
        "second": ("CREATE", "COMPLETE"),
        "last": ("CREATE", "COMPLETE"),
    }
    stack_events = [
        (event.resource_action, event.resource_status, event.resource_status_reason)
        for event in _all(database, Event, resource_type="OS::Heat::Stack")
    ]
    assert stack_events == [
        ("CREATE", "IN_PROGRESS", "Stack CREATE started"),
        ("CREATE", "COMPLETE", "Stack CREATE completed successfully"),
    ]

    (shown,) = service.show_stack(context, settings, database, queue, stack_identity=identity)
    created = row.created_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert shown == {
        "stack_name": "web",
        "stack_identity": identity,
        "creation_time": created,
        "updated_time": None,
        "deletion_time": None,
        "notification_topics": [],
        "parameters": {
            "OS::stack_id": identity["stack_id"],
            "OS::project_id": "project-a",
            "OS::stack_name": "web",
            "greeting": "hello",
        },
        "description": "values in a chain",
        "template_description": "values in a chain",
        "capabilities": [],
        "disable_rollback": True,
        "timeout_mins": None,
        "stack_owner": "alice",
        "parent": None,
        "stack_user_project_id": None,
        "tags": ["blue"],
        "stack_action": "CREATE",
        "stack_status": "COMPLETE",
        "stack_status_reason": "Stack CREATE completed successfully",
        "outputs": [
            {"output_key": "joined", "description": "both", "output_value": "X-hello"},
            {
                "output_key": "last_id",
                "description": "No description given",
                "output_value": resources["last"].physical_resource_id,
            },
        ],
    }


def test_resources_and_events_of_a_created_stack(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)
    queue.run_until_idle()

    described = resource_service.describe_stack_resource(
        context, settings, database, queue, stack_identity=identity, resource_name="second"
    )
    listed = resource_service.list_stack_resources(
        context, settings, database, queue, stack_identity=identity
    )
    events = resource_service.list_events(
        context, settings, database, queue, stack_identity=identity
    )

    (second,) = _all(database, ResourceRow, name="second")
    timestamp = second.created_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert described == {
        "updated_time": (second.updated_at or second.created_at).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "creation_time": timestamp,
        "resource_name": "second",
        "physical_resource_id": second.physical_resource_id,
        "resource_action": "CREATE",
        "resource_status": "COMPLETE",
        "resource_status_reason": "state changed",
        "resource_type": "OS::Heat::Value",
        "resource_identity": dict(identity, path="/resources/second"),
        "stack_identity": identity,
        "stack_name": "web",
        "required_by": ["last"],
        "description": "",
        # The template's metadata, stored when the resource first acted (none: {}).
        "metadata": {},
        "attributes": {"value": "X-hello"},
    }
    # In the order of their rows (stored dependents first), as Heat reads them.
    assert [(entry["resource_name"], entry["required_by"]) for entry in listed] == [
        ("last", []),
        ("second", ["last"]),
        ("first", ["second"]),
    ]
    assert "attributes" not in listed[0]
    # Newest first: the stack's completion, then its resources in reverse order of events.
    assert (events[0]["resource_name"], events[0]["resource_status"]) == ("web", "COMPLETE")
    assert (events[-1]["resource_name"], events[-1]["resource_status"]) == ("web", "IN_PROGRESS")
    assert len(events) == len(_all(database, Event))
    assert all("resource_properties" not in event for event in events)
    with pytest.raises(exception.ResourceNotFound) as raised:
        resource_service.describe_stack_resource(
            context, settings, database, queue, stack_identity=identity, resource_name="nope"
        )
    assert str(raised.value) == "The Resource (nope) could not be found in Stack web."


def test_delete_removes_resources_and_soft_deletes_the_stack(
    context, settings, database, queue
) -> None:
    identity = _create(context, settings, database, queue)
    queue.run_until_idle()

    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    (row,) = _all(database, StackRow)
    assert (row.action, row.status, row.deleted_at is not None) == ("DELETE", "COMPLETE", True)
    assert _all(database, ResourceRow) == []
    assert _all(database, SyncPoint) == []
    assert service.list_stacks(context, settings, database, queue) == []
    (shown,) = service.show_stack(context, settings, database, queue, stack_identity=identity)
    assert (shown["stack_action"], shown["stack_status"], "outputs" in shown) == (
        "DELETE",
        "COMPLETE",
        False,
    )
    with pytest.raises(exception.EntityNotFound, match=r"The Stack \(web\) could not be found."):
        service.delete_stack(context, settings, database, queue, stack_identity=identity)


def test_a_deleted_stack_frees_its_name(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue)
    queue.run_until_idle()
    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    again = _create(context, settings, database, queue)
    queue.run_until_idle()

    assert again["stack_id"] != identity["stack_id"]
    assert service.identify_stack(context, settings, database, queue, stack_name="web") == again
