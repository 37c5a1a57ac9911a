"""The calls a resource makes on the nested stack it owns, and what it reads of it.

Heat's StackResource reaches its child through the engine's RPC API. Here the same
calls are the engine's service functions, run with the parent stack's context,
database, settings and dispatcher (``EngineCalls``); the child's state is read from its
row as Heat's ``Stack.get_status`` reads it. Errors of those calls reach the resource
as they would over RPC: only their message's first line (``remote_errors``).

The service modules are imported when first called: they build on the stack layer,
which builds on the resources.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from keel_app.common import exception
from keel_app.models.api import stacks as stack_rows
from keel_app.models.database import Database

SERVICE = "keel_app.engine.service."


class AdminScope:
    """The engine reads rows of any project: the caller's checks were made before."""

    is_admin = True
    project_id = None


class StackStatus(NamedTuple):
    action: str
    status: str
    status_reason: str


def stack_status(database: Database, stack_id: str | None) -> StackStatus | None:
    """The stack's action, status and reason (a deleted stack's too); None if no row."""
    if stack_id is None:
        return None
    row = stack_rows.get_stack(database, AdminScope(), stack_id, show_deleted=True)
    if row is None:
        return None
    return StackStatus(row.action or "", row.status or "", row.status_reason or "")


@dataclasses.dataclass(frozen=True)
class EngineCalls:
    """The engine's service functions as one caller (a resource's stack) makes them."""

    context: Any
    settings: Any
    database: Database
    dispatcher: Any

    @classmethod
    def of(cls, resource: Any) -> EngineCalls:
        stack = resource.stack
        return cls(
            resource.context,
            stack.settings,
            stack.database,
            getattr(stack, "dispatcher", None),
        )

    def call(self, module: str, function: str, **arguments: Any) -> Any:
        service = importlib.import_module(SERVICE + module)
        return getattr(service, function)(
            self.context, self.settings, self.database, self.dispatcher, **arguments
        )

    def create_stack(self, **arguments: Any) -> dict[str, str]:
        return self.call("stacks", "create_stack", **arguments)  # type: ignore[no-any-return]

    def update_stack(self, **arguments: Any) -> dict[str, str]:
        return self.call("stack_update", "update_stack", **arguments)  # type: ignore[no-any-return]

    def delete_stack(self, identity: Mapping[str, str]) -> None:
        self.call("stacks", "delete_stack", stack_identity=dict(identity))

    def abandon_stack(self, identity: Mapping[str, str]) -> None:
        self.call("stack_abandon", "abandon_stack", stack_identity=dict(identity))

    def cancel_update(self, identity: Mapping[str, str], with_rollback: bool) -> None:
        self.call(
            "stack_cancel",
            "stack_cancel_update",
            stack_identity=dict(identity),
            cancel_with_rollback=with_rollback,
        )

    def outputs(self, identity: Mapping[str, str]) -> dict[str, dict[str, Any]] | None:
        """The stack's outputs by key, resolved as ``show_stack`` shows them."""
        shown = self.call("stacks", "show_stack", stack_identity=dict(identity))
        if not shown:
            return None
        return {output["output_key"]: output for output in shown[0].get("outputs") or []}

    def resources(self, identity: Mapping[str, str]) -> list[dict[str, Any]]:
        """The stack's resources as ``list_stack_resources`` lists them."""
        return self.call(  # type: ignore[no-any-return]
            "resources", "list_stack_resources", stack_identity=dict(identity)
        )

    def template(self, identity: Mapping[str, str]) -> Any:
        """The stack's current template, as stored."""
        return self.call("stacks", "get_template", stack_identity=dict(identity))

    def load(self, stack_id: str) -> Any:
        """The stored stack (the runtime ``Stack``, deleted or not), or None."""
        runtime_stack = importlib.import_module("keel_app.engine.stack")
        try:
            return runtime_stack.Stack.load(
                self.context, self.database, self.settings, stack_id, show_deleted=True
            )
        except exception.NotFound:
            return None


@contextlib.contextmanager
def remote_errors(resource: Any) -> Iterator[None]:
    """Errors of a call on the engine, as the resource sees them through Heat's RPC.

    Over RPC an error arrives with its traceback appended; Heat keeps the first line of
    its message as the resource's failure. An update interrupted by the rollback that
    is already under way is no failure (the rollback finishes the work).
    """
    try:
        yield
    except Exception as error:
        stack = resource.stack
        if isinstance(error, exception.ActionInProgress) and stack.action == stack.ROLLBACK:
            return
        message = str(error).split("\n", 1)[0]
        raise exception.ResourceFailure(message, resource, action=resource.action) from None
