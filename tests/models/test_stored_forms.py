"""Rows read the same whichever implementation wrote them: Heat 27.0.1's ORM or ours."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from keel_app.models import Event, RawTemplate, Resource, Stack, SyncPoint
from keel_app.models.database import Database
from keel_app.models.migration import db_sync
from tests import oracle

TEMPLATE = {"heat_template_version": "2021-04-16", "resources": {"a": {"type": "OS::Heat::None"}}}
LONG_REASON = "r" * 300
PROPERTIES = {"size": 3, "names": ["x", "y"]}

HEAT_WRITES = """
import json, sys
import sqlalchemy as sa
from sqlalchemy.orm import Session
from heat.db import models

engine = sa.create_engine(sys.argv[1])
spec = json.loads(sys.argv[2])
with Session(engine) as session:
    template = models.RawTemplate(template=spec["template"], environment=None, files={})
    session.add(template)
    session.flush()
    stack = models.Stack(id="s-1", name="heat-wrote", raw_template_id=template.id,
                         disable_rollback=False, tenant="p", current_deps=None)
    session.add(stack)
    session.flush()
    session.add(models.Resource(stack_id="s-1", name="a", requires=[1, 2],
                                rsrc_metadata=None, atomic_key=0))
    event = models.Event(stack_id="s-1", resource_name="a",
                         resource_properties=spec["properties"])
    event.resource_status_reason = spec["reason"]
    session.add(event)
    session.add(models.SyncPoint(entity_id="e", traversal_id="t", is_update=True,
                                 atomic_key=0, stack_id="s-1", input_data=None))
    session.commit()
"""

HEAT_READS = """
import json, sys
import sqlalchemy as sa
from sqlalchemy.orm import Session
from heat.db import models

engine = sa.create_engine(sys.argv[1])
with Session(engine) as session:
    template = session.query(models.RawTemplate).one()
    resource = session.query(models.Resource).one()
    event = session.query(models.Event).one()
    sync_point = session.query(models.SyncPoint).one()
    stack = session.query(models.Stack).one()
    print(json.dumps({
        "template": template.template, "environment": template.environment,
        "files": template.files, "requires": resource.requires,
        "rsrc_metadata": resource.rsrc_metadata, "reason": event.resource_status_reason,
        "properties": event.resource_properties, "input_data": sync_point.input_data,
        "current_deps": stack.current_deps,
    }))
"""

EXPECTED_VALUES = {
    "template": TEMPLATE,
    "environment": None,
    "files": {},
    "requires": [1, 2],
    "rsrc_metadata": None,
    "reason": LONG_REASON[:255],
    "properties": PROPERTIES,
    "input_data": None,
    "current_deps": None,
}


@pytest.fixture
def database(empty_database_url: str) -> Iterator[Database]:
    database = Database(empty_database_url)
    db_sync(database.engine)
    yield database
    database.dispose()


def _keel_writes(database: Database) -> None:
    with database.transaction() as session:
        template = RawTemplate(template=TEMPLATE, environment=None, files={})
        session.add(template)
        session.flush()
        session.add(
            Stack(
                id="s-1",
                name="keel-wrote",
                raw_template_id=template.id,
                disable_rollback=False,
                tenant="p",
                current_deps=None,
            )
        )
        session.flush()
        session.add(
            Resource(stack_id="s-1", name="a", requires=[1, 2], rsrc_metadata=None, atomic_key=0)
        )
        session.add(
            Event(
                stack_id="s-1",
                resource_name="a",
                resource_properties=PROPERTIES,
                resource_status_reason=LONG_REASON,
            )
        )
        session.add(
            SyncPoint(
                entity_id="e",
                traversal_id="t",
                is_update=True,
                atomic_key=0,
                stack_id="s-1",
                input_data=None,
            )
        )


def _keel_reads(database: Database) -> dict[str, object]:
    with database.transaction() as session:
        template = session.scalars(sa.select(RawTemplate)).one()
        resource = session.scalars(sa.select(Resource)).one()
        event = session.scalars(sa.select(Event)).one()
        sync_point = session.scalars(sa.select(SyncPoint)).one()
        stack = session.scalars(sa.select(Stack)).one()
        return {
            "template": template.template,
            "environment": template.environment,
            "files": template.files,
            "requires": resource.requires,
            "rsrc_metadata": resource.rsrc_metadata,
            "reason": event.resource_status_reason,
            "properties": event.resource_properties,
            "input_data": sync_point.input_data,
            "current_deps": stack.current_deps,
        }


def _raw_json_columns(database: Database) -> dict[str, str | None]:
    with database.engine.connect() as connection:
        return {
            "environment": connection.execute(
                sa.text("SELECT environment FROM raw_template")
            ).scalar_one(),
            "rsrc_metadata": connection.execute(
                sa.text("SELECT rsrc_metadata FROM resource")
            ).scalar_one(),
            "input_data": connection.execute(
                sa.text("SELECT input_data FROM sync_point")
            ).scalar_one(),
            "requires": connection.execute(sa.text("SELECT requires FROM resource")).scalar_one(),
        }


def _heat_url(database: Database) -> str:
    return database.engine.url.render_as_string(hide_password=False)


def test_rows_heat_wrote_read_the_same_here(database: Database) -> None:
    spec = {"template": TEMPLATE, "properties": PROPERTIES, "reason": LONG_REASON}
    oracle.run(HEAT_WRITES, _heat_url(database), json.dumps(spec))

    assert _keel_reads(database) == EXPECTED_VALUES


def test_rows_written_here_read_the_same_in_heat(database: Database) -> None:
    _keel_writes(database)

    assert oracle.run_json(HEAT_READS, _heat_url(database)) == EXPECTED_VALUES


def test_json_columns_store_none_as_the_text_null_like_heat(database: Database) -> None:
    _keel_writes(database)

    assert _raw_json_columns(database) == {
        "environment": "null",
        "rsrc_metadata": "null",
        "input_data": "null",
        "requires": "[1, 2]",
    }


def test_heat_stores_the_same_text_for_those_columns(database: Database) -> None:
    spec = {"template": TEMPLATE, "properties": PROPERTIES, "reason": LONG_REASON}
    oracle.run(HEAT_WRITES, _heat_url(database), json.dumps(spec))

    assert _raw_json_columns(database) == {
        "environment": "null",
        "rsrc_metadata": "null",
        "input_data": "null",
        "requires": "[1, 2]",
    }
