"""The runtime stack: Heat's ``parser.Stack`` as far as storing, loading and showing go.

A ``Stack`` is built from a template (its environment holds the parameters) and is
stored as a ``stack`` row plus its ``raw_template``; ``Stack.load`` rebuilds it from the
rows, with each resource's state read from its ``resource`` row. The template-level
behaviour (resources from definitions, dependencies, validation, outputs) is the
validation stack's; this class adds identity, persistence and state.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from keel_app.clients import engine_clients, keystone_credentials
from keel_app.common import exception
from keel_app.engine import notification
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack import events
from keel_app.engine.stack.template_store import load_template, store_template
from keel_app.engine.template import stack_definition
from keel_app.engine.validate.stack import ValidationStack
from keel_app.models import RawTemplate, RawTemplateFiles, StackTag
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow
from keel_app.models.api import stacks as stack_rows
from keel_app.models.api import user_creds
from keel_app.models.database import Database

# Resource row columns copied onto a resource object when a stack is loaded.
_RESOURCE_STATE_COLUMNS = {
    "id": "id",
    "uuid": "uuid",
    "action": "action",
    "status": "status",
    "status_reason": "status_reason",
    "resource_id": "physical_resource_id",
    "created_time": "created_at",
    "updated_time": "updated_at",
    "requires": "requires",
    "needed_by": "needed_by",
    "replaces": "replaces",
    "replaced_by": "replaced_by",
    "current_template_id": "current_template_id",
    "atomic_key": "atomic_key",
    "engine_id": "engine_id",
    "stored_metadata": "rsrc_metadata",
}


class Stack(ValidationStack):
    """A stored (or about to be stored) stack."""

    def __init__(
        self,
        context: Any,
        stack_name: str,
        tmpl: Any,
        *,
        database: Database,
        settings: EngineSettings,
        tags: list[str] | None = None,
        convergence: bool = True,
        current_traversal: str | None = None,
        current_deps: Any = None,
        prev_raw_template_id: int | None = None,
        created_time: datetime.datetime | None = None,
        updated_time: datetime.datetime | None = None,
        deleted_time: datetime.datetime | None = None,
        converge: bool = False,
        **options: Any,
    ) -> None:
        options.setdefault("strict_validate", True)
        # Resources reach Keystone (their stack-domain users) through the context.
        engine_clients.attach(context, settings)
        super().__init__(context, stack_name, tmpl, **options)
        self.database = database
        self.settings = settings
        # Whether an update compares with the resources' observed reality.
        self.converge = converge
        # Heat shows a stack without tags as having an empty list of them.
        self.tags = list(tags) if tags else []
        self.convergence = convergence
        self.current_traversal = current_traversal
        self.current_deps = current_deps
        self.prev_raw_template_id = prev_raw_template_id
        self.created_time = created_time
        self.updated_time = updated_time
        self.deleted_time = deleted_time
        self._resource_rows: dict[str, ResourceRow] | None = None
        # Called with the stack on every state change: the edges send Heat's
        # orchestration.stack.* notification from it.
        self.notifier: Callable[[Stack], None] | None = None

    # Identity

    def timeout_secs(self) -> int:
        if self.timeout_mins is None:
            return self.settings.stack_action_timeout
        return self.timeout_mins * 60

    def root_stack_id(self) -> Any:
        """The id of the top stack above this one (its own id when it has no parent)."""
        if not self.owner_id:
            return self.id
        owner_id = self.owner_id
        with self.database.transaction() as session:
            while True:
                parent = session.get(StackRow, owner_id)
                if parent is None or not parent.owner_id:
                    return owner_id
                owner_id = parent.owner_id

    def _set_identifier(self) -> None:
        # The pseudo parameters (AWS::StackId, OS::stack_id) carry the stored id.
        self.defn = stack_definition.StackDefinition(self.context, self.t, self.identifier(), {})
        self._resources = None
        self._dependencies = None

    # Storage

    def store(self) -> str:
        """Insert the stack (template, credentials and tags first) or write its row.

        When the insert is refused (a live stack has the name), the template and
        credentials stored for it are deleted again, where Heat leaves them behind.
        """
        new_template = self.t.id is None
        store_template(
            self.database,
            self.t,
            self.settings.encrypt_parameters_and_properties,
            self.settings.auth_encryption_key,
        )
        if self.id is not None:
            stack_rows.update_stack(self.database, _Admin(), self.id, self._row_values())
            return str(self.id)
        new_creds = self.user_creds_id is None and self.owner_id is None
        if new_creds:
            # With Keystone and trusts, a context holding a new trust of the owner's.
            owner = keystone_credentials.context_to_store(self.settings.keystone, self.context)
            context = owner.to_dict() if hasattr(owner, "to_dict") else {}
            stored = user_creds.create_user_creds(
                self.database, context, self.settings.auth_encryption_key
            )
            self.user_creds_id = stored["id"]
        try:
            row = stack_rows.create_stack(self.database, self._row_values())
        except exception.StackExists:
            self._forget_stored(new_template, new_creds)
            raise
        self.id = row.id
        # As the database keeps it (MySQL drops the fraction of a second).
        stored = stack_rows.get_stack(self.database, _Admin(), row.id)
        self.created_time = stored.created_at if stored is not None else row.created_at
        if self.tags:
            with self.database.transaction() as session:
                session.add_all(StackTag(tag=tag, stack_id=row.id) for tag in self.tags)
        self._set_identifier()
        return str(self.id)

    def _forget_stored(self, template: bool, creds: bool) -> None:
        if creds and self.user_creds_id is not None:
            user_creds.delete_user_creds(self.database, self.user_creds_id)
            self.user_creds_id = None
        if template and self.t.id is not None:
            with self.database.transaction() as session:
                row = session.get(RawTemplate, self.t.id)
                if row is not None:
                    files_id = row.files_id
                    session.delete(row)
                    session.flush()
                    if files_id is not None:
                        session.execute(
                            sa.delete(RawTemplateFiles).where(RawTemplateFiles.id == files_id)
                        )
            self.t.id = None

    def _row_values(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "raw_template_id": self.t.id,
            "owner_id": self.owner_id,
            "username": self.username,
            "tenant": self.tenant_id,
            "action": self.action,
            "status": self.status,
            "status_reason": str(self.status_reason),
            "timeout": self.timeout_mins,
            "disable_rollback": self.disable_rollback,
            "stack_user_project_id": self.stack_user_project_id,
            "updated_at": self.updated_time,
            "user_creds_id": self.user_creds_id,
            "backup": False,
            "prev_raw_template_id": self.prev_raw_template_id,
            "current_traversal": self.current_traversal,
            "convergence": self.convergence,
            "current_deps": self.current_deps,
            "parent_resource_name": self.parent_resource_name,
            "nested_depth": self.nested_depth,
        }

    @classmethod
    def load(
        cls,
        context: Any,
        database: Database,
        settings: EngineSettings,
        stack_id: str | None = None,
        row: StackRow | None = None,
        show_deleted: bool = False,
        global_environment: Any = None,
    ) -> Stack:
        """The stack of ``row`` (or of ``stack_id``, as seen by ``context``)."""
        if row is None:
            row = stack_rows.get_stack(database, context, str(stack_id), show_deleted)
            if row is None:
                raise exception.NotFound(f"No stack exists with id {stack_id!r}")
        template = load_template(
            database,
            row.raw_template_id,
            settings.template_limits,
            global_environment,
            settings.auth_encryption_key,
        )
        with database.transaction() as session:
            tags = session.scalars(
                sa.select(StackTag.tag).where(StackTag.stack_id == row.id).order_by(StackTag.id)
            ).all()
        stack = cls(
            context,
            str(row.name),
            template,
            database=database,
            settings=settings,
            stack_id=row.id,
            action=row.action,
            status=row.status,
            status_reason=row.status_reason or "",
            timeout_mins=row.timeout,
            disable_rollback=row.disable_rollback,
            parent_resource=row.parent_resource_name,
            owner_id=row.owner_id,
            stack_user_project_id=row.stack_user_project_id,
            user_creds_id=row.user_creds_id,
            tenant_id=row.tenant,
            username=row.username,
            nested_depth=row.nested_depth or 0,
            strict_validate=False,
            tags=list(tags),
            convergence=bool(row.convergence),
            current_traversal=row.current_traversal,
            current_deps=row.current_deps,
            prev_raw_template_id=row.prev_raw_template_id,
            created_time=row.created_at,
            updated_time=row.updated_at,
            deleted_time=row.deleted_at,
        )
        return stack

    # Resources, with their stored state

    def db_resources(self) -> dict[str, ResourceRow]:
        """The stack's resource rows by name; of replaced ones, the newest row."""
        if self._resource_rows is None:
            with self.database.transaction() as session:
                rows = session.scalars(
                    sa.select(ResourceRow)
                    .where(ResourceRow.stack_id == self.id)
                    .order_by(ResourceRow.id)
                ).all()
            self._resource_rows = {str(row.name): row for row in rows}
        return self._resource_rows

    def db_resource_get(self, name: str) -> ResourceRow | None:
        if self.id is None:
            return None
        return self.db_resources().get(name)

    @property
    def resources(self) -> dict[str, Any]:
        fresh = self._resources is None
        resources = super().resources
        if fresh and self.id is not None:
            for name, resource in resources.items():
                row = self.db_resource_get(name)
                if row is not None:
                    _load_resource_state(resource, row)
        return resources

    def total_resources(self, stack_id: Any = None) -> int:
        return len(self.db_resources()) if self.id is not None else 0

    def resolve_outputs_data(self) -> None:
        """Give the outputs what they read of each resource in its current state.

        A convergence stack's resources resolve their own properties from what they
        read of the others, so those values are gathered too (dependencies first).
        """
        self._update_all_resource_data(for_resources=self.convergence, for_outputs=True)

    def preview_resources(self) -> list[Any]:
        """What a preview shows of each resource: itself, or what a nested stack holds."""
        return [_preview(resource) for resource in self.resources.values()]

    def prepare_abandon(self, no_resources: bool = False) -> dict[str, Any]:
        """The stack as an export (or an abandon) hands it over, for a later adopt."""
        return {
            "name": self.name,
            "id": self.id,
            "action": self.action,
            "environment": self.env.user_env_as_dict(),
            "files": dict(self.t.files),
            "status": self.status,
            "template": self.t.t,
            "resources": {}
            if no_resources
            else {name: _abandon_data(resource) for name, resource in self.resources.items()},
            "project_id": self.tenant_id,
            "stack_user_project_id": self.stack_user_project_id,
            "tags": self.tags,
        }

    # State

    @property
    def state(self) -> tuple[str, str]:
        return self.action, self.status

    def state_set(self, action: str, status: str, reason: str) -> bool | None:
        """Record a new state: its event and notification, then the row.

        A convergence stack's row is written only while its traversal is current:
        False means another traversal took over (the event is stored all the same,
        as in Heat). None when the stack has no row.
        """
        if action not in self.ACTIONS:
            raise ValueError(f"Invalid action {action}")
        if status not in self.STATUSES:
            raise ValueError(f"Invalid status {status}")
        self.action, self.status, self.status_reason = action, status, reason
        if self.id is None:
            return None
        if self.notifier is not None:
            self.notifier(self)
        notification.send_stack_state(self)
        events.add_stack_event(self, action, status, reason)
        values = {"action": action, "status": status, "status_reason": str(reason)}
        expected = self.current_traversal if self.convergence else None
        return stack_rows.update_stack(self.database, _Admin(), self.id, values, expected)

    def mark_complete(self) -> None:
        self.state_set(self.action, self.COMPLETE, f"Stack {self.action} completed successfully")

    def mark_failed(self, reason: str) -> None:
        self.state_set(self.action, self.FAILED, reason)


