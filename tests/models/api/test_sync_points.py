from __future__ import annotations

import pytest

from keel_app.models import Stack
from keel_app.models.api import sync_points
from keel_app.models.database import Database
from tests.models.api import factories


@pytest.fixture
def stack(database: Database) -> Stack:
    return factories.stack(database)


def test_create_sync_point_stores_an_integer_entity_as_text(
    database: Database, stack: Stack
) -> None:
    sync_points.create_sync_point(
        database,
        {
            "entity_id": 7,
            "traversal_id": "traversal-1",
            "is_update": True,
            "atomic_key": 0,
            "stack_id": stack.id,
            "input_data": {},
        },
    )

    stored = sync_points.get_sync_point(database, 7, "traversal-1", True)
    assert (stored.entity_id, stored.atomic_key, stored.input_data) == ("7", 0, {})


def test_get_sync_point_of_the_other_direction_is_none(database: Database, stack: Stack) -> None:
    factories.sync_point(database, stack.id, entity_id="7", traversal_id="t", is_update=True)

    assert sync_points.get_sync_point(database, "7", "t", False) is None


def test_update_with_the_current_key_merges_and_increments(
    database: Database, stack: Stack
) -> None:
    point = factories.sync_point(database, stack.id, atomic_key=3, input_data={"input_data": {}})
    merged = {"input_data": {"tuple:(1, True, 'resource')": {"id": 1}}}
    extra = {"extra_data": {"resource_failures": {"a": "boom"}}}

    updated = sync_points.update_sync_point_input(
        database, point.entity_id, point.traversal_id, True, 3, merged, extra
    )

    stored = sync_points.get_sync_point(database, point.entity_id, point.traversal_id, True)
    assert updated is True
    assert (stored.atomic_key, stored.input_data, stored.extra_data) == (4, merged, extra)


def test_update_with_a_stale_key_changes_nothing(database: Database, stack: Stack) -> None:
    point = factories.sync_point(database, stack.id, atomic_key=3, input_data={"input_data": {}})

    updated = sync_points.update_sync_point_input(
        database, point.entity_id, point.traversal_id, True, 2, {"input_data": {"x": 1}}
    )

    stored = sync_points.get_sync_point(database, point.entity_id, point.traversal_id, True)
    assert updated is False
    assert (stored.atomic_key, stored.input_data) == (3, {"input_data": {}})


def test_update_without_extra_data_keeps_the_stored_extra_data(
    database: Database, stack: Stack
) -> None:
    extra = {"extra_data": {"skip_propagate": True}}
    point = factories.sync_point(database, stack.id, atomic_key=0, extra_data=extra)

    sync_points.update_sync_point_input(
        database, point.entity_id, point.traversal_id, True, 0, {"input_data": {"x": 1}}
    )

    stored = sync_points.get_sync_point(database, point.entity_id, point.traversal_id, True)
    assert (stored.input_data, stored.extra_data) == ({"input_data": {"x": 1}}, extra)


def test_delete_sync_points_removes_only_that_traversal_of_that_stack(
    database: Database, stack: Stack
) -> None:
    other_stack = factories.stack(database)
    factories.sync_point(database, stack.id, entity_id="1", traversal_id="old")
    factories.sync_point(database, stack.id, entity_id="2", traversal_id="old")
    factories.sync_point(database, stack.id, entity_id="1", traversal_id="new")
    factories.sync_point(database, other_stack.id, entity_id="3", traversal_id="old")

    deleted = sync_points.delete_sync_points(database, stack.id, "old")

    assert deleted == 2
    assert sync_points.get_sync_point(database, "1", "old", True) is None
    assert sync_points.get_sync_point(database, "1", "new", True) is not None
    assert sync_points.get_sync_point(database, "3", "old", True) is not None


def _merge_adding(name: str, failure: str | None = None):
    """A merge that adds the input ``name`` (and a resource failure, when given)."""

    def merge(stored_input, stored_extra):
        inputs = dict((stored_input or {}).get("input_data") or {})
        inputs[name] = None
        extra = dict(stored_extra or {})
        if failure is not None:
            extra[name] = failure
        return {"input_data": inputs}, extra or None

    return merge


@pytest.mark.parametrize("failure", [None, "boom"])
def test_an_expected_first_merge_stores_what_a_read_merge_would(
    database: Database, stack: Stack, failure: str | None
) -> None:
    point = factories.sync_point(database, stack.id)

    merged = sync_points.merge_sync_point(
        database, "42", point.traversal_id, True, _merge_adding("a", failure), expect_first=True
    )

    stored = sync_points.get_sync_point(database, "42", point.traversal_id, True)
    extra = None if failure is None else {"a": failure}
    assert merged == ({"input_data": {"a": None}}, extra)
    assert (stored.atomic_key, stored.input_data, stored.extra_data) == (
        1,
        {"input_data": {"a": None}},
        extra,
    )


def test_an_expected_first_merge_after_another_merges_with_it(
    database: Database, stack: Stack
) -> None:
    point = factories.sync_point(database, stack.id)
    sync_points.merge_sync_point(database, "42", point.traversal_id, True, _merge_adding("a"))

    merged = sync_points.merge_sync_point(
        database, "42", point.traversal_id, True, _merge_adding("b"), expect_first=True
    )

    stored = sync_points.get_sync_point(database, "42", point.traversal_id, True)
    assert merged == ({"input_data": {"a": None, "b": None}}, None)
    assert (stored.atomic_key, stored.input_data) == (2, {"input_data": {"a": None, "b": None}})


def test_an_expected_first_merge_into_a_sync_point_that_is_gone_is_none(
    database: Database, stack: Stack
) -> None:
    merged = sync_points.merge_sync_point(
        database, "42", "no-such-traversal", True, _merge_adding("a"), expect_first=True
    )

    assert merged is None
