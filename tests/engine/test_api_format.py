"""api_format against Heat's heat.engine.api on the same rows and events."""

from __future__ import annotations

import datetime
import json
from types import SimpleNamespace
from typing import Any

from keel_app.common.identifier import HeatIdentifier
from keel_app.engine import api_format
from tests import oracle

HEAT_FORMAT = """
import datetime, json, sys
from types import SimpleNamespace
from heat.common import identifier
from heat.engine import api

case = json.loads(sys.argv[1])

def when(text):
    return None if text is None else datetime.datetime.fromisoformat(text)

answers = {}
for name, row in case["stacks"].items():
    stack = SimpleNamespace(**row)
    for column in ("created_at", "updated_at", "deleted_at"):
        setattr(stack, column, when(row[column]))
    stack.tags = [SimpleNamespace(tag=tag) for tag in row["tags"]]
    stack.identifier = lambda stack=stack: identifier.HeatIdentifier(
        stack.tenant, stack.name, stack.id)
    answers[name] = api.format_stack_db_object(stack)

stack_identifier = identifier.HeatIdentifier(**case["stack_identifier"])
for name, row in case["events"].items():
    event = SimpleNamespace(**row)
    event.created_at = when(row["created_at"])
    def event_identifier(stack_identifier, event=event):
        resource = identifier.ResourceIdentifier(
            resource_name=event.resource_name, **stack_identifier)
        return identifier.EventIdentifier(event_id=str(event.uuid), **resource)
    event.identifier = event_identifier
    answers[name] = api.format_event(event, stack_identifier)
    answers[name + "-rooted"] = api.format_event(
        event, stack_identifier, root_stack_identifier=stack_identifier,
        include_rsrc_prop_data=False)
print(json.dumps(answers))
"""

STACK_ROWS: dict[str, dict[str, Any]] = {
    "plain": {
        "id": "2b5d3bb4-11a1-4b0c-b2ad-35e1a0f1bd8f",
        "name": "web",
        "tenant": "project-a",
        "action": "CREATE",
        "status": "COMPLETE",
        "status_reason": "Stack CREATE completed successfully",
        "created_at": "2026-11-30T01:02:03",
        "updated_at": None,
        "deleted_at": None,
        "username": "alice",
        "owner_id": None,
        "stack_user_project_id": "domain-project",
        "tags": [],
    },
    "nested-tagged-deleted": {
        "id": "7e0c8a55-4c7e-4f59-9f41-9f1f0e0bb0aa",
        "name": "web-db-abc",
        "tenant": "project-b",
        "action": "DELETE",
        "status": "COMPLETE",
        "status_reason": "",
        "created_at": "2026-11-30T01:02:03.456789",
        "updated_at": "2026-11-30T02:00:00",
        "deleted_at": "2026-11-30T03:00:00",
        "username": None,
        "owner_id": "2b5d3bb4-11a1-4b0c-b2ad-35e1a0f1bd8f",
        "stack_user_project_id": None,
        "tags": ["blue", "green"],
    },
}
EVENT_ROWS: dict[str, dict[str, Any]] = {
    "resource-event": {
        "uuid": "0f7a2c4e-5c1e-4e0b-a7d5-9b1c2d3e4f50",
        "created_at": "2026-11-30T01:02:04",
        "resource_name": "server",
        "physical_resource_id": "abc-123",
        "resource_action": "CREATE",
        "resource_status": "IN_PROGRESS",
        "resource_status_reason": "state changed",
        "resource_type": "OS::Heat::None",
        "resource_properties": {"value": 1},
    },
    "stack-event": {
        "uuid": "1f7a2c4e-5c1e-4e0b-a7d5-9b1c2d3e4f51",
        "created_at": "2026-11-30T01:02:05.999",
        "resource_name": "web",
        "physical_resource_id": "2b5d3bb4-11a1-4b0c-b2ad-35e1a0f1bd8f",
        "resource_action": "CREATE",
        "resource_status": "COMPLETE",
        "resource_status_reason": "Stack CREATE completed successfully",
        "resource_type": "OS::Heat::Stack",
        "resource_properties": {},
    },
}
STACK_IDENTIFIER = {
    "tenant": "project-a",
    "stack_name": "web",
    "stack_id": "2b5d3bb4-11a1-4b0c-b2ad-35e1a0f1bd8f",
    "path": "",
}


def _when(text: str | None) -> datetime.datetime | None:
    return None if text is None else datetime.datetime.fromisoformat(text)


def _keel_answers() -> dict[str, Any]:
    answers: dict[str, Any] = {}
    for name, values in STACK_ROWS.items():
        row = SimpleNamespace(**values)
        for column in ("created_at", "updated_at", "deleted_at"):
            setattr(row, column, _when(values[column]))
        row.tags = [SimpleNamespace(tag=tag) for tag in values["tags"]]
        answers[name] = api_format.format_stack_db_object(row)
    stack_identifier = HeatIdentifier(**STACK_IDENTIFIER)
    for name, values in EVENT_ROWS.items():
        row = SimpleNamespace(**values)
        row.created_at = _when(values["created_at"])
        answers[name] = api_format.format_event(row, stack_identifier)
        answers[name + "-rooted"] = api_format.format_event(
            row,
            stack_identifier,
            root_stack_identifier=stack_identifier,
            include_rsrc_prop_data=False,
        )
    return answers


