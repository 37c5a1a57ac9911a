"""A convergence step's read of its resource and stack rows gives each column as the
ORM reads it, on every backend (on MySQL the read comes packed in one JSON column)."""

from __future__ import annotations

import datetime

import pytest
import sqlalchemy as sa

from keel_app.common import exception
from keel_app.models import Resource, Stack
from keel_app.models.api import stacks
from keel_app.models.database import Database
from tests.models.api import factories
from tests.models.api.factories import ADMIN

AWKWARD_TEXT = 'Ünïcode "quoted", back\\slash,\nnew line\tand tab: 雪'


def _columns(model: type) -> list[str]:
    return [attribute.key for attribute in sa.inspect(model).column_attrs]


def _typed(row: object, names: list[str]) -> dict[str, tuple[str, object]]:
    # With each value's type: 1 == True, and a bool read as an int would pass unseen.
    return {name: (type(getattr(row, name)).__name__, getattr(row, name)) for name in names}


def test_every_column_reads_as_the_orm_reads_it(database: Database) -> None:
    stack = factories.stack(
        database,
        name="stäck",
        disable_rollback=False,
        convergence=True,
        backup=False,
        timeout=17,
        status_reason=AWKWARD_TEXT,
        created_at=datetime.datetime(2026, 12, 5, 11, 42, 5),
        updated_at=datetime.datetime(2026, 12, 5, 11, 43, 6),
    )
    resource = factories.resource(
        database,
        stack.id,
        name="sërver",
        rsrc_metadata={"ü": [1, 2.5, {"a": None, "b": True}], "text": AWKWARD_TEXT},
        properties_data={"flavor": "m1.small"},
        properties_data_encrypted=False,
        requires=[3, 1],
        needed_by=[],
        atomic_key=4,
        current_template_id=stack.raw_template_id,
        status_reason=AWKWARD_TEXT,
    )

    read_resource, read_stack = stacks.get_resource_and_stack(database, ADMIN, resource.id)

    stored_resource = factories.row(database, Resource, resource.id)
    stored_stack = factories.row(database, Stack, stack.id)
    assert _typed(read_resource, _columns(Resource)) == _typed(stored_resource, _columns(Resource))
    stack_columns = [name for name in _columns(Stack) if name != "current_deps"]
    assert _typed(read_stack, stack_columns) == _typed(stored_stack, stack_columns)


def test_a_resource_of_a_deleted_stack_comes_without_its_stack(database: Database) -> None:
    stack = factories.stack(database, deleted_at=datetime.datetime(2026, 12, 5, 12, 0, 0))
    resource = factories.resource(database, stack.id)

    read_resource, read_stack = stacks.get_resource_and_stack(database, ADMIN, resource.id)

    assert (read_resource.id, read_resource.stack_id, read_stack) == (resource.id, stack.id, None)


def test_a_missing_resource_is_not_found(database: Database) -> None:
    with pytest.raises(exception.NotFound, match="resource with id 4242 not found"):
        stacks.get_resource_and_stack(database, ADMIN, 4242)
