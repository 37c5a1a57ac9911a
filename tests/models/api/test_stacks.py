from __future__ import annotations

import pytest
import sqlalchemy as sa

from keel_app.common import exception
from keel_app.models import Resource, ResourceData, ResourcePropertiesData, Stack, UserCreds
from keel_app.models.api import stacks
from keel_app.models.database import Database
from tests.models.api import factories
from tests.models.api.factories import ADMIN, MEMBER, OUTSIDER, PROJECT


def _new_stack_values(database: Database, name: str, **values: object) -> dict[str, object]:
    template = factories.raw_template(database)
    return {
        "name": name,
        "raw_template_id": template.id,
        "tenant": PROJECT,
        "disable_rollback": True,
        **values,
    }


def _stacks_named(database: Database, name: str) -> list[Stack]:
    with database.transaction() as session:
        return list(session.scalars(sa.select(Stack).where(Stack.name == name)))


def test_create_stack_stores_the_row(database: Database) -> None:
    created = stacks.create_stack(database, _new_stack_values(database, "web"))

    stored = factories.row(database, Stack, created.id)
    assert (stored.name, stored.tenant, stored.deleted_at) == ("web", PROJECT, None)
    assert stored.created_at is not None


def test_create_stack_with_a_taken_name_raises_and_leaves_no_row(database: Database) -> None:
    first = stacks.create_stack(database, _new_stack_values(database, "web"))

    with pytest.raises(exception.StackExists) as raised:
        stacks.create_stack(database, _new_stack_values(database, "web"))

    assert str(raised.value) == "The Stack (web) already exists."
    assert [stack.id for stack in _stacks_named(database, "web")] == [first.id]


def test_create_stack_name_taken_by_a_stack_user_project_counts(database: Database) -> None:
    factories.stack(database, name="web", tenant="elsewhere", stack_user_project_id=PROJECT)

    with pytest.raises(exception.StackExists):
        stacks.create_stack(database, _new_stack_values(database, "web"))


def test_create_stack_name_may_repeat_in_another_project(database: Database) -> None:
    stacks.create_stack(database, _new_stack_values(database, "web"))

    stacks.create_stack(database, _new_stack_values(database, "web", tenant="project-b"))

    assert len(_stacks_named(database, "web")) == 2


def test_create_stack_name_of_a_deleted_stack_is_free(database: Database) -> None:
    old = stacks.create_stack(database, _new_stack_values(database, "web"))
    stacks.delete_stack(database, MEMBER, old.id)

    new = stacks.create_stack(database, _new_stack_values(database, "web"))

    assert new.id != old.id


def test_get_stack_hides_other_projects_from_non_admins(database: Database) -> None:
    stack = factories.stack(database)

    assert stacks.get_stack(database, MEMBER, stack.id).id == stack.id
    assert stacks.get_stack(database, OUTSIDER, stack.id) is None
    assert stacks.get_stack(database, ADMIN, stack.id).id == stack.id


def test_get_stack_shows_deleted_stacks_only_when_asked(database: Database) -> None:
    stack = factories.stack(database)
    stacks.delete_stack(database, MEMBER, stack.id)

    assert stacks.get_stack(database, MEMBER, stack.id) is None
    assert stacks.get_stack(database, MEMBER, stack.id, show_deleted=True).id == stack.id


def test_update_stack_with_the_current_traversal_writes(database: Database) -> None:
    stack = factories.stack(database, current_traversal="traversal-1")

    updated = stacks.update_stack(
        database,
        MEMBER,
        stack.id,
        {"action": "CREATE", "status": "COMPLETE", "status_reason": "done"},
        expected_traversal="traversal-1",
    )

    stored = factories.row(database, Stack, stack.id)
    assert updated is True
    assert (stored.status, stored.status_reason) == ("COMPLETE", "done")


