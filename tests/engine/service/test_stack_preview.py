"""preview_stack and preview_update_stack: the answers, and that nothing is stored."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.engine.service import stacks as service
from keel_app.engine.service.stack_preview import preview_stack, preview_update_stack
from keel_app.models import RawTemplate
from keel_app.models import Stack as StackRow
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE
from tests.engine.service.preview_templates import AFTER, BEFORE, EMPTY_ENVIRONMENT
from tests.engine.service.rows import all_rows, stack_row


def _create(context, settings, database, queue, template: dict, params: dict) -> dict:
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=template,
        params=copy.deepcopy(params),
        files={},
        args={},
    )
    queue.run_until_idle()
    return identity


def _names(answer: dict[str, list[dict[str, Any]]]) -> dict[str, list[str]]:
    return {
        category: [entry["resource_name"] for entry in entries]
        for category, entries in answer.items()
    }


def test_preview_stack_shows_the_stack_without_its_state(
    context, settings, database, queue
) -> None:
    answer = preview_stack(
        context,
        settings,
        database,
        queue,
        stack_name="web",
        template=TEMPLATE,
        params=copy.deepcopy(ENVIRONMENT),
        files={},
        args={"tags": ["blue"]},
    )

    assert all_rows(database, StackRow) == []
    assert all_rows(database, RawTemplate) == []
    assert "stack_status" not in answer and "stack_action" not in answer
    assert (answer["stack_name"], answer["stack_identity"], answer["tags"]) == (
        "web",
        {"tenant": "project-a", "stack_name": "web", "stack_id": "None", "path": ""},
        ["blue"],
    )
    first, second, last = answer["resources"]
    assert first == {
        "updated_time": None,
        "creation_time": None,
        "resource_name": "first",
        "physical_resource_id": "",
        "resource_action": "INIT",
        "resource_status": "COMPLETE",
        "resource_status_reason": "",
        "resource_type": "OS::Heat::Value",
        "resource_identity": {
            "tenant": "project-a",
            "stack_name": "web",
            "stack_id": "None",
            "path": "/resources/first",
        },
        "stack_identity": answer["stack_identity"],
        "stack_name": "web",
        "required_by": ["second"],
        "description": "",
        "metadata": {},
        "attributes": {"value": "hello"},
        "properties": {"value": "hello", "type": None},
    }
    assert (second["resource_name"], second["properties"]) == (
        "second",
        {"value": "X-", "type": None},
    )
    assert (last["resource_name"], last["properties"], last["required_by"]) == ("last", {}, [])


def test_preview_stack_refuses_a_name_in_use(context, settings, database, queue) -> None:
    _create(context, settings, database, queue, TEMPLATE, ENVIRONMENT)

    with pytest.raises(exception.StackExists) as raised:
        preview_stack(
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

    assert str(raised.value) == "The Stack (web) already exists."


def test_preview_update_sorts_the_resources(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, BEFORE, EMPTY_ENVIRONMENT)
    before = stack_row(database, identity["stack_id"])

    answer = preview_update_stack(
        context,
        settings,
        database,
        queue,
        stack_identity=identity,
        template=AFTER,
        params=copy.deepcopy(EMPTY_ENVIRONMENT),
        files={},
        args={},
    )

    assert _names(answer) == {
        "unchanged": ["keep"],
        "updated": ["change"],
        "replaced": ["swap", "rebuild"],
        "added": ["added"],
        "deleted": ["gone"],
    }
    # Nothing was stored, nothing sent.
    after = stack_row(database, identity["stack_id"])
    assert (after.raw_template_id, after.current_traversal, after.action, after.status) == (
        before.raw_template_id,
        before.current_traversal,
        "CREATE",
        "COMPLETE",
    )
    assert len(all_rows(database, RawTemplate)) == 1
    assert queue.pending() == []


def test_preview_update_shows_current_and_new_resources(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, BEFORE, EMPTY_ENVIRONMENT)

    answer = preview_update_stack(
        context,
        settings,
        database,
        queue,
        stack_identity=identity,
        template=AFTER,
        params=copy.deepcopy(EMPTY_ENVIRONMENT),
        files={},
        args={},
    )

    # An updated resource as it is now; an added one as the update would make it.
    (updated,) = answer["updated"]
    (added,) = answer["added"]
    assert (updated["resource_action"], updated["attributes"]) == ("CREATE", {"value": "old"})
    assert updated["physical_resource_id"]
    assert (added["resource_action"], added["resource_status"], added["physical_resource_id"]) == (
        "INIT",
        "COMPLETE",
        "",
    )
    assert added["resource_identity"] == dict(identity, path="/resources/added")


def test_preview_patch_merges_with_the_stored_stack(context, settings, database, queue) -> None:
    identity = _create(context, settings, database, queue, TEMPLATE, ENVIRONMENT)
    params = copy.deepcopy(ENVIRONMENT)
    params["parameters"] = {"greeting": "yo"}

    answer = preview_update_stack(
        context,
        settings,
        database,
        queue,
        stack_identity=identity,
        template=None,
        params=params,
        files={},
        args={"existing": True},
    )

    assert _names(answer) == {
        "unchanged": ["last"],
        "updated": ["first", "second"],
        "replaced": [],
        "added": [],
        "deleted": [],
    }
