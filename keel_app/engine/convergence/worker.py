"""``check_resource``: one step of one graph node, then what follows from it.

The step loads the resource with the node data its predecessors sent, checks that its
traversal is still the stack's (a stale one stops quietly), runs the resource's part
(create, update or cleanup) and, once that is done, merges its node data into the sync
point of every node that needs it; a node whose inputs are all in is sent on, and the
roots report to the stack's own sync point, which completes the stack.

A resource step that is still waiting (``check_*_complete`` said "not yet") is sent again
with a countdown. The message then carries, beside Heat's ``input_data``, our
``keel_progress``: the action, the handler's token and the lock (engine id, atomic key)
the step holds, so that any worker can continue it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from keel_app.common import exception, metrics
from keel_app.engine.convergence import (
    converge,
    create_retry,
    snapshot_steps,
    stack_completion,
    sync_point,
)
from keel_app.engine.convergence.create_retry import RESTART_KEY, RETRY_KEY
from keel_app.engine.convergence.node_data import NodeData, load_resources_data
from keel_app.engine.convergence.poll_cadence import POLL_INTERVAL, next_poll
from keel_app.engine.convergence.runtime import ADMIN, ConvergenceStack, load_template
from keel_app.engine.convergence.traversal_graph import (
    NODE_TYPE_RESOURCE,
    NODE_TYPE_SNAPSHOT,
    ConvergenceNode,
    traversal_graph,
)
from keel_app.engine.dispatch import (
    CANCEL_CHECK_RESOURCE,
    CHECK_RESOURCE,
    CHECK_RESOURCE_DELETE_SNAPSHOT,
    AfterCommit,
    Dispatcher,
    Message,
)
from keel_app.engine.resource import Resource, operations
from keel_app.engine.resource.lifecycle import LOCK_RELEASE
from keel_app.engine.settings import EngineSettings
from keel_app.models.api import resources, stacks
from keel_app.models.database import Database, is_retriable
from keel_app.models.resource import Resource as ResourceRow

LOG = logging.getLogger(__name__)

PROGRESS_KEY = "keel_progress"
# In ``keel_progress``: the hook (Heat's breakpoint) a step waits at, until a signal clears it.
HOOK_KEY = "hook"
# In ``keel_progress``: when the action waited on began, on the dispatcher's clock.
STARTED_KEY = "started"
POST_HOOKS = {"CREATE": "post-create", "UPDATE": "post-update", "DELETE": "post-delete"}
# Tries of a step in one transaction that deadlocked before it runs transaction by transaction.
UNIT_ATTEMPTS = 3


class Worker:
    """What a check_resource step runs with: the database, settings and the way out."""

    def __init__(self, database: Database, settings: EngineSettings, dispatcher: Dispatcher):
        self.database = database
        self.settings = settings
        # What a step sends leaves after the commit of its unit of work.
        self.dispatcher: Any = AfterCommit(dispatcher, database)

    @property
    def engine_id(self) -> str:
        return self.settings.engine_id

    def handle(self, message: Message) -> None:
        """Run a message of the worker topic (the LocalQueue's handler)."""
        if message.method == CHECK_RESOURCE:
            self.check_resource(message.context, **message.arguments)
        elif message.method == CHECK_RESOURCE_DELETE_SNAPSHOT:
            self.check_resource_delete_snapshot(message.context, **message.arguments)
        elif message.method == CANCEL_CHECK_RESOURCE:
            if message.engine_id == self.engine_id:
                self.cancel_check_resource(message.context, **message.arguments)
        else:
            LOG.warning("No handler for %s", message.method)

    def check_resource_delete_snapshot(
        self,
        context: Any,
        snapshot_id: str,
        resource_name: str,
        start_time: str | None = None,
        is_stack_delete: bool = False,
        current_traversal: str | None = None,
    ) -> None:
        """One resource's part of deleting a snapshot (``snapshot_steps``)."""
        snapshot_steps.check_resource_delete_snapshot(
            self,
            context,
            snapshot_id,
            resource_name,
            start_time=start_time,
            is_stack_delete=is_stack_delete,
            current_traversal=current_traversal,
        )

    def report_to_stack(
        self,
        stack: ConvergenceStack,
        current_traversal: str,
        sender: ConvergenceNode,
        roots: frozenset[Any],
    ) -> None:
        """A root of the traversal that is done reports to the stack's sync point."""
        self._check_stack_complete(stack, current_traversal, sender, roots, {})

    # The step

    def check_resource(
        self,
        context: Any,
        resource_id: int,
        current_traversal: str,
        data: Mapping[str, Any],
        is_update: bool,
        adopt_stack_data: Any = None,
        converge: bool = False,
        skip_propagate: bool = False,
        accumulated_failures: Mapping[str, str] | None = None,
        node_type: str = NODE_TYPE_RESOURCE,
        abandon: bool = False,
    ) -> None:
        """One step, in one transaction when the resource acts locally.

        The step starts in a unit of work; a resource that reaches outside the database
        commits the unit after loading and goes on transaction by transaction. A unit
        that deadlocked is tried again; one that broke (a transaction block raised inside
        it) or met an unexpected error is rolled back whole and the step runs again
        transaction by transaction, as every step of a non-local resource does.
        """
        arguments = {
            "context": context,
            "resource_id": resource_id,
            "current_traversal": current_traversal,
            "data": data,
            "is_update": is_update,
            "adopt_stack_data": adopt_stack_data,
            "converge": converge,
            "skip_propagate": skip_propagate,
            "accumulated_failures": accumulated_failures,
            "node_type": node_type,
            "abandon": abandon,
        }
        with metrics.timed_step():
            if node_type != NODE_TYPE_SNAPSHOT and self._check_resource_in_unit(arguments):
                return
            self._check_resource(**arguments)

    def _check_resource_in_unit(self, arguments: dict[str, Any]) -> bool:
        """Run the step in one unit of work; False when it must run again unjoined."""
        for attempt in range(1, UNIT_ATTEMPTS + 1):
            unit = None
            try:
                with self.database.unit_of_work() as unit:
                    self._check_resource(**arguments)
                return True
            except Exception as error:
                if unit is None or not unit.joined:
                    raise
                if not (is_retriable(error) and attempt < UNIT_ATTEMPTS):
                    LOG.debug(
                        "Step of resource %s runs again unjoined: %r",
                        arguments["resource_id"],
                        error,
                    )
                    return False
                metrics.DATABASE_RETRIES.labels("unit_of_work").inc()
        return False

    def _check_resource(
        self,
        context: Any,
        resource_id: int,
        current_traversal: str,
        data: Mapping[str, Any],
        is_update: bool,
        adopt_stack_data: Any = None,
        converge: bool = False,
        skip_propagate: bool = False,
        accumulated_failures: Mapping[str, str] | None = None,
        node_type: str = NODE_TYPE_RESOURCE,
        abandon: bool = False,
    ) -> None:
        if node_type == NODE_TYPE_SNAPSHOT:
            snapshot_steps.delete_snapshot_node(self, context, resource_id, current_traversal)
            return
        input_data = sync_point.deserialize_input_data(data)
        # Cleanup nodes receive resource ids, not node data.
        resource_data = load_resources_data(input_data if is_update else {})
        loaded = self._load(context, resource_id, current_traversal, is_update, resource_data)
        if loaded is None:
            return
        resource, stack = loaded
        if not resource.acts_locally:
            # Its handlers reach out: each state it reaches is committed before they do.
            self.database.checkpoint()
        progress = data.get(PROGRESS_KEY)
        stale = stack.current_traversal != current_traversal
        if stale and (progress is None or HOOK_KEY in progress or RESTART_KEY in progress):
            LOG.debug("[%s] Traversal cancelled; re-triggering.", current_traversal)
            self._retrigger_replaced(stack, resource, is_update)
            return
        stack.adopt_stack_data = adopt_stack_data
        stack.converge = converge
        stack.abandon = resource.abandon_in_progress = abandon
        message = {
            "resource_id": resource_id,
            "current_traversal": current_traversal,
            "data": dict(data),
            "is_update": is_update,
            "adopt_stack_data": adopt_stack_data,
            "converge": converge,
            "accumulated_failures": accumulated_failures,
            "node_type": node_type,
            "abandon": abandon,
        }
        if stack.has_timed_out():
            self._handle_stack_timeout(stack, current_traversal, resource, progress)
            return
        try:
            if skip_propagate:
                done = True
            else:
                done = self._do_check(stack, resource, is_update, input_data, data, message)
            if not done:
                return
            if stale:
                # A step that outlived its traversal: the new one takes the resource on.
                self.retrigger_check_resource(stack, resource.id)
                return
            self._propagate(
                stack,
                current_traversal,
                resource,
                is_update,
                dict(accumulated_failures or {}),
                is_skip=skip_propagate,
            )
        except exception.ResourceFailure as failure:
            reason = f"Resource {failure.action or resource.action} failed: {failure}"
            if stack.action == stack.CHECK:
                self._check_failed(stack, current_traversal, resource, is_update, reason, message)
                return
            self._handle_resource_failure(stack, current_traversal, resource, reason)
        except Exception as error:
            LOG.exception("Unexpected exception in resource check.")
            self._handle_resource_failure(stack, current_traversal, resource, str(error))
            raise

    def _check_failed(
        self,
        stack: ConvergenceStack,
        current_traversal: str,
        resource: Any,
        is_update: bool,
        reason: str,
        message: Mapping[str, Any],
    ) -> None:
        """A check that failed does not stop the CHECK traversal (Heat's rule): the
        failure travels on with it, the resources that depend on this one are skipped,
        and the stack fails once every node has reported."""
        failures = dict(message["accumulated_failures"] or {})
        failures[resource.name] = reason
        self._propagate(stack, current_traversal, resource, is_update, failures, is_skip=True)

    def _handle_stack_timeout(
        self,
        stack: ConvergenceStack,
        current_traversal: str,
        resource: Any,
        progress: Mapping[str, Any] | None,
    ) -> None:
        if progress is not None and HOOK_KEY in progress:
            # A wait at a hook ends as in Heat: the hook goes, the resource's state stays.
            resource.abandon_hook(progress[HOOK_KEY])
        elif progress is not None:
            # The step was cut short as Heat's task runner cuts it: the resource fails.
            action = progress["action"]
            resource.adopt_engine(progress["engine_id"], progress["atomic_key"])
            task = f"Task {action.lower()} from {resource}"
            resource.state_set(
                action, resource.FAILED, f"{action} aborted ({task} Timed out)", lock=LOCK_RELEASE
            )
        self._handle_resource_failure(stack, current_traversal, resource, "Timed out")

    def _handle_resource_failure(
        self, stack: ConvergenceStack, current_traversal: str, resource: Any, reason: str
    ) -> None:
        if stack.current_traversal == current_traversal and converge.mark_failed(
            stack, reason, self.dispatcher
        ):
            return
        latest = ConvergenceStack.load(stack.context, self.database, self.settings, stack.id)
        if latest is not None and latest.current_traversal != current_traversal:
            self.retrigger_check_resource(latest, resource.id)

    def _retrigger_replaced(self, stack: ConvergenceStack, resource: Any, is_update: bool) -> None:
        nodes = _graph(stack, of_a_step=False).nodes
        if ConvergenceNode(resource.id, is_update) in nodes or resource.replaces is None:
            return
        # A replacement the new traversal does not want: deleted rows are purged at its end.
        with self.database.transaction() as session:
            row = session.get(ResourceRow, resource.id)
            if row is not None:
                row.action = "DELETE"
        self.retrigger_check_resource(stack, resource.replaces)

    def retrigger_check_resource(self, stack: ConvergenceStack, resource_id: int) -> None:
        """Report a resource to its own sync point in the current traversal, to run it again."""
        nodes = _graph(stack, of_a_step=False).nodes
        key = ConvergenceNode(resource_id, ConvergenceNode(resource_id, True) in nodes)
        LOG.info("Re-trigger resource: %s", key)
        # A node the traversal does not hold has no sync point either: Heat's lookup
        # finds it empty, and the merge below finds no sync point.
        predecessors = set(nodes.get(key, ()))
        try:
            self._sync_and_send(stack, stack.current_traversal, key, key, None, predecessors, {})
        except exception.EntityNotFound as error:
            if error.entity != "Sync Point":
                raise

    def _load(
        self,
        context: Any,
        resource_id: int,
        current_traversal: str,
        is_update: bool,
        resource_data: Mapping[str, NodeData],
    ) -> tuple[Any, ConvergenceStack] | None:
        try:
            row, stack_row = stacks.get_resource_and_stack(self.database, ADMIN, resource_id)
        except exception.NotFound:
            return None
        if stack_row is None:
            return None
        stack = ConvergenceStack.load(
            context,
            self.database,
            self.settings,
            row.stack_id,
            resource_data=resource_data,
            row=stack_row,
        )
        if stack is None:
            return None
        stack.clock = self.dispatcher.now
        stack.dispatcher = self.dispatcher
        template_id = row.current_template_id
        using_new_template = template_id is not None and template_id != stack.t.id
        will_create = (
            row.action == "INIT" and is_update and current_traversal == stack.current_traversal
        )
        if using_new_template and not will_create:
            # The resource is built as it was last made; the stack keeps the new template.
            resource_stack = ConvergenceStack(
                context,
                self.database,
                self.settings,
                stack_row,
                load_template(self.database, template_id, self.settings),  # type: ignore[arg-type]
                resource_data,
            )
            resource_stack.clock = self.dispatcher.now
            resource_stack.dispatcher = self.dispatcher
            stack._resource_owner = resource_stack  # type: ignore[attr-defined]
        else:
            resource_stack = stack
        definition = resource_stack.defn.resource_definition(row.name)
        resource = Resource(row.name, definition, resource_stack)
        resource.load_row(row)
        return resource, stack

    def _do_check(
        self,
        stack: ConvergenceStack,
        resource: Any,
        is_update: bool,
        input_data: Mapping[Any, Any],
        data: Mapping[str, Any],
        message: dict[str, Any],
    ) -> bool:
        progress = data.get(PROGRESS_KEY)
        requires: set[int] = set()
        if is_update:
            requires = {node.primary_key for node in load_resources_data(input_data).values()}
        previous_template_id = resource.current_template_id
        passed_hook = None
        try:
            if progress is not None and HOOK_KEY in progress:
                if self._still_at_hook(stack, resource, progress, message):
                    return False
                if progress[HOOK_KEY] in POST_HOOKS.values():
                    return True
                # Cleared: the step goes on from where the hook stopped it.
                passed_hook, progress = progress[HOOK_KEY], None
            if progress is not None and RESTART_KEY in progress:
                # The next attempt of a create being retried (create_retry).
                return self._attempt(
                    stack, resource, requires, message, progress[RESTART_KEY], progress[RETRY_KEY]
                )
            if progress is not None:
                if not resource.locked_as_loaded(progress["engine_id"], progress["atomic_key"]):
                    self._drop_cancelled_step(stack, resource, progress, message)
                    return False
                resource.adopt_engine(progress["engine_id"], progress["atomic_key"])
                if progress["action"] == resource.UPDATE:
                    # The handler ran with the new properties: so do its checks.
                    after = self._definition(stack, progress["template_id"], resource.name)
                    resource.properties = after.properties(
                        resource.properties_schema, resource.context
                    )
                    resource.current_template_id = progress["template_id"]
                return self._poll(stack, resource, progress, requires, message)
            if stack.action in operations.STACK_OPERATIONS:
                return self._operate(stack, resource, is_update, message)
            if not is_update:
                return self._cleanup(stack, resource, message, passed_hook)
            if resource.action == resource.INIT:
                # A resource named by external_id is taken over at once, as in Heat.
                external = resource.external_id is not None
                if not external and self._stop_at_hook(
                    stack, resource, "CREATE", "pre-create", message, passed_hook
                ):
                    return False
                resource.prepare_create(stack.t.id, requires)
                # An adopt's resources are taken over rather than made (``handle_adopt``).
                adopting = external or stack.adopt_stack_data
                if not adopting:
                    return self._attempt(stack, resource, requires, message, resource.CREATE, None)
                token = resource.start_action(resource.ADOPT, self.engine_id)
                return self._poll(
                    stack,
                    resource,
                    self._progress(stack, resource.ADOPT, token),
                    requires,
                    message,
                )
            return self._update(stack, resource, requires, input_data, message, passed_hook)
        except exception.UpdateInProgress:
            LOG.debug("Waiting for existing update to unlock resource %s", resource.id)
            retry = self._stale_resource_needs_retry(stack.context, resource, previous_template_id)
            if retry is not False and self._retrigger_unheld(stack, resource, message):
                return False
            if retry:
                self.dispatcher.send_check_resource(
                    stack.context,
                    **{**message, "data": sync_point.serialize_input_data(input_data)},
                )
            else:
                resource.handle_preempt()
            return False

    def _drop_cancelled_step(
        self,
        stack: ConvergenceStack,
        resource: Any,
        progress: Mapping[str, Any],
        message: Mapping[str, Any],
    ) -> None:
        """The step's lock was taken from it (its engine was told to cancel): stop here."""
        LOG.info("Action %s of %s was cancelled", progress["action"], resource.name)
        canceller = getattr(resource, f"handle_{progress['action'].lower()}_cancel", None)
        if callable(canceller):
            try:
                canceller(progress["token"])
            except Exception:
                LOG.exception("Error cancelling resource %s", progress["action"])
        if stack.current_traversal != message["current_traversal"]:
            # The traversal that cancelled us may be waiting for this resource.
            self.retrigger_check_resource(stack, resource.id)

    def cancel_check_resource(self, context: Any, stack_id: str) -> None:
        """Abort the actions this engine holds locks for in the stack (Heat's cancel).

        Each resource fails as Heat fails a cancelled action and its lock is released;
        the step still waiting to poll it finds the lock gone and stops.
        """
        for row in resources.locked_by_engine(self.database, stack_id, self.engine_id):
            loaded = self._load(context, row.id, "", True, {})
            if loaded is None:
                continue
            resource, _ = loaded
            resource.adopt_engine(self.engine_id, row.atomic_key)
            try:
                resource.state_set(
                    row.action,
                    resource.FAILED,
                    f"{row.action} aborted (user triggered cancel)",
                    lock=LOCK_RELEASE,
                )
            except exception.UpdateInProgress:
                LOG.debug("Resource %s finished before it could be cancelled", row.id)

    def _retrigger_unheld(
        self, stack: ConvergenceStack, resource: Any, message: Mapping[str, Any]
    ) -> bool:
        """Hand the resource to a newer traversal, if there is one; whether there was.

        The lock this step wanted is nobody's now, yet the step could not go on: most
        often its own lock was taken from it mid-action by a cancel. The newer traversal's
        step may have met the lock held and be waiting to be re-triggered, and no step
        holds the lock to do it; trying this step again would only find it stale.
        """
        latest = ConvergenceStack.load(stack.context, self.database, self.settings, stack.id)
        if latest is None or latest.current_traversal == message["current_traversal"]:
            return False
        self.retrigger_check_resource(latest, resource.id)
        return True

    def _stale_resource_needs_retry(
        self, context: Any, resource: Any, previous_template_id: Any
    ) -> bool | None:
        """True when the step must be tried again. Otherwise None when no engine holds
        the resource, False when a live one does."""
        row = resources.get_resource(self.database, resource.id)
        holder = row.engine_id
        if holder not in (None, self.engine_id):
            if self.dispatcher.is_engine_alive(context, holder):
                LOG.debug("Resource id=%d modified by another traversal", resource.id)
                return False
            # The step holding the lock died with its engine: the resource failed with it.
            if resources.steal_resource_lock(self.database, resource.id, holder):
                LOG.info("Engine %s is gone; took over resource id=%d", holder, resource.id)
                resource.state_set(
                    resource.action,
                    resource.FAILED,
                    f"Worker went down during resource {resource.action}",
                )
            return True
        if holder is None:
            if row.current_template_id == previous_template_id:
                LOG.debug("Resource id=%d stale; retrying check", resource.id)
                return True
            LOG.debug("Resource id=%d modified by another traversal", resource.id)
            return None
        # Held by a live step (ours or another worker's): it re-triggers this traversal
        # once it is done.
        LOG.debug("Resource id=%d modified by another traversal", resource.id)
        return False

    def _operate(
        self, stack: ConvergenceStack, resource: Any, is_update: bool, message: dict[str, Any]
    ) -> bool:
        """A node of a SUSPEND, RESUME, CHECK or SNAPSHOT traversal: the action, or
        nothing on the nodes it does not run on."""
        action = operations.node_action(stack.action, is_update)
        if action is None:
            return True
        started, token = operations.start(resource, action, self.engine_id)
        if not started:
            return True
        return self._poll(stack, resource, self._progress(stack, action, token), set(), message)

    def _progress(self, stack: ConvergenceStack, action: str, token: Any) -> dict[str, Any]:
        return {
            "action": action,
            "token": token,
            "template_id": stack.t.id,
            STARTED_KEY: self.dispatcher.now(),
        }

    def _update(
        self,
        stack: ConvergenceStack,
        resource: Any,
        requires: set[int],
        input_data: Mapping[Any, Any],
        message: dict[str, Any],
        passed_hook: str | None = None,
    ) -> bool:
        after = stack.defn.resource_definition(resource.name)
        new_class = stack.env.registry.get_class_to_instantiate(
            after.resource_type, resource_name=resource.name
        )
        try:
            if type(resource) is not new_class:
                raise exception.UpdateReplace(resource.name)
            if self._stop_at_hook(stack, resource, "UPDATE", "pre-update", message, passed_hook):
                return False
            resource.replaced_by = None
            changed, token = resource.start_update(after, self.engine_id, stack.t.id, requires)
        except exception.UpdateReplace:
            self._replace(stack, resource, requires, input_data, message)
            return False
        if not changed:
            return True
        return self._poll(
            stack, resource, self._progress(stack, resource.UPDATE, token), requires, message
        )

    def _replace(
        self,
        stack: ConvergenceStack,
        resource: Any,
        requires: set[int],
        input_data: Mapping[Any, Any],
        message: dict[str, Any],
    ) -> None:
        try:
            replacement_id = resource.make_replacement(stack.t.id, requires)
        except exception.UpdateInProgress:
            LOG.info("No replacement created - resource already locked by new traversal")
            return
        if replacement_id is None:
            LOG.info("No replacement created - new traversal already in progress")
            latest = ConvergenceStack.load(stack.context, self.database, self.settings, stack.id)
            if latest is not None and latest.current_traversal != message["current_traversal"]:
                self.retrigger_check_resource(latest, resource.id)
            return
        LOG.info("Replacing resource with new id %s", replacement_id)
        self.dispatcher.send_check_resource(
            stack.context,
            resource_id=replacement_id,
            current_traversal=message["current_traversal"],
            data=sync_point.serialize_input_data(input_data),
            is_update=True,
            adopt_stack_data=message["adopt_stack_data"],
        )

    def _cleanup(
        self,
        stack: ConvergenceStack,
        resource: Any,
        message: dict[str, Any],
        passed_hook: str | None = None,
    ) -> bool:
        if resource.current_template_id == stack.t.id:
            return True
        if resource.action == resource.INIT:
            resource.delete_row()
            return True
        if (resource.action, resource.status) == (resource.DELETE, resource.COMPLETE):
            return True
        if self._stop_at_hook(stack, resource, "DELETE", "pre-delete", message, passed_hook):
            return False
        token = resource.start_action(resource.DELETE, self.engine_id)
        return self._poll(
            stack, resource, self._progress(stack, resource.DELETE, token), set(), message
        )

    def _poll(
        self,
        stack: ConvergenceStack,
        resource: Any,
        progress: Mapping[str, Any],
        requires: set[int],
        message: dict[str, Any],
    ) -> bool:
        action = progress["action"]

        def finish_update() -> None:
            template_id = progress["template_id"]
            after = self._definition(stack, template_id, resource.name)
            resource.finish_update(after, template_id, requires)

        before_complete = finish_update if action == resource.UPDATE else None
        retry = progress.get(RETRY_KEY)
        try:
            done = resource.poll_action(action, progress["token"], before_complete)
        except exception.ResourceFailure as failure:
            if action == resource.CREATE or retry is not None:
                return self._after_failed_attempt(
                    stack, resource, requires, message, failure, action, retry
                )
            raise
        if done and retry is not None and action == resource.DELETE:
            # Deleted what failed: the next create, after its back-off.
            restart = {RESTART_KEY: resource.CREATE, RETRY_KEY: retry}
            countdown = create_retry.backoff_delay(retry["creates"])
            self._send_later(stack, message, restart, countdown)
            return False
        if done:
            if action == resource.ADOPT and resource.external_id is not None:
                # What was taken over is checked to exist before anything relies on it.
                started, token = operations.start(resource, operations.CHECK, self.engine_id)
                if started:
                    check = self._progress(stack, operations.CHECK, token)
                    return self._poll(stack, resource, check, requires, message)
                return True
            if action == resource.DELETE:
                self._update_replacement_data(resource)
            if action == resource.SNAPSHOT:
                # A snapshot traversal's id is the snapshot's.
                operations.store_snapshot(resource, stack.current_traversal)
            post_hook = POST_HOOKS.get(action)
            return post_hook is None or not self._stop_at_hook(
                stack, resource, action, post_hook, message, None
            )
        state = resource.handled_state()
        countdown = next_poll(progress.get(STARTED_KEY), self.dispatcher.now(), resource.poll_delay)
        self._send_later(stack, message, {**progress, **state}, countdown)
        return False

    def _attempt(
        self,
        stack: ConvergenceStack,
        resource: Any,
        requires: set[int],
        message: dict[str, Any],
        action: str,
        retry: Mapping[str, Any] | None,
    ) -> bool:
        """Start a create (or the delete of a create being retried) and poll it."""
        if retry is not None and action == resource.CREATE:
            # A new step: names are looked up (translation rules) again, as on a first create.
            resource.reparse()
        try:
            token = resource.start_action(
                action, self.engine_id, clean_up=action == resource.DELETE
            )
        except exception.ResourceFailure as failure:
            return self._after_failed_attempt(
                stack, resource, requires, message, failure, action, retry
            )
        progress = self._progress(stack, action, token)
        if retry is not None:
            progress[RETRY_KEY] = dict(retry)
        return self._poll(stack, resource, progress, requires, message)

    def _after_failed_attempt(
        self,
        stack: ConvergenceStack,
        resource: Any,
        requires: set[int],
        message: dict[str, Any],
        failure: exception.ResourceFailure,
        action: str,
        retry: Mapping[str, Any] | None,
    ) -> bool:
        """Heat's create retries: a failure worth another try deletes what was made and
        creates again; otherwise, or with the attempts used up, the resource has failed."""
        if not create_retry.is_retryable(resource, failure):
            raise failure
        limit = max(self.settings.action_retry_limit, 0)
        state = create_retry.after_failure(retry, failure, action, limit)
        if state is None:
            if retry is None:
                raise failure
            raise create_retry.first_failure(retry) from failure
        LOG.info("%s failed (%s); deleting it to create it again", resource, failure)
        if state["deletes"] == 0:
            return self._attempt(stack, resource, requires, message, resource.DELETE, state)
        restart = {RESTART_KEY: resource.DELETE, RETRY_KEY: state}
        self._send_later(stack, message, restart, create_retry.backoff_delay(state["deletes"]))
        return False

    def _send_later(
        self,
        stack: ConvergenceStack,
        message: dict[str, Any],
        progress: Mapping[str, Any],
        countdown: float = POLL_INTERVAL,
    ) -> None:
        """Send the step again, to go on from ``progress`` after ``countdown`` seconds."""
        data = dict(message["data"])
        data[PROGRESS_KEY] = dict(progress)
        self.dispatcher.send_check_resource(
            stack.context, **{**message, "data": data}, countdown=countdown
        )

    # Hooks (Heat's breakpoints): a resource_data flag that a signal clears

    def _stop_at_hook(
        self,
        stack: ConvergenceStack,
        resource: Any,
        action: str,
        hook: str,
        message: dict[str, Any],
        passed_hook: str | None,
    ) -> bool:
        """Whether the step stops at ``hook``: set for the resource, it waits to be cleared.

        As in Heat, create and delete hooks hold only in the stack's own CREATE or DELETE
        (not when an update creates or replaces), update hooks in any update.
        """
        if hook == passed_hook or (action != resource.UPDATE and stack.action != action):
            return False
        if not resource.reach_hook(action, hook):
            return False
        self._send_later(stack, message, {HOOK_KEY: hook, "action": action})
        return True

    def _still_at_hook(
        self,
        stack: ConvergenceStack,
        resource: Any,
        progress: Mapping[str, Any],
        message: dict[str, Any],
    ) -> bool:
        if not resource.has_hook(progress[HOOK_KEY]):
            return False
        self._send_later(stack, message, progress)
        return True

    def _definition(self, stack: ConvergenceStack, template_id: int, name: str) -> Any:
        """A resource's definition in one of the stack's templates (resolved on this stack)."""
        definitions = stack.defn
        if template_id != stack.t.id:
            definitions = definitions.clone_with_new_template(
                load_template(self.database, template_id, self.settings), stack.identifier()
            )
        return definitions.resource_definition(name)

    def _update_replacement_data(self, resource: Any) -> None:
        if resource.replaced_by is None:
            return
        try:
            replacement = resources.get_resource(self.database, resource.replaced_by)
        except exception.NotFound:
            return
        if replacement.replaces == resource.id:
            resources.update_resource(
                self.database,
                replacement.id,
                {"replaces": None},
                replacement.atomic_key,
                replacement.engine_id,
            )

    # After the step

    def _propagate(
        self,
        stack: ConvergenceStack,
        current_traversal: str,
        resource: Any,
        is_update: bool,
        failures: dict[str, str],
        is_skip: bool = False,
    ) -> None:
        graph, nodes, roots = _graph(stack)
        key = ConvergenceNode(resource.id, is_update)
        if key not in nodes and resource.replaces is not None:
            key = ConvergenceNode(resource.replaces, is_update)
        try:
            forward: Any = None
            for requirer in sorted(graph.required_by(key), key=lambda node: node.is_update):
                if requirer.is_update:
                    if forward is None:
                        forward = _node_data(resource)
                    value: Any = forward
                elif requirer.rsrc_id != key.rsrc_id:
                    value = (
                        resource.replaced_by if resource.replaced_by is not None else resource.id
                    )
                else:
                    value = None
                self._sync_and_send(
                    stack,
                    current_traversal,
                    requirer,
                    key,
                    value,
                    set(nodes[requirer]),
                    failures,
                    is_skip,
                )
            if is_update:
                if forward is None:
                    resource.clear_stored_attributes()
                else:
                    resource.store_attributes()
            self._check_stack_complete(stack, current_traversal, key, roots, failures)
        except exception.EntityNotFound as error:
            if error.entity != "Sync Point":
                raise
            latest = ConvergenceStack.load(stack.context, self.database, self.settings, stack.id)
            if latest is None or latest.current_traversal == current_traversal:
                LOG.debug("[%s] Traversal sync point missing.", current_traversal)
                return
            self.retrigger_check_resource(latest, resource.id)

    def _sync_and_send(
        self,
        stack: ConvergenceStack,
        current_traversal: str,
        requirer: ConvergenceNode,
        sender: ConvergenceNode,
        value: Any,
        predecessors: set[Any],
        failures: dict[str, str],
        is_skip: bool = False,
    ) -> None:
        def send(entity_id: Any, data: dict[str, Any], resource_failures: Any, skip: bool) -> None:
            self.dispatcher.send_check_resource(
                stack.context,
                resource_id=entity_id,
                current_traversal=current_traversal,
                data=data,
                is_update=requirer.is_update,
                adopt_stack_data=stack.adopt_stack_data,
                converge=stack.converge,
                skip_propagate=skip,
                accumulated_failures=resource_failures or None,
                abandon=stack.abandon,
            )

        sync_point.sync(
            self.database,
            requirer.rsrc_id,
            current_traversal,
            requirer.is_update,
            send,
            predecessors,
            {tuple(sender): value},
            new_resource_failures=failures or None,
            is_skip=is_skip,
        )

    def _check_stack_complete(
        self,
        stack: ConvergenceStack,
        current_traversal: str,
        sender: ConvergenceNode,
        roots: frozenset[Any],
        failures: dict[str, str],
    ) -> None:
        if sender not in roots:
            return

        def complete(stack_id: Any, data: Any, resource_failures: Any, skip: bool) -> None:
            if stack.action == stack.CHECK and resource_failures:
                reasons = "; ".join(f"{name}: {why}" for name, why in resource_failures.items())
                converge.mark_failed(stack, f"Resource CHECK failed: {reasons}", self.dispatcher)
                return
            converge.mark_complete(stack)

        if len(roots) > stack_completion.MANY_ROOTS:
            stack_completion.report(
                self.database, stack.id, current_traversal, sender, roots, failures, complete
            )
            return
        sync_point.sync(
            self.database,
            stack.id,
            current_traversal,
            True,
            complete,
            set(roots),
            {tuple(sender): None},
            new_resource_failures=failures or None,
        )


def _graph(stack: ConvergenceStack, of_a_step: bool = True) -> Any:
    """The graph of the stack's current traversal; ``of_a_step``: the caller is a step of
    that traversal (not one of an older traversal acting for it), whose document it read
    after the traversal started, so that the graph is kept for the other steps."""
    # The document is only read from the stack when the graph is not cached yet.
    return traversal_graph(
        stack.id, stack.current_traversal, lambda: stack.current_deps, keep=of_a_step
    )


def _node_data(resource: Any) -> dict[str, Any]:
    """The resource's node data in the form sync points store."""
    data = resource.node_data()
    return NodeData(
        resource.id,
        resource.name,
        resource.uuid,
        data.reference,
        data.attribute_values,
        resource.action,
        resource.status,
    ).as_dict()