def test_update_stack_with_a_stale_traversal_changes_nothing(database: Database) -> None:
    stack = factories.stack(database, current_traversal="traversal-2", status="IN_PROGRESS")

    updated = stacks.update_stack(
        database, MEMBER, stack.id, {"status": "COMPLETE"}, expected_traversal="traversal-1"
    )

    assert updated is False
    assert factories.row(database, Stack, stack.id).status == "IN_PROGRESS"


def test_update_stack_by_a_stack_user_project_member_writes(database: Database) -> None:
    stack = factories.stack(database, tenant="owner", stack_user_project_id=PROJECT)

    assert stacks.update_stack(database, MEMBER, stack.id, {"status": "FAILED"}) is True


def test_update_stack_of_another_project_is_refused(database: Database) -> None:
    stack = factories.stack(database, status="IN_PROGRESS")

    with pytest.raises(exception.NotFound):
        stacks.update_stack(database, OUTSIDER, stack.id, {"status": "FAILED"})

    assert factories.row(database, Stack, stack.id).status == "IN_PROGRESS"


def test_update_stack_of_another_project_by_an_admin_writes(database: Database) -> None:
    stack = factories.stack(database)

    assert stacks.update_stack(database, ADMIN, stack.id, {"status": "FAILED"}) is True


def test_update_missing_stack_raises_heats_not_found(database: Database) -> None:
    with pytest.raises(exception.NotFound) as raised:
        stacks.update_stack(database, MEMBER, "no-such-stack", {"status": "FAILED"})

    assert str(raised.value) == (
        "Attempt to update a stack with id: no-such-stack that does not exist"
    )


def test_update_deleted_stack_raises_not_found(database: Database) -> None:
    stack = factories.stack(database)
    stacks.delete_stack(database, MEMBER, stack.id)

    with pytest.raises(exception.NotFound):
        stacks.update_stack(database, ADMIN, stack.id, {"status": "FAILED"})


def test_update_stack_cuts_a_long_reason_to_mysql_text_on_mysql_only(
    database: Database,
) -> None:
    stack = factories.stack(database)
    reason = "é" * 70000

    stacks.update_stack(database, MEMBER, stack.id, {"status_reason": reason})

    stored = factories.row(database, Stack, stack.id).status_reason
    if database.is_mysql:
        assert len(stored.encode("utf-8")) <= 65535
        assert stored == "é" * 32767
    else:
        assert stored == reason


def test_delete_stack_soft_deletes_and_removes_resources(database: Database) -> None:
    stack = factories.stack(database)
    attributes = factories.properties_data(database, {"output": "x"})
    properties = factories.properties_data(database)
    server = factories.resource(
        database, stack.id, attr_data_id=attributes.id, rsrc_prop_data_id=properties.id
    )
    with database.transaction() as session:
        session.add(ResourceData(resource_id=server.id, key="password", value="secret"))

    stacks.delete_stack(database, MEMBER, stack.id)

    with database.transaction() as session:
        assert session.get(Stack, stack.id).deleted_at is not None
        assert session.scalars(sa.select(Resource)).all() == []
        assert session.scalars(sa.select(ResourceData)).all() == []
        remaining = session.scalars(sa.select(ResourcePropertiesData.id)).all()
    assert remaining == [properties.id]


def test_delete_stack_keeps_its_user_creds(database: Database) -> None:
    with database.transaction() as session:
        creds = UserCreds(username="bob")
        session.add(creds)
    stack = factories.stack(database, user_creds_id=creds.id)

    stacks.delete_stack(database, MEMBER, stack.id)

    assert factories.row(database, UserCreds, creds.id) is not None
    assert factories.row(database, Stack, stack.id).user_creds_id == creds.id


def test_delete_stack_of_another_project_raises_heats_not_found(database: Database) -> None:
    stack = factories.stack(database)

    with pytest.raises(exception.NotFound) as raised:
        stacks.delete_stack(database, OUTSIDER, stack.id)

    assert str(raised.value) == f"Attempt to delete a stack with id: {stack.id} that does not exist"
    assert factories.row(database, Stack, stack.id).deleted_at is None
