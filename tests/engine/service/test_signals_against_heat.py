"""resource_signal answers and records as Heat's own EngineService does.

OpenKeel creates a stack with a hook and leaves it waiting there; the same signals are
then sent by OpenKeel to that stack and by Heat 27.0.1 to a twin of it, and the answers
and the events each wrote are compared.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.engine.service import signals
from keel_app.engine.service import stacks as service
from keel_app.models import Resource as ResourceRow
from tests import oracle
from tests.engine.service.stack_life import create, resource_events, rows, settle
from tests.engine.service.test_hooks import TEMPLATE, environment

pytestmark = pytest.mark.oracle

HEAT_SIGNALLER = Path(__file__).with_name("heat_signaller.py")

SIGNALS: list[dict[str, Any]] = [
    {"resource": "ghost", "details": {"unset_hook": "pre-create"}},
    {"resource": "first", "details": {"unset_hook": "pre-sleep"}},
    {"resource": "first", "details": {"unset_hook": "pre-update"}},
    {"resource": "first", "details": {"unset_hook": "pre-create"}},
    {"resource": "first", "details": {"unset_hook": "pre-create"}},
]


def _heats(database, identity: dict[str, str], sent: list[dict[str, Any]]) -> list[Any]:
    request = {
        "url": database.url.render_as_string(hide_password=False),
        "project": "project-a",
        "identity": identity,
        "signals": sent,
    }
    return oracle.run_json(HEAT_SIGNALLER.read_text(), json.dumps(request))


def _anonymous(answers: list[Any], identity: dict[str, str]) -> list[Any]:
    text = json.dumps(answers)
    for value in (identity["stack_id"], identity["stack_name"]):
        text = text.replace(value, "<stack>")
    return json.loads(text)


def test_signals_to_a_stack_held_at_a_hook_answer_as_heat(
    context, settings, database, queue
) -> None:
    held = environment("pre-create")
    theirs = create(context, settings, database, queue, TEMPLATE, held, name="held")
    twin = create(context, settings, database, queue, TEMPLATE, held, name="twin")
    settle(queue)

    heat = _heats(database, theirs, SIGNALS)
    ours = _signal_all(context, settings, database, twin, SIGNALS)

    assert _anonymous(ours, twin) == _anonymous(heat, theirs)
    assert resource_events(database, "first", stack_id=twin["stack_id"]) == resource_events(
        database, "first", stack_id=theirs["stack_id"]
    )


HANDLE_TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "handle": {"type": "OS::Heat::WaitConditionHandle"},
        "plain": {"type": "OS::Heat::TestResource"},
    },
}
HANDLE_SIGNALS: list[dict[str, Any]] = [
    {"resource": "plain", "details": {"status": "SUCCESS"}},
    {
        "resource": "handle",
        "details": {"status": "SUCCESS", "reason": "up", "data": "1", "id": "a"},
    },
    {"resource": "handle", "details": None, "sync_call": True},
    {"resource": "handle", "details": {"status": "WRONG"}},
    {"resource": "handle", "details": {"status": "FAILURE", "reason": "down"}},
    {"resource": "handle", "details": {"status": "SUCCESS"}, "sync_call": True},
]


def _signal_all(context, settings, database, identity, sent: list[dict[str, Any]]) -> list[Any]:
    answers = []
    for signal in sent:
        try:
            answers.append(
                signals.resource_signal(
                    context,
                    settings,
                    database,
                    None,
                    stack_identity=identity,
                    resource_name=signal["resource"],
                    details=signal["details"],
                    sync_call=signal.get("sync_call", False),
                )
            )
        except Exception as error:
            answers.append({"exception": type(error).__name__, "message": str(error)})
    return answers


def _create_complete(context, settings, database, queue, name: str, params=None) -> Any:
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name=name,
        template=HANDLE_TEMPLATE,
        params=params or {},
        files={},
        args={},
    )
    queue.run_until_idle()
    return identity


def _metadata(database, stack_id: str, name: str) -> Any:
    (row,) = rows(database, ResourceRow, stack_id=stack_id, name=name)
    return row.rsrc_metadata


def test_signals_to_a_handle_answer_and_record_as_heat(context, settings, database, queue) -> None:
    theirs = _create_complete(context, settings, database, queue, "held")
    twin = _create_complete(context, settings, database, queue, "twin")

    heat = _heats(database, theirs, HANDLE_SIGNALS)
    ours = _signal_all(context, settings, database, twin, HANDLE_SIGNALS)

    assert _anonymous(ours, twin) == _anonymous(heat, theirs)
    assert _metadata(database, twin["stack_id"], "handle") == _metadata(
        database, theirs["stack_id"], "handle"
    )
    for name in ("handle", "plain"):
        assert resource_events(database, name, stack_id=twin["stack_id"]) == resource_events(
            database, name, stack_id=theirs["stack_id"]
        )


def test_a_resource_held_after_its_delete_takes_no_signal_as_in_heat(
    context, settings, database, queue
) -> None:
    params = environment("post-delete", name="plain")
    theirs = _create_complete(context, settings, database, queue, "held", params)
    twin = _create_complete(context, settings, database, queue, "twin", params)
    for identity in (theirs, twin):
        service.delete_stack(context, settings, database, queue, stack_identity=identity)
    settle(queue)
    sent = [{"resource": "plain", "details": {"unset_hook": "post-delete"}}]

    heat = _heats(database, theirs, sent)
    ours = _signal_all(context, settings, database, twin, sent)

    assert _anonymous(ours, twin) == _anonymous(heat, theirs)
    assert resource_events(database, "plain", stack_id=twin["stack_id"])[-2:] == [
        ("DELETE", "COMPLETE", "DELETE paused until Hook post-delete is cleared"),
        ("DELETE", "COMPLETE", "Cannot signal resource during DELETE"),
    ]
    assert resource_events(database, "plain", stack_id=twin["stack_id"]) == resource_events(
        database, "plain", stack_id=theirs["stack_id"]
    )
