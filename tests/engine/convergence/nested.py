"""What the nested stack scenarios share: stacks created, updated and deleted through the
service on a LocalQueue run by the convergence worker, and readers of the stored rows
of a stack and of the stacks below it."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa

from keel_app.common import crypt
from keel_app.common.context import RequestContext
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.service import stack_update
from keel_app.engine.service import stacks as service
from keel_app.engine.settings import EngineSettings
from keel_app.models import Event, RawTemplate, ResourceData
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow
from keel_app.models.database import Database
from tests.engine.resource.keel_side import token
from tests.models.api.factories import migrated_database

PROJECT = "project-a"


def make_context(**values: Any) -> RequestContext:
    """A member of the project, with a token whose catalog has the orchestration service."""
    values.setdefault("auth_token_info", token(["identity", "orchestration"], "RegionOne"))
    return RequestContext(
        user_id="user-1",
        username="alice",
        project_id=PROJECT,
        project_name="demo",
        roles=["member"],
        is_admin=False,
        **values,
    )


@dataclasses.dataclass
class NestedEngine:
    database: Database
    settings: EngineSettings
    context: RequestContext
    queue: LocalQueue

    # Operations, each run to its end

    def create(
        self,
        template: dict[str, Any],
        name: str = "web",
        environment: dict[str, Any] | None = None,
        files: dict[str, Any] | None = None,
        run: bool = True,
        **args: Any,
    ) -> dict[str, str]:
        identity = service.create_stack(
            self.context,
            self.settings,
            self.database,
            self.queue,
            stack_name=name,
            template=json.loads(json.dumps(template)),
            params=dict(environment or {}),
            files=dict(files or {}),
            args=args,
        )
        if run:
            self.queue.run_until_idle()
        return identity

    def update(
        self,
        identity: dict[str, str],
        template: dict[str, Any],
        environment: dict[str, Any] | None = None,
        files: dict[str, Any] | None = None,
        **args: Any,
    ) -> None:
        stack_update.update_stack(
            self.context,
            self.settings,
            self.database,
            self.queue,
            stack_identity=identity,
            template=json.loads(json.dumps(template)),
            params=dict(environment or {}),
            files=dict(files or {}),
            args=args,
        )
        self.queue.run_until_idle()

    def delete(self, identity: dict[str, str]) -> None:
        service.delete_stack(
            self.context, self.settings, self.database, self.queue, stack_identity=identity
        )
        self.queue.run_until_idle()

    # Reading what is stored

    def outputs(self, identity: dict[str, str]) -> dict[str, Any]:
        """The stack's outputs by key: the value, or the error of one that failed."""
        (shown,) = service.show_stack(
            self.context, self.settings, self.database, self.queue, stack_identity=identity
        )
        return {
            output["output_key"]: output.get("output_error", output.get("output_value"))
            for output in shown["outputs"]
        }

    def stack(self, stack_id: str) -> StackRow:
        with self.database.transaction() as session:
            row = session.get(StackRow, stack_id)
            assert row is not None
            return row

    def stack_names(self) -> list[str]:
        """Every stored stack's name, deleted ones too, oldest first."""
        with self.database.transaction() as session:
            statement = sa.select(StackRow.name).order_by(StackRow.created_at, StackRow.name)
            return [str(name) for name in session.scalars(statement)]

    def children(self, stack_id: str) -> list[StackRow]:
        """The stacks a stack owns (deleted ones too), oldest first."""
        with self.database.transaction() as session:
            return list(
                session.scalars(
                    sa.select(StackRow)
                    .where(StackRow.owner_id == stack_id)
                    .order_by(StackRow.created_at, StackRow.name)
                )
            )

    def child(self, stack_id: str) -> StackRow:
        (row,) = self.children(stack_id)
        return row

    def resources(self, stack_id: str) -> dict[str, ResourceRow]:
        with self.database.transaction() as session:
            rows = session.scalars(
                sa.select(ResourceRow)
                .where(ResourceRow.stack_id == stack_id)
                .order_by(ResourceRow.id)
            )
            return {row.name: row for row in rows}

    def states(self, stack_id: str) -> dict[str, tuple[str, str]]:
        return {name: (row.action, row.status) for name, row in self.resources(stack_id).items()}

    def events(self, stack_id: str) -> list[tuple[str, str, str]]:
        with self.database.transaction() as session:
            rows = session.scalars(
                sa.select(Event).where(Event.stack_id == stack_id).order_by(Event.id)
            )
            return [(row.resource_name, row.resource_action, row.resource_status) for row in rows]

    def environment(self, stack_id: str) -> dict[str, Any]:
        """The environment stored with the stack's template."""
        with self.database.transaction() as session:
            template = session.get(RawTemplate, self.stack(stack_id).raw_template_id)
            assert template is not None
            return dict(template.environment)

    def reasons(self, stack_id: str, name: str) -> list[str]:
        """The status reasons of the events of one resource (or of the stack itself)."""
        with self.database.transaction() as session:
            statement = (
                sa.select(Event.resource_status_reason)
                .where(Event.stack_id == stack_id, Event.resource_name == name)
                .order_by(Event.id)
            )
            return [str(reason) for reason in session.scalars(statement)]

    def resource_data(self, resource_id: int) -> dict[str, str]:
        with self.database.transaction() as session:
            rows = session.scalars(
                sa.select(ResourceData).where(ResourceData.resource_id == resource_id)
            )
            key = self.settings.auth_encryption_key
            return {
                row.key: (
                    crypt.decrypt(row.decrypt_method, row.value, key) if row.redact else row.value
                )
                for row in rows
            }


def nested_engine(database_url: str, **settings: Any) -> Iterator[NestedEngine]:
    """A migrated database on ``database_url`` and an engine working on it."""
    database = migrated_database(database_url)
    engine_settings = EngineSettings(host="engine-host", engine_id="engine-1", **settings)
    queue = LocalQueue()
    queue.handler = Worker(database, engine_settings, queue).handle
    yield NestedEngine(database, engine_settings, make_context(), queue)
    database.dispose()
