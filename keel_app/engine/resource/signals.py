"""What a resource hears from outside its steps: signals, hooks and its stored metadata.

Mixed into ``LifeCycle``. A signal reaches ``signal``: one that asks to clear a hook
(``{"unset_hook": "pre-create"}``) clears it, any other goes to the type's
``handle_signal`` and is recorded as a ``SIGNAL`` event. Hooks (Heat's breakpoints) are
set for a resource by the environment's ``resource_registry`` ``hooks``; a step that
reaches one records it as the resource_data key of the hook's name, valued "True", and
waits, sent again later by whoever drives it, until a signal deletes that key.

The metadata is the resource row's ``rsrc_metadata``: what a wait condition handle keeps
its signals in. Writes are compare-and-swap on the row's atomic key, retried afresh
when another writer came first.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

from keel_app.common import exception
from keel_app.engine.environment import valid_hook_type
from keel_app.models.api import resources

LOG = logging.getLogger(__name__)

SIGNAL = "SIGNAL"
# Heat's retry_on_conflict gives a metadata write eleven tries.
METADATA_WRITE_ATTEMPTS = 11


class NoActionRequired(Exception):
    """Raised by a ``handle_signal`` that had nothing to do: no event is recorded."""


class Signalling:
    """Hooks, signals and metadata of a resource (its ``LifeCycle`` does the rest)."""

    _rsrc_metadata: Any = None

    # Metadata

    def metadata_get(self, refresh: bool = False) -> Any:
        """The stored metadata; the template's until the resource has acted."""
        if refresh:
            self._rsrc_metadata = None
        if self.id is None or self.action == "INIT":  # type: ignore[attr-defined]
            return self.t.metadata()  # type: ignore[attr-defined]
        if self._rsrc_metadata is None:
            row = resources.get_resource(self._database, self.id)  # type: ignore[attr-defined]
            self._rsrc_metadata = row.rsrc_metadata
        return self._rsrc_metadata

    def metadata_set(
        self, metadata: Any, merge_metadata: Callable[[Any, Any], Any] | None = None
    ) -> None:
        """Write the metadata, or with ``merge_metadata(metadata, stored)`` what it makes
        of the stored value; a concurrent write makes it read and merge again."""
        for _ in range(METADATA_WRITE_ATTEMPTS - 1):
            try:
                return self._write_metadata(metadata, merge_metadata)
            except exception.ConcurrentTransaction:
                LOG.debug("Retrying the metadata write of %s", self)
        return self._write_metadata(metadata, merge_metadata)

    def _write_metadata(
        self, metadata: Any, merge_metadata: Callable[[Any, Any], Any] | None
    ) -> None:
        if self.id is None or self.action == "INIT":  # type: ignore[attr-defined]
            raise exception.ResourceNotAvailable(resource_name=self.name)  # type: ignore[attr-defined]
        row = resources.get_resource(self._database, self.id)  # type: ignore[attr-defined]
        if row.action == "DELETE":
            self._db_res_is_deleted = True
            LOG.debug("Resource %s is DELETE_%s, not setting metadata", self, row.status)
            raise exception.ResourceNotAvailable(resource_name=self.name)  # type: ignore[attr-defined]
        if merge_metadata is not None:
            metadata = merge_metadata(metadata, row.rsrc_metadata)
        if row.rsrc_metadata != metadata:
            written = resources.update_resource(
                self._database,  # type: ignore[attr-defined]
                self.id,
                {"rsrc_metadata": metadata},
                row.atomic_key,
                row.engine_id,
            )
            if not written:
                raise exception.ConcurrentTransaction(
                    action=f"metadata setting for resource {self.name}"  # type: ignore[attr-defined]
                )
            self._atomic_key = resources.next_atomic_key(row.atomic_key)
        self._rsrc_metadata = metadata

    def metadata_update(self, new_metadata: Any = None) -> None:
        """What a type does when other resources' signals change the metadata (nothing)."""
        if new_metadata:
            LOG.warning("Resource %s does not implement metadata update", self.name)  # type: ignore[attr-defined]

    # Hooks

    def has_hook(self, hook: str) -> bool:
        self._data = None
        return self.data().get(hook) == "True"  # type: ignore[attr-defined]

    def trigger_hook(self, hook: str) -> None:
        self.data_set(hook, "True")  # type: ignore[attr-defined]

    def clear_hook(self, hook: str) -> None:
        self.data_delete(hook)  # type: ignore[attr-defined]

    def reach_hook(self, action: str, hook: str) -> bool:
        """Stop at ``hook`` if the environment sets it on this resource: True to wait."""
        if not self.stack.env.registry.matches_hook(self.name, hook):  # type: ignore[attr-defined]
            return False
        self.trigger_hook(hook)
        self._add_event(  # type: ignore[attr-defined]
            self.action,  # type: ignore[attr-defined]
            self.status,  # type: ignore[attr-defined]
            f"{action} paused until Hook {hook} is cleared",
        )
        LOG.info("Reached hook on %s", self)
        return True

    def abandon_hook(self, hook: str) -> None:
        """The wait at ``hook`` was cut short (a timeout, a cancel): the hook goes too."""
        self.clear_hook(hook)
        self._add_event(self.action, self.status, "Failure occurred while waiting.")  # type: ignore[attr-defined]

    # Signals

    def signal_check_action(self) -> None:
        """Refuse signals in the actions that take none (Heat's ``_signal_check_action``)."""
        action = self.action  # type: ignore[attr-defined]
        if action in self.no_signal_actions:  # type: ignore[attr-defined]
            self._add_event(action, self.status, f"Cannot signal resource during {action}")  # type: ignore[attr-defined]
            raise exception.NotSupported(feature=f"Signal resource during {action}")

    def signal_check_hook(self, details: Any) -> None:
        """Refuse to clear a hook that is not one, or is not set on this resource."""
        if not details or "unset_hook" not in details:
            return
        hook = details["unset_hook"]
        if not valid_hook_type(hook):
            raise exception.InvalidBreakPointHook(message=f'Invalid hook type "{hook}" for {self}')
        if not self.has_hook(hook):
            raise exception.InvalidBreakPointHook(
                message=f'The "{hook}" hook is not defined on {self}'
            )

    def signal(self, details: Any = None, need_check: bool = True) -> bool:
        """Take a signal; True when other resources' metadata must be refreshed."""
        if need_check:
            self.signal_check_hook(details)
        if details and "unset_hook" in details:
            self._unset_hook(details["unset_hook"])
            return False
        if need_check:
            self.signal_check_action()
        with self.frozen_properties():
            self._handle_signal(details)
        return bool(self.signal_needs_metadata_updates)  # type: ignore[attr-defined]

    def _unset_hook(self, hook: str) -> None:
        self.clear_hook(hook)
        LOG.info("Clearing %s hook on %s", hook, self)
        self._add_event(self.action, self.status, f"Hook {hook} is cleared")  # type: ignore[attr-defined]

    def _handle_signal(self, details: Any) -> None:
        handler = getattr(self, "handle_signal", None)
        if not callable(handler):
            raise exception.ResourceActionNotSupported(action="signal")
        try:
            result = handler(details)
            reason = f"Signal: {result}" if result else _describe_signal(details)
            self._add_event(SIGNAL, self.status, reason)  # type: ignore[attr-defined]
        except NoActionRequired:
            # Nothing happened: no event to tell of it.
            pass
        except Exception as error:
            if hasattr(self, "_db_res_is_deleted"):
                return
            LOG.info("signal %s : %s", self, error, exc_info=True)
            raise exception.ResourceFailure(error, self) from error  # type: ignore[arg-type]

    @contextlib.contextmanager
    def frozen_properties(self) -> Iterator[Any]:
        """The properties as last stored, for the time of the block."""
        live = self.properties  # type: ignore[has-type]
        frozen = self.frozen_definition().properties(  # type: ignore[attr-defined]
            self.properties_schema,  # type: ignore[attr-defined]
            self.context,  # type: ignore[attr-defined]
        )
        try:
            self.properties = frozen
            yield frozen
        finally:
            self.properties = live


def _describe_signal(details: Any) -> str:
    """The event's reason for a signal whose handler said nothing."""
    if details is None:
        return "No signal details provided"
    if isinstance(details, str):
        return details
    if isinstance(details, dict) and all(
        key in details for key in ("previous", "current", "reason")
    ):
        # Ceilometer's alarm notifications.
        change = f"{details['previous']} to {details['current']} ({details['reason']})"
        return f"alarm state changed from {change}"
    return "Unknown"
