"""purge_deleted removes old soft-deleted stacks with everything only they use."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.common.exception import Error
from keel_app.models import Event
from keel_app.models.database import Database
from keel_app.models.maintenance.purge import purge_deleted
from tests.models.maintenance import factories
from tests.models.maintenance.factories import StackTree, ago


def _contains(left: dict[str, set[Any]], tree: StackTree) -> bool:
    return all(ids <= left[table] for table, ids in tree.ids.items())


def _gone(left: dict[str, set[Any]], tree: StackTree, shared: frozenset[str] = frozenset()) -> bool:
    return all(not (ids & left[table]) for table, ids in tree.ids.items() if table not in shared)


@pytest.fixture
def stacks(database: Database) -> dict[str, StackTree]:
    with database.transaction() as session:
        shared_files = factories.files(session)
        return {
            "old": factories.full_stack(
                session, "old", deleted_at=ago(days=10), shared_files=shared_files
            ),
            "old-other-project": factories.full_stack(
                session, "old-other-project", tenant="project-2", deleted_at=ago(days=10)
            ),
            "recent": factories.full_stack(session, "recent", deleted_at=ago(hours=2)),
            "live": factories.full_stack(session, "live", shared_files=shared_files),
        }


def test_removes_stacks_deleted_before_the_age_and_all_their_rows(
    database: Database, stacks: dict[str, StackTree]
) -> None:
    purge_deleted(database, "1")

    left = factories.primary_keys(database)
    assert _gone(left, stacks["old"], shared=frozenset({"raw_template_files"}))
    assert _gone(left, stacks["old-other-project"])
    assert _contains(left, stacks["recent"])
    assert _contains(left, stacks["live"])
    assert left["stack"] == {stacks["recent"].stack_id, stacks["live"].stack_id}


def test_keeps_template_files_that_a_live_template_still_uses(
    database: Database, stacks: dict[str, StackTree]
) -> None:
    purge_deleted(database, "1")

    assert stacks["old"].ids["raw_template_files"] <= stacks["live"].ids["raw_template_files"]
    assert (
        stacks["live"].ids["raw_template_files"]
        <= factories.primary_keys(database)["raw_template_files"]
    )


def test_project_id_limits_the_purge_to_one_project(
    database: Database, stacks: dict[str, StackTree]
) -> None:
    purge_deleted(database, "1", project_id="project-2")

    left = factories.primary_keys(database)
    assert _gone(left, stacks["old-other-project"])
    assert _contains(left, stacks["old"])
    assert _contains(left, stacks["recent"])


def test_granularity_scales_the_age(database: Database, stacks: dict[str, StackTree]) -> None:
    purge_deleted(database, "30", granularity="minutes")

    assert factories.primary_keys(database)["stack"] == {stacks["live"].stack_id}


def test_batches_of_one_purge_the_same_rows(
    database: Database, stacks: dict[str, StackTree]
) -> None:
    purge_deleted(database, "1", batch_size="1")

    left = factories.primary_keys(database)
    assert left["stack"] == {stacks["recent"].stack_id, stacks["live"].stack_id}
    assert _gone(left, stacks["old-other-project"])


def test_batch_size_zero_purges_no_stack_but_the_old_services(database: Database) -> None:
    with database.transaction() as session:
        old = factories.stack(session, "old", deleted_at=ago(days=10))
        dead = factories.service(session, "dead", deleted_at=ago(days=10)).id
        factories.service(session, "recently-dead", deleted_at=ago(hours=1))
        factories.service(session, "alive")

    purge_deleted(database, "1", batch_size="0")

    left = factories.primary_keys(database)
    assert left["stack"] == {old.id}
    assert len(left["service"]) == 2
    assert dead not in left["service"]


def test_keeps_properties_data_that_a_live_event_refers_to(database: Database) -> None:
    with database.transaction() as session:
        old = factories.full_stack(session, "old", deleted_at=ago(days=10))
        live = factories.stack(session, "live")
        shared = min(old.ids["resource_properties_data"])
        session.add(Event(stack_id=live.id, resource_name="x", rsrc_prop_data_id=shared))

    purge_deleted(database, "1")

    left = factories.primary_keys(database)["resource_properties_data"]
    assert left == {shared}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"age": "ninety"}, "age should be an integer"),
        ({"age": "-1"}, "age should be a positive integer"),
        ({"age": "1", "batch_size": "x"}, "batch_size should be an integer"),
        ({"age": "1", "batch_size": "-5"}, "batch_size should be a positive integer"),
        (
            {"age": "1", "granularity": "weeks"},
            "granularity should be days, hours, minutes, or seconds",
        ),
    ],
)
def test_rejects_bad_arguments_with_heats_messages(
    database: Database, stacks: dict[str, StackTree], arguments: dict[str, str], message: str
) -> None:
    with pytest.raises(Error) as raised:
        purge_deleted(database, **arguments)

    assert str(raised.value) == message
    assert len(factories.primary_keys(database)["stack"]) == 4