def _preview(resource: Any) -> Any:
    preview = getattr(resource, "preview", None)
    return preview() if callable(preview) else resource


def _abandon_data(resource: Any) -> Any:
    """One resource of ``prepare_abandon``: a type may say what it hands over (a nested
    stack hands over its own stack)."""
    own = getattr(resource, "prepare_abandon", None)
    if callable(own):
        return own()
    if resource.id is None or resource.action == resource.INIT:
        metadata = resource.t.metadata()
    else:
        metadata = getattr(resource, "stored_metadata", None)
    return {
        "name": resource.name,
        "resource_id": resource.resource_id,
        "type": resource.type(),
        "action": resource.action,
        "status": resource.status,
        "metadata": metadata,
        "resource_data": resource.data(),
    }


def _load_resource_state(resource: Any, row: ResourceRow) -> None:
    """Give a resource its row's state: through the life cycle's ``load_row`` (which
    also reads the cached attributes), plus what only listings show."""
    load_row = getattr(resource, "load_row", None)
    if load_row is not None:
        load_row(row)
        resource.needed_by = row.needed_by
        resource.engine_id = row.engine_id
        resource.stored_metadata = row.rsrc_metadata
        return
    for attribute, column in _RESOURCE_STATE_COLUMNS.items():
        setattr(resource, attribute, getattr(row, column))


class _Admin:
    """The engine's own scope for rows it already holds: no project filter."""

    is_admin = True
    project_id = None