def test_stack_rows_and_events_format_as_heat_formats_them() -> None:
    case = {"stacks": STACK_ROWS, "events": EVENT_ROWS, "stack_identifier": STACK_IDENTIFIER}

    heat_answers = oracle.run_json(HEAT_FORMAT, json.dumps(case))

    assert json.loads(json.dumps(_keel_answers())) == heat_answers


def test_listing_document_of_a_row() -> None:
    row = SimpleNamespace(**STACK_ROWS["plain"])
    row.created_at = datetime.datetime(2026, 11, 30, 1, 2, 3)
    row.updated_at = row.deleted_at = None
    row.tags = []

    assert api_format.format_stack_db_object(row) == {
        "stack_identity": {
            "tenant": "project-a",
            "stack_name": "web",
            "stack_id": "2b5d3bb4-11a1-4b0c-b2ad-35e1a0f1bd8f",
            "path": "",
        },
        "stack_name": "web",
        "description": "",
        "stack_action": "CREATE",
        "stack_status": "COMPLETE",
        "stack_status_reason": "Stack CREATE completed successfully",
        "creation_time": "2026-11-30T01:02:03Z",
        "updated_time": None,
        "deletion_time": None,
        "stack_owner": "alice",
        "parent": None,
        "stack_user_project_id": "domain-project",
        "tags": None,
    }


class _Output:
    def __init__(self, name: str, value: Any) -> None:
        self.name = name
        self._value = value

    def description(self) -> str:
        return "No description given"

    def get_value(self) -> Any:
        if isinstance(self._value, Exception):
            raise self._value
        return self._value


def test_an_output_that_fails_shows_its_error_and_no_value() -> None:
    outputs = {"good": _Output("good", [1]), "bad": _Output("bad", ValueError("boom"))}

    assert api_format.format_stack_outputs(outputs, resolve_value=True) == [
        {"output_key": "good", "description": "No description given", "output_value": [1]},
        {
            "output_key": "bad",
            "description": "No description given",
            "output_error": "boom",
            "output_value": None,
        },
    ]
    assert api_format.format_stack_outputs(outputs) == [
        {"output_key": "good", "description": "No description given"},
        {"output_key": "bad", "description": "No description given"},
    ]


HEAT_NOTIFICATION = """
import datetime, json, sys
from types import SimpleNamespace
from heat.engine import api
from heat.engine import template

case = json.loads(sys.argv[1])
answers = []
for state in case["states"]:
    stack = SimpleNamespace(
        context=SimpleNamespace(**case["context"]),
        id=case["id"], name="web", action=state[0], status=state[1],
        status_reason="why", tags=case["tags"],
        created_time=datetime.datetime(2026, 11, 30, 1, 2, 3),
        updated_time=None, t=template.Template(case["template"]))
    stack.state = (stack.action, stack.status)
    answers.append(api.format_notification_body(stack))
print(json.dumps(answers))
"""


def test_notification_bodies_are_heats() -> None:
    from keel_app.engine.template import Template

    case = {
        "context": {"project_id": "project-a", "username": "alice", "user_id": "user-1"},
        "id": "2b5d3bb4-11a1-4b0c-b2ad-35e1a0f1bd8f",
        "tags": ["blue"],
        "template": {"heat_template_version": "2018-08-31", "description": "d"},
        "states": [["CREATE", "IN_PROGRESS"], ["DELETE", "FAILED"], [None, "COMPLETE"]],
    }
    ours = []
    for action, status in case["states"]:
        stack = SimpleNamespace(
            context=SimpleNamespace(**case["context"]),
            id=case["id"],
            name="web",
            action=action,
            status=status,
            status_reason="why",
            tags=case["tags"],
            created_time=datetime.datetime(2026, 11, 30, 1, 2, 3),
            updated_time=None,
            t=Template(case["template"]),
        )
        ours.append(api_format.format_notification_body(stack))

    assert ours == oracle.run_json(HEAT_NOTIFICATION, json.dumps(case))


def test_notification_event_types_and_levels() -> None:
    def stack(action: str, status: str) -> Any:
        return SimpleNamespace(
            action=action,
            status=status,
            IN_PROGRESS="IN_PROGRESS",
            COMPLETE="COMPLETE",
        )

    assert [
        api_format.notification_event_type(stack("CREATE", "IN_PROGRESS")),
        api_format.notification_event_type(stack("DELETE", "COMPLETE"), "warn"),
        api_format.notification_event_type(stack("UPDATE", "FAILED")),
    ] == [
        ("orchestration.stack.create.start", "INFO"),
        ("orchestration.stack.delete.end", "WARN"),
        ("orchestration.stack.update.error", "ERROR"),
    ]
