"""The stack as a convergence step needs it: rows in, template resolved, state written back.

This is the slice of Heat's ``parser.Stack`` that ``converge_stack`` and
``check_resource`` use: load a stack row with one of its templates, build the resources
of that template with the node data of their predecessors, the template's dependency
graph, and the state changes that compare-and-swap on the traversal. The full runtime
Stack (outputs, nested stacks, notifications, API formatting) belongs to
``keel_app.engine.stack``; this module stays the engine's convergence view of it.
"""

from __future__ import annotations

import datetime
import logging
import threading
import time
import weakref
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.clients import engine_clients
from keel_app.common.identifier import HeatIdentifier
from keel_app.engine import notification
from keel_app.engine.convergence.bounded_cache import BoundedCache
from keel_app.engine.graph import Dependencies, Graph, Node
from keel_app.engine.resource import Resource
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack import template_store
from keel_app.engine.template import TemplateLimits, stack_definition
from keel_app.engine.template.base import Template
from keel_app.models.api import events, stacks
from keel_app.models.base import utcnow
from keel_app.models.database import Database
from keel_app.models.resource import Resource as ResourceRow
from keel_app.models.stack import Stack as StackRow

LOG = logging.getLogger(__name__)

STACK_RESOURCE_TYPE = "OS::Heat::Stack"


class AdminScope:
    """The engine writes rows of any project: its checks were made at the API."""

    is_admin = True
    project_id = None


ADMIN = AdminScope()
_UNREAD = object()


_TEMPLATES_PER_DATABASE = 16
# Templates are weighed by their resources (and files): a database's cache keeps a few
# large templates or many small ones. An update's steps use two versions (the new one,
# and the old one for what it deletes): room for those of two 10,000-resource stacks.
TEMPLATE_RESOURCES_CACHED = 40000
# A version no step of this process has used for this long belongs to a finished
# traversal, most often one another process saw end; one still in use is read again.
CACHED_TEMPLATE_IDLE_SECONDS = 60.0
_templates: weakref.WeakKeyDictionary[Database, BoundedCache[Template]] = (
    weakref.WeakKeyDictionary()
)
_templates_lock = threading.Lock()


def load_template(database: Database, template_id: int, settings: EngineSettings) -> Template:
    """A stored template version, hidden parameters decrypted as the stack layer stores them.

    Steps share the versions they load: a raw_template row is never changed once
    written, and every step of a traversal reads the same one, which for a large stack
    costs more to load and parse than the rest of the step. Steps only read templates.
    """
    with _templates_lock:
        cache = _templates.get(database)
        if cache is None:
            cache = _templates[database] = BoundedCache(
                _TEMPLATES_PER_DATABASE,
                capacity=TEMPLATE_RESOURCES_CACHED,
                weigh=_template_weight,
                max_idle=CACHED_TEMPLATE_IDLE_SECONDS,
            )
    return cache.get_or_build(
        (template_id, settings.auth_encryption_key),
        lambda: template_store.load_template(
            database,
            template_id,
            limits=settings.template_limits,
            encryption_key=settings.auth_encryption_key,
        ),
    )


def _template_weight(template: Template) -> int:
    document = template.t if isinstance(template.t, Mapping) else {}
    resources = document.get("resources") or document.get("Resources") or {}
    return 1 + (len(resources) if isinstance(resources, Mapping) else 0) + len(template.files or {})


def forget_template(database: Database, template_id: int | None) -> None:
    """Drop a template version from the cache: it was deleted, or its stack was."""
    with _templates_lock:
        cache = _templates.get(database)
    if cache is not None and template_id is not None:
        cache.discard(lambda key: key[0] == template_id)  # type: ignore[index]


def store_template(database: Database, template: Template, settings: EngineSettings) -> int:
    """A new raw_template row (and files row) for ``template``, as the stack layer writes it."""
    return template_store.store_template(
        database,
        template,
        settings.encrypt_parameters_and_properties,
        settings.auth_encryption_key,
    )


def _current_deps_read(row: Any) -> Any:
    """The row's ``current_deps``, or _UNREAD when it was left out of the read."""
    if isinstance(row, StackRow):
        return _UNREAD if "current_deps" in sa.inspect(row).unloaded else row.current_deps
    return getattr(row, "current_deps", _UNREAD)


class _EdgesByName:
    """What ``Resource.add_dependencies`` adds (resource, resource) edges to, kept as
    edges between the resources' names; ``graph()`` reads them back by resource, as a
    type reads Heat's graph (what a floating IP's ports already require)."""

    def __init__(self, names: Dependencies, resources: Mapping[str, Any]) -> None:
        self.names = names
        self.resources = resources

    def __iadd__(self, edge: tuple[Any, Any]) -> _EdgesByName:
        requirer, required = edge
        self.names += (
            getattr(requirer, "name", requirer),
            None if required is None else getattr(required, "name", required),
        )
        return self

    def graph(self) -> Graph:
        by_resource = Graph()
        for name, node in self.names.graph().items():
            if name in self.resources:
                by_resource[self.resources[name]] = Node(
                    {self.resources[key] for key in node if key in self.resources}
                )
        return by_resource


