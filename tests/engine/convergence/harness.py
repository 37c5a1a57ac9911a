"""What the convergence scenarios share: a stored stack, a LocalQueue worker, row readers."""

from __future__ import annotations

import dataclasses
from typing import Any

import sqlalchemy as sa

from keel_app.common import crypt
from keel_app.common.context import RequestContext
from keel_app.engine.convergence import converge
from keel_app.engine.convergence.runtime import ConvergenceStack
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.environment import Environment
from keel_app.engine.settings import EngineSettings
from keel_app.engine.template.base import Template
from keel_app.models import (
    Event,
    RawTemplate,
    Resource,
    ResourceData,
    ResourcePropertiesData,
    Stack,
    SyncPoint,
)
from keel_app.models.database import Database

PROJECT = "project-a"
CONTEXT = RequestContext(project_id=PROJECT, user_id="user-a", username="demo")
ENGINE_ID = "engine-0000-0000-0000-000000000001"


@dataclasses.dataclass
class Engine:
    database: Database
    settings: EngineSettings
    queue: LocalQueue

    def load(self, stack_id: str) -> ConvergenceStack:
        stack = ConvergenceStack.load(CONTEXT, self.database, self.settings, stack_id)
        assert stack is not None
        stack.clock = self.queue.now
        return stack

    def create(
        self, template: dict[str, Any], name: str = "demo", run: bool = True, **values: Any
    ) -> str:
        """Store a stack as the service does, start its CREATE and (``run``) run it to the end."""
        with self.database.transaction() as session:
            raw = RawTemplate(template=template, environment={}, files={})
            session.add(raw)
            session.flush()
            row = Stack(
                name=name,
                raw_template_id=raw.id,
                tenant=PROJECT,
                username="demo",
                action="CREATE",
                status="IN_PROGRESS",
                status_reason="",
                disable_rollback=values.pop("disable_rollback", True),
                convergence=True,
                nested_depth=0,
                tags=[],
                **values,
            )
            session.add(row)
            session.flush()
            stack_id = row.id
        stack = self.load(stack_id)
        converge.converge_stack(stack, stack.t, self.queue, action="CREATE")
        if run:
            self.queue.run_until_idle()
        return stack_id

    def update(self, stack_id: str, template: dict[str, Any], run: bool = True) -> None:
        stack = self.load(stack_id)
        converge.converge_stack(stack, Template(template, env=Environment({})), self.queue)
        if run:
            self.queue.run_until_idle()

    def delete(self, stack_id: str, run: bool = True) -> None:
        stack = self.load(stack_id)
        empty = Template.create_empty_template(from_template=stack.t)
        converge.converge_stack(stack, empty, self.queue, action="DELETE")
        if run:
            self.queue.run_until_idle()

    # Reading what is stored

    def stack_row(self, stack_id: str) -> Stack:
        with self.database.transaction() as session:
            row = session.get(Stack, stack_id)
            assert row is not None
            return row

    def stack_row_deleted(self, stack_id: str) -> tuple[str | None, str | None]:
        """The state of a stack row, deleted or not."""
        with self.database.transaction() as session:
            row = session.get(Stack, stack_id)
            assert row is not None
            return row.action, row.status

    def resources(self, stack_id: str) -> list[Resource]:
        with self.database.transaction() as session:
            return list(
                session.scalars(
                    sa.select(Resource).where(Resource.stack_id == stack_id).order_by(Resource.id)
                )
            )

    def states(self, stack_id: str) -> dict[str, tuple[str, str]]:
        return {row.name: (row.action, row.status) for row in self.resources(stack_id)}

    def events(self, stack_id: str) -> list[tuple[str, str, str, str]]:
        with self.database.transaction() as session:
            rows = session.scalars(
                sa.select(Event).where(Event.stack_id == stack_id).order_by(Event.id)
            )
            return [
                (
                    row.resource_name,
                    row.resource_action,
                    row.resource_status,
                    row.resource_status_reason,
                )
                for row in rows
            ]

    def sync_points(self, stack_id: str) -> list[SyncPoint]:
        with self.database.transaction() as session:
            return list(session.scalars(sa.select(SyncPoint).where(SyncPoint.stack_id == stack_id)))

    def properties_data(self, row: Resource) -> Any:
        if row.rsrc_prop_data_id is None:
            return None
        with self.database.transaction() as session:
            stored = session.get(ResourcePropertiesData, row.rsrc_prop_data_id)
            return None if stored is None else stored.data

    def attribute_data(self, row: Resource) -> Any:
        if row.attr_data_id is None:
            return None
        with self.database.transaction() as session:
            stored = session.get(ResourcePropertiesData, row.attr_data_id)
            return None if stored is None else stored.data

    def decrypt(self, stored: ResourceData) -> str | None:
        return crypt.decrypt(stored.decrypt_method, stored.value, self.settings.auth_encryption_key)

    def template_ids(self) -> list[int]:
        with self.database.transaction() as session:
            return list(session.scalars(sa.select(RawTemplate.id).order_by(RawTemplate.id)))

    def resource_data(self, resource_id: int) -> list[ResourceData]:
        with self.database.transaction() as session:
            return list(
                session.scalars(
                    sa.select(ResourceData).where(ResourceData.resource_id == resource_id)
                )
            )


def make_engine(database: Database, **settings_values: Any) -> Engine:
    settings = EngineSettings(engine_id=ENGINE_ID, host="test-host", **settings_values)
    queue = LocalQueue()
    worker = Worker(database, settings, queue)
    queue.handler = worker.handle
    return Engine(database, settings, queue)
