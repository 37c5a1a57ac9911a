"""The runtime stack: what storing writes, and what loading gives back."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from keel_app.common import exception
from keel_app.engine.environment import Environment
from keel_app.engine.stack import Stack
from keel_app.engine.template import Template
from keel_app.models import Event, RawTemplate, RawTemplateFiles, StackTag, UserCreds
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow

TEMPLATE: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "description": "two values",
    "parameters": {
        "greeting": {"type": "string", "default": "hello"},
        "secret": {"type": "string", "hidden": True},
    },
    "resources": {
        "first": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "greeting"}}},
        "second": {
            "type": "OS::Heat::Value",
            "properties": {"value": {"get_attr": ["first", "value"]}},
        },
    },
    "outputs": {"out": {"value": {"get_attr": ["second", "value"]}}},
}


def _new_stack(context, database, settings, **options: Any) -> Stack:
    environment = Environment({"parameters": {"secret": "s3"}})
    files = options.pop("files", None)
    tmpl = Template(TEMPLATE, files=files, env=environment)
    return Stack(context, "web", tmpl, database=database, settings=settings, **options)


def _rows(database, model, **where: Any) -> list[Any]:
    with database.transaction() as session:
        statement = sa.select(model)
        for column, value in where.items():
            statement = statement.where(getattr(model, column) == value)
        return list(session.scalars(statement).all())


def test_store_writes_template_credentials_stack_and_tags(context, database, settings) -> None:
    stack = _new_stack(
        context,
        database,
        settings,
        tags=["blue", "green"],
        timeout_mins=10,
        disable_rollback=False,
        files={"a.yaml": "x: 1"},
    )

    stack_id = stack.store()

    (row,) = _rows(database, StackRow)
    assert {
        "id": row.id,
        "name": row.name,
        "tenant": row.tenant,
        "username": row.username,
        "action": row.action,
        "status": row.status,
        "status_reason": row.status_reason,
        "timeout": row.timeout,
        "disable_rollback": row.disable_rollback,
        "convergence": row.convergence,
        "nested_depth": row.nested_depth,
        "owner_id": row.owner_id,
        "backup": row.backup,
        "current_traversal": row.current_traversal,
    } == {
        "id": stack_id,
        "name": "web",
        "tenant": "project-a",
        "username": "alice",
        "action": "CREATE",
        "status": "IN_PROGRESS",
        "status_reason": "",
        "timeout": 10,
        "disable_rollback": False,
        "convergence": True,
        "nested_depth": 0,
        "owner_id": None,
        "backup": False,
        "current_traversal": None,
    }
    (template_row,) = _rows(database, RawTemplate)
    assert template_row.id == row.raw_template_id
    assert template_row.template == TEMPLATE
    assert template_row.environment == {
        "parameters": {"secret": "s3"},
        "resource_registry": {"resources": {}},
        "parameter_defaults": {},
        "encrypted_param_names": [],
        "event_sinks": [],
    }
    (files_row,) = _rows(database, RawTemplateFiles)
    assert (template_row.files_id, files_row.files) == (files_row.id, {"a.yaml": "x: 1"})
    (creds,) = _rows(database, UserCreds)
    assert (row.user_creds_id, creds.username, creds.tenant_id) == (creds.id, "alice", "project-a")
    assert sorted(tag.tag for tag in _rows(database, StackTag, stack_id=stack_id)) == [
        "blue",
        "green",
    ]


def test_a_template_without_files_stores_no_files_row(context, database, settings) -> None:
    _new_stack(context, database, settings).store()

    (template_row,) = _rows(database, RawTemplate)
    assert template_row.files_id is None
    assert _rows(database, RawTemplateFiles) == []


def test_storing_gives_the_stack_its_identifier(context, database, settings) -> None:
    stack = _new_stack(context, database, settings)

    stack_id = stack.store()

    assert dict(stack.identifier()) == {
        "tenant": "project-a",
        "stack_name": "web",
        "stack_id": stack_id,
        "path": "",
    }
    assert stack.parameters["OS::stack_id"] == stack_id


def test_a_second_stack_of_the_same_name_is_refused(context, database, settings) -> None:
    _new_stack(context, database, settings, files={"a": "b"}).store()

    with pytest.raises(exception.StackExists, match=r"The Stack \(web\) already exists."):
        _new_stack(context, database, settings, files={"a": "b"}).store()

    # What was stored for the refused stack is gone again.
    assert len(_rows(database, RawTemplate)) == 1
    assert len(_rows(database, RawTemplateFiles)) == 1
    assert len(_rows(database, UserCreds)) == 1


def test_load_gives_back_the_stored_stack(context, database, settings) -> None:
    stored = _new_stack(context, database, settings, tags=["blue"], timeout_mins=5)
    stack_id = stored.store()

    loaded = Stack.load(context, database, settings, stack_id=stack_id)

    assert (
        loaded.id,
        loaded.name,
        loaded.t.t,
        loaded.env.params,
        loaded.tags,
        loaded.timeout_mins,
        loaded.timeout_secs(),
        loaded.state,
        loaded.user_creds_id,
        loaded.created_time,
        loaded.parameters["greeting"],
    ) == (
        stack_id,
        "web",
        TEMPLATE,
        {"secret": "s3"},
        ["blue"],
        5,
        300,
        ("CREATE", "IN_PROGRESS"),
        stored.user_creds_id,
        stored.created_time,
        "hello",
    )


def test_load_of_another_projects_stack_is_not_found(context, database, settings) -> None:
    from dataclasses import replace

    stack_id = _new_stack(context, database, settings).store()

    with pytest.raises(exception.NotFound):
        Stack.load(replace(context, project_id="project-b"), database, settings, stack_id=stack_id)


def test_loaded_resources_carry_their_rows_state(context, database, settings) -> None:
    stack_id = _new_stack(context, database, settings).store()
    with database.transaction() as session:
        session.add(
            ResourceRow(
                name="first",
                stack_id=stack_id,
                action="CREATE",
                status="COMPLETE",
                status_reason="state changed",
                physical_resource_id="phys-1",
                requires=[],
                needed_by=[],
            )
        )

    loaded = Stack.load(context, database, settings, stack_id=stack_id)

    first, second = loaded.resources["first"], loaded.resources["second"]
    assert (first.action, first.status, first.status_reason, first.resource_id) == (
        "CREATE",
        "COMPLETE",
        "state changed",
        "phys-1",
    )
    assert (second.action, second.status, second.resource_id) == ("INIT", "COMPLETE", None)


def test_state_set_writes_the_row_and_a_stack_event(context, database, settings) -> None:
    stack = _new_stack(context, database, settings)
    stack_id = stack.store()

    written = stack.state_set("CREATE", "FAILED", "boom")

    (row,) = _rows(database, StackRow)
    assert (written, row.action, row.status, row.status_reason) == (
        True,
        "CREATE",
        "FAILED",
        "boom",
    )
    (event,) = _rows(database, Event)
    assert {
        "stack_id": event.stack_id,
        "resource_name": event.resource_name,
        "physical_resource_id": event.physical_resource_id,
        "resource_action": event.resource_action,
        "resource_status": event.resource_status,
        "resource_status_reason": event.resource_status_reason,
        "resource_type": event.resource_type,
    } == {
        "stack_id": stack_id,
        "resource_name": "web",
        "physical_resource_id": stack_id,
        "resource_action": "CREATE",
        "resource_status": "FAILED",
        "resource_status_reason": "boom",
        "resource_type": "OS::Heat::Stack",
    }


def test_state_set_of_a_stale_traversal_leaves_the_row(context, database, settings) -> None:
    stack = _new_stack(context, database, settings)
    stack_id = stack.store()
    with database.transaction() as session:
        session.get(StackRow, stack_id).current_traversal = "newer"
    stack.current_traversal = "older"

    written = stack.state_set("CREATE", "COMPLETE", "done")

    (row,) = _rows(database, StackRow)
    assert (written, row.status) == (False, "IN_PROGRESS")


def test_state_set_refuses_unknown_states(context, database, settings) -> None:
    stack = _new_stack(context, database, settings)

    with pytest.raises(ValueError, match="Invalid action SHUFFLE"):
        stack.state_set("SHUFFLE", "COMPLETE", "")
    with pytest.raises(ValueError, match="Invalid status DONE"):
        stack.state_set("CREATE", "DONE", "")


def test_state_set_calls_the_notifier(context, database, settings) -> None:
    stack = _new_stack(context, database, settings)
    stack.store()
    seen: list[tuple[str, str]] = []
    stack.notifier = lambda notified: seen.append(notified.state)

    stack.state_set("CREATE", "COMPLETE", "ok")

    assert seen == [("CREATE", "COMPLETE")]


def test_a_nested_stack_knows_its_root_and_shares_its_credentials(
    context, database, settings
) -> None:
    root = _new_stack(context, database, settings)
    root_id = root.store()
    child = _new_stack(
        context,
        database,
        settings,
        owner_id=root_id,
        nested_depth=1,
        user_creds_id=root.user_creds_id,
        parent_resource="child",
    )
    child.name = "web-child-abc"
    child_id = child.store()
    grandchild = _new_stack(context, database, settings, owner_id=child_id, nested_depth=2)
    grandchild.name = "web-child-abc-grand-def"
    grandchild.store()

    assert (root.root_stack_id(), child.root_stack_id(), grandchild.root_stack_id()) == (
        root_id,
        root_id,
        root_id,
    )
    assert len(_rows(database, UserCreds)) == 1
    (child_row,) = _rows(database, StackRow, id=child_id)
    assert (
        child_row.owner_id,
        child_row.nested_depth,
        child_row.parent_resource_name,
        child_row.user_creds_id,
    ) == (root_id, 1, "child", root.user_creds_id)


def test_hidden_parameters_are_stored_encrypted_when_asked(context, database) -> None:
    from keel_app.common import crypt
    from keel_app.engine.settings import EngineSettings

    settings = EngineSettings(
        encrypt_parameters_and_properties=True,
        auth_encryption_key="0123456789abcdef0123456789abcdef",
    )
    stack_id = _new_stack(context, database, settings).store()

    (template_row,) = _rows(database, RawTemplate)
    method, data = template_row.environment["parameters"]["secret"]
    assert template_row.environment["encrypted_param_names"] == ["secret"]
    assert crypt.decrypt(method, data, settings.auth_encryption_key) == "s3"
    loaded = Stack.load(context, database, settings, stack_id=stack_id)
    assert (loaded.env.params["secret"], loaded.parameters["secret"]) == ("s3", "s3")


def test_hidden_parameters_are_stored_as_given_by_default(context, database, settings) -> None:
    _new_stack(context, database, settings).store()

    (template_row,) = _rows(database, RawTemplate)
    assert template_row.environment["parameters"] == {"secret": "s3"}
    assert template_row.environment["encrypted_param_names"] == []
