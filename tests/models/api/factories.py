"""Small builders of rows for the db api tests, written straight through a session."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from keel_app.models import (
    Event,
    RawTemplate,
    Resource,
    ResourcePropertiesData,
    Stack,
    SyncPoint,
)
from keel_app.models.database import Database, RetryPolicy
from keel_app.models.migration import db_sync

PROJECT = "project-a"
OTHER_PROJECT = "project-b"

# Tests wait for a competitor in tenths of a second, not in Heat's whole seconds.
FAST_RETRY = RetryPolicy(max_retries=20, retry_interval=0.05, max_retry_interval=0.2)


@dataclass(frozen=True)
class RequestScope:
    project_id: str | None = PROJECT
    is_admin: bool = False


MEMBER = RequestScope()
OUTSIDER = RequestScope(project_id=OTHER_PROJECT)
ADMIN = RequestScope(project_id="admin-project", is_admin=True)


def migrated_database(url: str) -> Database:
    database = Database(url, retry=FAST_RETRY)
    db_sync(database.engine)
    return database


def _insert(database: Database, row: Any) -> Any:
    with database.transaction() as session:
        session.add(row)
    return row


def raw_template(database: Database) -> RawTemplate:
    return _insert(database, RawTemplate(template={"heat_template_version": "2013-05-23"}))


def stack(database: Database, **values: Any) -> Stack:
    if "raw_template_id" not in values:
        values["raw_template_id"] = raw_template(database).id
    defaults = {
        "name": f"stack-{uuid.uuid4().hex[:8]}",
        "tenant": PROJECT,
        "disable_rollback": True,
        "action": "CREATE",
        "status": "IN_PROGRESS",
        "current_traversal": str(uuid.uuid4()),
    }
    return _insert(database, Stack(**{**defaults, **values}))


def resource(database: Database, stack_id: str, **values: Any) -> Resource:
    defaults = {"name": "server", "action": "INIT", "status": "COMPLETE", "atomic_key": None}
    return _insert(database, Resource(stack_id=stack_id, **{**defaults, **values}))


def properties_data(database: Database, data: Any = None) -> ResourcePropertiesData:
    return _insert(database, ResourcePropertiesData(data=data or {"flavor": "m1.small"}))


def sync_point(database: Database, stack_id: str, **values: Any) -> SyncPoint:
    defaults = {
        "entity_id": "42",
        "traversal_id": str(uuid.uuid4()),
        "is_update": True,
        "atomic_key": 0,
        "input_data": {},
    }
    return _insert(database, SyncPoint(stack_id=stack_id, **{**defaults, **values}))


def event(database: Database, stack_id: str, **values: Any) -> Event:
    defaults = {"resource_name": "server", "resource_action": "CREATE"}
    return _insert(database, Event(stack_id=stack_id, **{**defaults, **values}))


def row(database: Database, model: type[Any], key: Any) -> Any:
    """The row as stored now, read in a fresh transaction."""
    with database.transaction() as session:
        return session.get(model, key)
