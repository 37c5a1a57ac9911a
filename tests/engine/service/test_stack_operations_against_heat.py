"""The stack operations answer, refuse and store as Heat's own EngineService does.

Stacks are created by OpenKeel. Heat 27.0.1, pointed at the same database, then calls
the operation on one stack while OpenKeel calls it on a twin made the same way; the
answers are compared, and for operations that write, the rows each side wrote. Heat
lists resources in the order of a set: those lists are compared sorted.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.engine.service import stacks as service
from keel_app.engine.service.stack_abandon import abandon_stack, export_stack
from keel_app.engine.service.stack_cancel import stack_cancel_update
from keel_app.engine.service.stack_preview import preview_stack, preview_update_stack
from keel_app.engine.service.stack_update import update_stack
from keel_app.models import SyncPoint
from tests import oracle
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE
from tests.engine.service.preview_templates import AFTER, BEFORE, EMPTY_ENVIRONMENT
from tests.engine.service.rows import (
    all_rows,
    set_state,
    stack_events,
    stack_row,
    states,
    tags,
    template_row,
)

HEAT_OPERATOR = Path(__file__).with_name("heat_operator.py")


def _heat(database, calls: list[tuple[str, dict[str, Any]]], **config: Any) -> list[Any]:
    request = {
        "url": database.url.render_as_string(hide_password=False),
        "project": "project-a",
        "config": config,
        "calls": [{"method": method, "arguments": arguments} for method, arguments in calls],
    }
    return oracle.run_json(HEAT_OPERATOR.read_text(), json.dumps(request))


def _ours(call: Any, *arguments: Any, **keywords: Any) -> Any:
    try:
        return json.loads(json.dumps(call(*arguments, **keywords)))
    except Exception as error:
        return {"exception": type(error).__name__, "message": str(error)}


def _sorted(answer: Any) -> Any:
    """Resource lists by name and outputs by key, at any depth."""
    if isinstance(answer, dict):
        return {key: _sorted(value) for key, value in answer.items()}
    if isinstance(answer, list):
        entries = [_sorted(entry) for entry in answer]
        for key in ("resource_name", "output_key"):
            if entries and all(isinstance(entry, dict) and key in entry for entry in entries):
                return sorted(entries, key=lambda entry: entry[key])
        return entries
    return answer


def _create(context, settings, database, queue, name: str, template=TEMPLATE, **args: Any):
    params = copy.deepcopy(ENVIRONMENT if template is TEMPLATE else EMPTY_ENVIRONMENT)
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name=name,
        template=template,
        params=params,
        files=args.pop("files", {}),
        args=args,
    )
    queue.run_until_idle()
    return identity


def test_previews_answer_as_heat(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, "web", BEFORE)
    patch = dict(copy.deepcopy(EMPTY_ENVIRONMENT), parameters={})
    arguments = {"stack_identity": identity, "files": {}}
    create_arguments = {
        "stack_name": "other",
        "template": TEMPLATE,
        "params": ENVIRONMENT,
        "files": {},
        "args": {"tags": ["blue"]},
    }
    put = dict(arguments, template=AFTER, params=EMPTY_ENVIRONMENT, args={})
    patched = dict(arguments, template=None, params=patch, args={"existing": True})

    def call(function: Any, keywords: dict[str, Any]) -> Any:
        return _ours(function, context, settings, database, queue, **copy.deepcopy(keywords))

    ours = [
        call(preview_update_stack, put),
        call(preview_update_stack, patched),
        call(preview_stack, create_arguments),
    ]
    heat = _heat(
        database,
        [
            ("preview_update_stack", put),
            ("preview_update_stack", patched),
            ("preview_stack", create_arguments),
        ],
    )

    # A preview's creation time is the time of the call.
    for answer in (ours[2], heat[2]):
        answer.pop("creation_time")
    assert _sorted(ours) == _sorted(heat)
    assert ours[0]["replaced"]


def test_export_answers_as_heat(context, settings, database, queue) -> None:
    identity = _create(
        context, settings, database, queue, "web", files={"notes.txt": "hi"}, tags=["blue"]
    )

    enabled = dataclasses.replace(settings, enable_stack_abandon=True)
    ours = _ours(export_stack, context, enabled, database, queue, stack_identity=identity)
    (heat,) = _heat(
        database, [("export_stack", {"stack_identity": identity})], enable_stack_abandon=True
    )

    assert ours == heat


def test_refusals_answer_as_heat(context, settings, database, queue) -> None:
    complete = _create(context, settings, database, queue, "complete")
    suspended = _create(context, settings, database, queue, "suspended")
    set_state(database, suspended["stack_id"], "SUSPEND", "COMPLETE")
    deleting = _create(context, settings, database, queue, "deleting")
    set_state(database, deleting["stack_id"], "DELETE", "IN_PROGRESS")
    creating = _create(context, settings, database, queue, "creating")
    set_state(database, creating["stack_id"], "CREATE", "IN_PROGRESS")

    def update(identity: dict[str, str]) -> dict[str, Any]:
        return {
            "stack_identity": identity,
            "template": TEMPLATE,
            "params": ENVIRONMENT,
            "files": {},
            "args": {},
        }

    calls = [
        (export_stack, {"stack_identity": complete}),
        (abandon_stack, {"stack_identity": complete}),
        (stack_cancel_update, {"stack_identity": complete, "cancel_with_rollback": True}),
        (stack_cancel_update, {"stack_identity": complete, "cancel_with_rollback": False}),
        (stack_cancel_update, {"stack_identity": creating, "cancel_with_rollback": True}),
        (update_stack, update(suspended)),
        (update_stack, update(deleting)),
        (update_stack, update(dict(complete, stack_name="nope"))),
    ]
    ours = [
        _ours(function, context, settings, database, queue, **copy.deepcopy(arguments))
        for function, arguments in calls
    ]
    heat = _heat(database, [(function.__name__, arguments) for function, arguments in calls])

    assert ours == heat
    assert all("exception" in answer for answer in ours)


def _twins(context, settings, database, queue, *names: str) -> list[dict[str, str]]:
    return [
        _create(context, settings, database, queue, name, tags=["blue"], timeout_mins="20")
        for name in names
    ]


def _stored(database, identity: dict[str, str]) -> dict[str, Any]:
    """What an operation leaves of a stack, the same for twins that did the same."""
    row = stack_row(database, identity["stack_id"])
    template = template_row(database, row.raw_template_id)
    return {
        "state": (row.action, row.status, row.status_reason),
        "options": (row.timeout, row.disable_rollback),
        "tags": tags(database, identity["stack_id"]),
        "template": (template.template, template.environment),
        "previous_template": row.prev_raw_template_id is not None,
        "updated": row.updated_at is not None,
        "resources": states(database, identity["stack_id"]),
        "sync_points": len(all_rows(database, SyncPoint, stack_id=identity["stack_id"])),
        "events": stack_events(database, identity["stack_id"]),
    }


def test_updates_store_what_heat_stores(context, settings, database, queue) -> None:
    put_heat, put_ours, patch_heat, patch_ours = _twins(
        context, settings, database, queue, "put-heat", "put-ours", "patch-heat", "patch-ours"
    )
    changed = copy.deepcopy(TEMPLATE)
    changed["resources"]["first"]["properties"]["value"] = "changed"
    changed["resources"]["extra"] = {"type": "OS::Heat::None"}
    put = {
        "template": changed,
        "params": ENVIRONMENT,
        "files": {},
        "args": {"disable_rollback": "false"},
    }
    patch = {
        "template": None,
        "params": dict(copy.deepcopy(ENVIRONMENT), parameters={"greeting": "yo"}),
        "files": {"more.txt": "x"},
        "args": {"existing": True, "tags": ["red"]},
    }

    answers = [
        _ours(
            update_stack,
            context,
            settings,
            database,
            queue,
            stack_identity=put_ours,
            **copy.deepcopy(put),
        ),
        _ours(
            update_stack,
            context,
            settings,
            database,
            queue,
            stack_identity=patch_ours,
            **copy.deepcopy(patch),
        ),
    ]
    heat = _heat(
        database,
        [
            ("update_stack", dict(put, stack_identity=put_heat)),
            ("update_stack", dict(patch, stack_identity=patch_heat)),
        ],
    )

    assert (answers, heat) == ([put_ours, patch_ours], [put_heat, patch_heat])
    assert _stored(database, put_ours) == _stored(database, put_heat)
    assert _stored(database, patch_ours) == _stored(database, patch_heat)
    assert _stored(database, put_ours)["tags"] == []


@pytest.mark.parametrize("rollback", [True, False])
def test_cancels_store_what_heat_stores(context, settings, database, queue, rollback) -> None:
    heat_stack, our_stack = _twins(context, settings, database, queue, "heat", "ours")
    changed = copy.deepcopy(TEMPLATE)
    changed["resources"]["extra"] = {"type": "OS::Heat::None"}
    for identity in (heat_stack, our_stack):
        update_stack(
            context,
            settings,
            database,
            queue,
            stack_identity=identity,
            template=changed,
            params=copy.deepcopy(ENVIRONMENT),
            files={},
            args={},
        )
    cancel = {"cancel_with_rollback": rollback}

    ours = _ours(
        stack_cancel_update, context, settings, database, queue, stack_identity=our_stack, **cancel
    )
    heat = _heat(database, [("stack_cancel_update", dict(cancel, stack_identity=heat_stack))])

    assert [ours] == heat
    assert _stored(database, our_stack) == _stored(database, heat_stack)