# What starting a traversal reads of the stack's resource rows (``resource_rows``).
_TRAVERSAL_COLUMNS = (
    ResourceRow.id,
    ResourceRow.name,
    ResourceRow.action,
    ResourceRow.status,
    ResourceRow.physical_resource_id,
    ResourceRow.requires,
    ResourceRow.replaces,
    ResourceRow.replaced_by,
    ResourceRow.current_template_id,
    ResourceRow.created_at,
    ResourceRow.updated_at,
)


class ConvergenceStack:
    """One stack row and the template a step works with."""

    ACTIONS = stack_definition.ACTIONS
    (INIT, CREATE, DELETE, UPDATE, ROLLBACK, SUSPEND, RESUME, ADOPT, SNAPSHOT, CHECK) = ACTIONS
    STATUSES = stack_definition.STATUSES
    IN_PROGRESS, FAILED, COMPLETE = STATUSES

    def __init__(
        self,
        context: Any,
        database: Database,
        settings: EngineSettings,
        row: Any,
        template: Template,
        resource_data: Mapping[str, Any] | None = None,
    ) -> None:
        # Resources reach Keystone (their stack-domain users) through the context.
        engine_clients.attach(context, settings)
        self.context = context
        self.database = database
        self.settings = settings
        self.id = row.id
        self.name = row.name
        self.tenant_id = row.tenant
        self.owner_id = row.owner_id
        self.action = row.action
        self.status = row.status
        self.status_reason = row.status_reason
        self.current_traversal = row.current_traversal
        # Read on first use when the row came without it (see ``load``).
        self._current_deps: Any = _current_deps_read(row)
        self.disable_rollback = row.disable_rollback
        self.prev_raw_template_id = row.prev_raw_template_id
        self.raw_template_id = row.raw_template_id
        self.timeout_mins = row.timeout
        self.created_time = row.created_at
        self.updated_time = row.updated_at
        self.user_creds_id = row.user_creds_id
        self.stack_user_project_id = row.stack_user_project_id
        self.parent_resource_name = row.parent_resource_name
        self.nested_depth = row.nested_depth or 0
        self.convergence = True
        self.in_convergence_check = True
        self.strict_validate = True
        self.adopt_stack_data = None
        self.converge = False
        # An abandon's DELETE traversal: its cleanups keep the resources alive.
        self.abandon = False
        self.defn = stack_definition.StackDefinition(
            context, template, self.identifier(), resource_data or {}
        )
        self._resources: dict[str, Any] | None = None
        # The transport's clock: plugins that wait compare against it.
        self.clock: Any = time.time
        self._dispatcher: Any = None
        self._root_stack_id: str | None = None

    @classmethod
    def load(
        cls,
        context: Any,
        database: Database,
        settings: EngineSettings,
        stack_id: str,
        template_id: int | None = None,
        resource_data: Mapping[str, Any] | None = None,
        row: Any = None,
    ) -> ConvergenceStack | None:
        """The stack as a step sees it; ``row``, when the step has read it already, is the
        stack row as ``stacks.get_stack`` reads it ``for_step``."""
        if row is None:
            row = stacks.get_stack(database, ADMIN, stack_id, for_step=True)
        if row is None:
            return None
        template = load_template(database, template_id or row.raw_template_id, settings)
        return cls(context, database, settings, row, template, resource_data)

    @property
    def current_deps(self) -> Any:
        if self._current_deps is _UNREAD:
            self._current_deps = stacks.get_current_deps(self.database, self.id)
        return self._current_deps

    @current_deps.setter
    def current_deps(self, value: Any) -> None:
        self._current_deps = value

    # What resources and functions read

    @property
    def t(self) -> Template:
        return self.defn.t

    @property
    def env(self) -> Any:
        return self.defn.env

    @property
    def parameters(self) -> Any:
        return self.defn.parameters

    def identifier(self) -> HeatIdentifier:
        return HeatIdentifier(self.tenant_id or "", self.name or "", self.id)

    def now(self) -> float:
        return float(self.clock())

    def time_elapsed(self) -> float:
        """Seconds since the operation started, on the transport's clock."""
        started = self.updated_time or self.created_time
        if started is None:
            return 0.0
        epoch = started.replace(tzinfo=datetime.UTC).timestamp()
        return self.now() - epoch

    def has_timed_out(self) -> bool:
        if self.status == self.IN_PROGRESS:
            return self.time_elapsed() > self.timeout_secs()
        return False

    @property
    def dispatcher(self) -> Any:
        """The transport the stack's steps run on: what they start elsewhere (a nested
        stack's traversal) is sent through it. The worker sets it on every stack it loads."""
        return self._dispatcher

    @dispatcher.setter
    def dispatcher(self, dispatcher: Any) -> None:
        self._dispatcher = dispatcher

    @property
    def limits(self) -> TemplateLimits:
        return self.settings.template_limits

    def root_stack_id(self) -> str:
        """The id of the top stack above this one: a nested stack's resources count there."""
        if self._root_stack_id is None:
            root_id, owner_id = self.id, self.owner_id
            with self.database.transaction() as session:
                while owner_id:
                    root_id = owner_id
                    owner = session.get(StackRow, owner_id)
                    owner_id = owner.owner_id if owner is not None else None
            self._root_stack_id = root_id
        return self._root_stack_id

    def timeout_secs(self) -> int:
        if self.timeout_mins is None:
            return self.settings.stack_action_timeout
        return self.timeout_mins * 60

    @property
    def resources(self) -> dict[str, Any]:
        if self._resources is None:
            self._resources = {
                name: Resource(name, self.defn.resource_definition(name), self)
                for name in sorted(self.defn.enabled_rsrc_names())
            }
        return self._resources

    def __contains__(self, name: object) -> bool:
        return name in self.defn.enabled_rsrc_names()

    def __getitem__(self, name: str) -> Any:
        return self.resources[name]

    def dependencies(self) -> Dependencies:
        """The graph of resource names: the template's edges, then those the types imply
        (``add_dependencies``: a port waits for the subnets of its network...)."""
        graph = Dependencies()
        for resource in self.resources.values():
            for required in resource.t.dependencies(self):
                graph += resource.name, required.name
            graph += resource.name, None
        by_name = _EdgesByName(graph, self.resources)
        for resource in self.resources.values():
            try:
                resource.add_dependencies(by_name)
            except Exception as error:
                # Properties not valid yet cannot say what they imply: as in Heat, the
                # template's own edges stand and validation reports the error.
                LOG.warning(
                    "Ignoring error adding implicit dependencies for %s: %s", resource, error
                )
        return graph

    def supports_check_action(self) -> bool:
        """Whether every resource has a check of its own; a nested stack's resource
        answers for the resources of its child stack, at any depth."""
        rows = {row.name: row for row in self.resource_rows().values()}
        for name, resource in self.resources.items():
            row = rows.get(name)
            child = None
            if callable(getattr(resource, "nested_identifier", None)):
                child_id = row.physical_resource_id if row is not None else None
                if child_id:
                    child = ConvergenceStack.load(
                        self.context, self.database, self.settings, child_id
                    )
            if child is not None:
                if not child.supports_check_action():
                    return False
            elif not callable(getattr(resource, "handle_check", None)):
                return False
        return True

    def __str__(self) -> str:
        return f'Stack "{self.name}" [{self.id}]'

    # Writes

    def store(self, values: Mapping[str, Any], expected_traversal: str | None) -> bool:
        return stacks.update_stack(self.database, ADMIN, self.id, values, expected_traversal)

    def state_set(self, action: str, status: str, reason: str) -> bool:
        """Write the state if this traversal is still current; add the stack's event."""
        if not self.store(
            {"action": action, "status": status, "status_reason": reason},
            self.current_traversal,
        ):
            LOG.info(
                "Cannot update the state of stack %s: traversal %s is no longer current",
                self.name,
                self.current_traversal,
            )
            return False
        self.action, self.status, self.status_reason = action, status, reason
        self.add_event(action, status, reason)
        return True

    def add_event(self, action: str, status: str, reason: str) -> None:
        # Heat notifies each recorded stack state beside its event.
        notification.send_stack_state(self)
        events.create_event(
            self.database,
            {
                "stack_id": self.id,
                "resource_action": action,
                "resource_status": status,
                "resource_name": self.name,
                "physical_resource_id": self.id,
                "resource_status_reason": reason,
                "resource_type": STACK_RESOURCE_TYPE,
                "resource_properties": None,
                "created_at": utcnow(),
            },
            self.settings.max_events_per_stack,
            self.settings.event_purge_batch_size,
        )

    def resource_rows(self) -> dict[int, sa.Row[Any]]:
        """Every resource row of the stack, by id (Heat's ``db_active_resources_get``), with
        the columns a traversal starts from: plain rows, a tenth of the memory of mapped
        objects, which for a large stack is megabytes at the request's peak."""
        with self.database.transaction() as session:
            rows = session.execute(
                sa.select(*_TRAVERSAL_COLUMNS).where(ResourceRow.stack_id == self.id)
            )
            return {row.id: row for row in rows}

    def release_resources(self) -> None:
        """Let the resources and definitions parsed so far go; they are parsed again if
        asked for (the resource data known stays)."""
        self._resources = None
        self.defn = self.defn.clone_with_new_template(self.t, self.identifier())
