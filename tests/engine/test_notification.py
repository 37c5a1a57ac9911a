"""The stack notifications the engine sends, whole payloads, for each action of a stack's
life traversed on the LocalQueue (their agreement with Heat's own heat-engine is
tests/compat_oslo/test_notifications_against_heat.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.engine import notification
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.service import stacks as service
from keel_app.engine.service.stack_actions import stack_check, stack_resume, stack_suspend
from keel_app.engine.service.stack_update import update_stack
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from tests.engine.conftest import PROJECT

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "description": "Notified",
    "resources": {"only": {"type": "OS::Heat::None"}},
}
UPDATED = {
    "heat_template_version": "2018-08-31",
    "resources": {"only": {"type": "OS::Heat::None"}, "more": {"type": "OS::Heat::None"}},
}
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


class RecordingNotifier:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], bool]] = []

    def notify(self, context: Any, event_type: str, payload: dict[str, Any], error: bool) -> None:
        self.sent.append((event_type, payload, error))


@pytest.fixture
def notifier() -> Iterator[RecordingNotifier]:
    recording = RecordingNotifier()
    notification.install(recording)
    yield recording
    notification.install(None)


@pytest.fixture
def queue(database: Database, settings: EngineSettings) -> LocalQueue:
    queue = LocalQueue()
    queue.handler = Worker(database, settings, queue).handle
    return queue


def _payload(state: str, reason: str, tags: list[str], description: str, updated: bool) -> Any:
    return {
        "tenant_id": PROJECT,
        "user_id": "alice",
        "user_identity": "user-1",
        "username": "alice",
        "stack_identity": "<id>",
        "stack_name": "notified",
        "state": state,
        "state_reason": reason,
        "create_at": "<time>",
        "tags": tags,
        "updated_at": "<time>" if updated else None,
        "description": description,
    }


def _sent(notifier: RecordingNotifier, stack_id: str) -> list[tuple[str, bool, list[str], Any]]:
    """Each notification: its type, whether it is an error, its keys in order and its
    payload with the stack id and the times written alike."""
    sent = []
    for event_type, payload, error in notifier.sent:
        comparable = dict(payload)
        assert comparable["stack_identity"] == stack_id
        comparable["stack_identity"] = "<id>"
        for key in ("create_at", "updated_at"):
            if comparable[key] is not None:
                assert ISO_TIME.fullmatch(comparable[key])
                comparable[key] = "<time>"
        sent.append((event_type, error, list(payload), comparable))
    return sent


def _create(context, settings, database, queue, **args: Any) -> dict[str, str]:
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="notified",
        template=TEMPLATE,
        params={},
        files={},
        args=args,
    )
    queue.run_until_idle()
    return identity


def _update(context, settings, database, queue, identity, template, **args: Any) -> None:
    update_stack(
        context,
        settings,
        database,
        queue,
        stack_identity=identity,
        template=template,
        params={},
        files={},
        args=args,
    )
    queue.run_until_idle()


def test_every_action_of_a_stack_without_tags_notifies_heats_payload(
    context, settings, database, queue, notifier
) -> None:
    identity = _create(context, settings, database, queue)
    _update(context, settings, database, queue, identity, UPDATED)
    for action in (stack_suspend, stack_resume, stack_check):
        action(context, settings, database, queue, stack_identity=identity)
        queue.run_until_idle()
    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    keys = list(_payload("", "", [], "", False))
    none = "No description"
    assert _sent(notifier, identity["stack_id"]) == [
        (f"stack.{action}.{phase}", False, keys, _payload(state, reason, [], text, updated))
        for action, phase, state, reason, text, updated in [
            ("create", "start", "CREATE_IN_PROGRESS", "Stack CREATE started", "Notified", False),
            (
                "create",
                "end",
                "CREATE_COMPLETE",
                "Stack CREATE completed successfully",
                "Notified",
                False,
            ),
            ("update", "start", "UPDATE_IN_PROGRESS", "Stack UPDATE started", none, True),
            ("update", "end", "UPDATE_COMPLETE", "Stack UPDATE completed successfully", none, True),
            ("suspend", "start", "SUSPEND_IN_PROGRESS", "Stack SUSPEND started", none, True),
            (
                "suspend",
                "end",
                "SUSPEND_COMPLETE",
                "Stack SUSPEND completed successfully",
                none,
                True,
            ),
            ("resume", "start", "RESUME_IN_PROGRESS", "Stack RESUME started", none, True),
            ("resume", "end", "RESUME_COMPLETE", "Stack RESUME completed successfully", none, True),
            ("check", "start", "CHECK_IN_PROGRESS", "Stack CHECK started", none, True),
            (
                "check",
                "end",
                "CHECK_COMPLETE",
                "Stack CHECK completed successfully. 'CHECK' not fully supported (see resources)",
                none,
                True,
            ),
            ("delete", "start", "DELETE_IN_PROGRESS", "Stack DELETE started", none, True),
            ("delete", "end", "DELETE_COMPLETE", "Stack DELETE completed successfully", none, True),
        ]
    ]


def test_tags_are_notified_as_the_stack_has_them_at_each_state(
    context, settings, database, queue, notifier
) -> None:
    identity = _create(context, settings, database, queue, tags=["red", "blue"])
    _update(context, settings, database, queue, identity, UPDATED, existing=True)
    _update(context, settings, database, queue, identity, TEMPLATE, tags=["green"])
    _update(context, settings, database, queue, identity, TEMPLATE)

    assert [
        (event_type, payload["tags"])
        for event_type, _, _, payload in _sent(notifier, identity["stack_id"])
    ] == [
        ("stack.create.start", ["red", "blue"]),
        ("stack.create.end", ["red", "blue"]),
        ("stack.update.start", ["red", "blue"]),
        ("stack.update.end", ["red", "blue"]),
        ("stack.update.start", ["green"]),
        ("stack.update.end", ["green"]),
        ("stack.update.start", []),
        ("stack.update.end", []),
    ]
