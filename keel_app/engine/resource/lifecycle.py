"""A resource's life on the database: its row, lock, state changes, events and data.

Mixed into ``Resource``. A step of an action never blocks: ``start_action`` takes the
lock with the IN_PROGRESS state and calls ``handle_<action>``, ``poll_action`` calls
``check_<action>_complete`` once; whoever drives the step (``check_resource``) sends
itself again later while the answer is "not yet", carrying the handler's token. A
checker that knows it need not be asked again soon raises ``PollDelay(seconds)``.
Signals, hooks and the stored metadata are ``signals.Signalling``'s.

What the ``stack`` must offer beyond validation's needs: ``id``, ``name``,
``database``, ``settings`` (``auth_encryption_key``, ``max_events_per_stack``,
``event_purge_batch_size``), ``root_stack_id()`` and ``now()``.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import logging
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.common import crypt, exception
from keel_app.engine.resource.signals import Signalling
from keel_app.engine.template import function
from keel_app.models.api import events, resource_data, resources
from keel_app.models.base import utcnow
from keel_app.models.resource import Resource as ResourceRow
from keel_app.models.resource import ResourcePropertiesData

LOG = logging.getLogger(__name__)

LOCK_NONE, LOCK_ACQUIRE, LOCK_RELEASE, LOCK_RESPECT = range(4)
DEFAULT_REASON = "state changed"
# The token of a delete that the deletion policy turns into nothing.
RETAINED = "keel:retained"


class PollDelay(Exception):
    """Raised by a ``check_*_complete`` that need not be asked again for ``period`` seconds."""

    def __init__(self, period: float) -> None:
        assert period >= 1
        super().__init__(period)
        self.period = period


def short_id(source_uuid: str | uuid.UUID) -> str:
    """Heat's 12-character id derived from the 60 random bits of a version 4 UUID."""
    if isinstance(source_uuid, str):
        source_uuid = uuid.UUID(source_uuid)
    if source_uuid.version != 4:
        raise ValueError(f"Invalid UUID version ({source_uuid.version})")
    # 60 bits padded on the right to 64, big-endian: the first 12 base32 digits are ours.
    data = (source_uuid.time << 4).to_bytes(8, "big")
    return base64.b32encode(data)[:12].decode("ascii").lower()


def _both(
    first: Callable[[Any], Any] | None, second: Callable[[Any], Any] | None
) -> Callable[[Any], Any] | None:
    """One writer running ``first`` then ``second`` in the same transaction."""
    if first is None or second is None:
        return first or second

    def write(session: Any) -> None:
        first(session)
        second(session)

    return write


def reduce_physical_resource_name(name: str, limit: int) -> str:
    if len(name) <= limit:
        return name
    if limit < 4:
        raise ValueError("limit cannot be less than 4")
    return name[:2] + "-" + name[-(limit - 3) :]


class LifeCycle(Signalling):
    """Row state and the persistence of a resource (its ``Resource`` does the rest)."""

    id: int | None = None
    uuid: str | None = None
    requires: set[int] = set()
    replaces: int | None = None
    replaced_by: int | None = None
    current_template_id: int | None = None
    root_stack_id: str | None = None
    created_time: datetime.datetime | None = None
    updated_time: datetime.datetime | None = None
    _atomic_key: int | None = None
    _stored_engine_id: str | None = None
    _calling_engine_id: str | None = None
    _data: dict[str, Any] | None = None
    _rsrc_prop_data_id: int | None = None
    _stored_properties_data: dict[str, Any] | None = None
    _attr_data_id: int | None = None
    _cached_attributes: dict[str, Any] | None = None
    _has_new_cached_attributes: bool = False
    # Seconds a checker asked to be left alone for (``PollDelay``), None for the default.
    poll_delay: float | None = None
    # Set for the steps of an abandon: deleting then leaves the resource alive.
    abandon_in_progress: bool = False
    # While a handler runs (``start_action``), its physical id and resource_data writes
    # are held, to commit with the write that follows: see ``_hold_handler_writes``.
    _holding_writes: bool = False
    _held_physical_id: bool = False
    _held_data: dict[str, tuple[Any, bool]] | None = None
    # A lock taken with the write of the step's outcome (``_defer_lock``): the row's values
    # and the IN_PROGRESS event as they were when the state was set.
    _deferred_lock: tuple[dict[str, Any], dict[str, Any] | None] | None = None
    _defer_next_lock: bool = False
    # The resource has no resource_data rows but hooks' (``load_row``).
    _data_absent: bool = False

    # Loading

    def load_row(self, row: Any) -> None:
        """Take the stored state of ``row`` (Heat's ``Resource._load_data``)."""
        self.id = row.id
        self.uuid = row.uuid
        self.resource_id = row.physical_resource_id  # type: ignore[attr-defined]
        self.action = row.action  # type: ignore[attr-defined]
        self.status = row.status  # type: ignore[attr-defined]
        self.status_reason = row.status_reason  # type: ignore[attr-defined]
        self.requires = set(row.requires or [])
        self.replaces = row.replaces
        self.replaced_by = row.replaced_by
        self.current_template_id = row.current_template_id
        self.root_stack_id = row.root_stack_id
        self.created_time = row.created_at
        self.updated_time = row.updated_at
        self._atomic_key = row.atomic_key
        self._stored_engine_id = row.engine_id
        self._rsrc_prop_data_id = row.rsrc_prop_data_id
        self._stored_properties_data = self._read_properties_data(row.rsrc_prop_data_id)
        self._attr_data_id = row.attr_data_id
        self._cached_attributes = self._read_properties_data(row.attr_data_id) or {}
        self._has_new_cached_attributes = False
        self._data = None
        self._rsrc_metadata = row.rsrc_metadata
        # Data is written by handlers, and with the state they reach: a row still INIT
        # has none but the flag of a pre-create hook, which no handler's key is. Its
        # handler's held writes need not look for rows to overwrite.
        self._data_absent = row.action == "INIT"

    def _read_properties_data(self, properties_data_id: int | None) -> dict[str, Any] | None:
        if properties_data_id is None:
            return None
        with self._database.transaction() as session:
            stored = session.get(ResourcePropertiesData, properties_data_id)
        if stored is None:
            return None
        if stored.encrypted:
            return crypt.decrypted_dict(stored.data, self._encryption_key)
        return stored.data  # type: ignore[no-any-return]

    # Properties as stored

    def _update_stored_properties(self) -> None:
        """Resolve the properties now; a change starts a new properties data row."""
        previous = self._stored_properties_data
        self._stored_properties_data = function.resolve(self.properties.data)  # type: ignore[attr-defined]
        if self._stored_properties_data != previous:
            self._rsrc_prop_data_id = None
            # Attributes resolved from the old properties are no longer true.
            self._has_new_cached_attributes = bool(self._cached_attributes)
            self._cached_attributes = {}

    def _create_or_replace_rsrc_prop_data(self) -> int | None:
        if self._rsrc_prop_data_id is not None:
            return self._rsrc_prop_data_id
        if not self._stored_properties_data:
            return None
        settings = self.stack.settings  # type: ignore[attr-defined]
        data: Any = self._stored_properties_data
        encrypted = bool(settings.encrypt_parameters_and_properties)
        if encrypted:
            data = crypt.encrypted_dict(data, self._encryption_key)
        with self._database.transaction() as session:
            stored = ResourcePropertiesData(data=data, encrypted=encrypted)
            session.add(stored)
            session.flush()
            self._rsrc_prop_data_id = stored.id
        return self._rsrc_prop_data_id

    def frozen_definition(self) -> Any:
        """The definition with the property values stored when last acted on."""
        if self._stored_properties_data is not None:
            return self.t.freeze(properties=self._stored_properties_data)  # type: ignore[attr-defined]
        return self.t.freeze()  # type: ignore[attr-defined]

    # Names

    def physical_resource_name(self) -> str | None:
        stack: Any = self.stack  # type: ignore[attr-defined]
        if self.id is None or self.action == "INIT":  # type: ignore[attr-defined]
            return None
        assert self.uuid is not None
        name = f"{stack.name.rstrip('*')}-{self.name}-{short_id(self.uuid)}"  # type: ignore[attr-defined]
        limit = self.physical_resource_name_limit  # type: ignore[attr-defined]
        return reduce_physical_resource_name(name, limit) if limit else name

    def resource_id_set(self, physical_id: Any) -> None:
        self.resource_id = physical_id
        if self.id is not None and self._holding_writes:
            # The row's next store writes it (its values carry the physical id).
            self._held_physical_id = True
            return
        if self.id is not None:
            self._write_deferred_lock()
            # Not a locked write: the atomic key stays where the lock protocol left it.
            with self._database.transaction() as session:
                row = session.get(ResourceRow, self.id)
                if row is not None:
                    row.physical_resource_id = physical_id

    # resource_data

    @property
    def _database(self) -> Any:
        return self.stack.database  # type: ignore[attr-defined]

    @property
    def _encryption_key(self) -> str:
        return self.stack.settings.auth_encryption_key  # type: ignore[attr-defined]

    def data(self) -> dict[str, Any]:
        if self._data is None:
            self._data = {}
            if self.id is not None:
                self._data = resource_data.get_all(self._database, self.id, self._encryption_key)
        if self._held_data:
            return {**self._data, **{key: value for key, (value, _) in self._held_data.items()}}
        return self._data

    def data_set(self, key: str, value: Any, redact: bool = False) -> None:
        assert self.id is not None
        if self._holding_writes:
            if self._held_data is None:
                self._held_data = {}
            self._held_data[key] = (value, redact)
            return
        resource_data.set_value(self._database, self.id, key, value, redact, self._encryption_key)
        self._data = None

    def data_delete(self, key: str) -> bool:
        assert self.id is not None
        # A held write of the key must not land after its deletion.
        self._write_deferred_lock()
        self._write_held(self._take_held_writes())
        self._data = None
        return resource_data.delete_value(self._database, self.id, key)

    # Writes held while a handler runs

    def _take_held_writes(self) -> tuple[bool, dict[str, tuple[Any, bool]]]:
        """The held writes (physical id held, resource_data values), no longer held."""
        held = (self._held_physical_id, self._held_data or {})
        self._held_physical_id, self._held_data = False, None
        return held

    def _held_writer(
        self, held: tuple[bool, dict[str, tuple[Any, bool]]]
    ) -> Callable[[Any], None] | None:
        """What writes the held resource_data values into a transaction of the caller's."""
        _, values = held
        if not values:
            return None
        resource_id, key = self.id, self._encryption_key
        assert resource_id is not None
        absent, self._data_absent = self._data_absent, False

        def write(session: Any) -> None:
            for name, (value, redact) in values.items():
                resource_data.write_value(
                    session, resource_id, name, value, redact, key, absent=absent
                )

        self._data = None
        return write

    def _write_held(self, held: tuple[bool, dict[str, tuple[Any, bool]]]) -> None:
        """Commit held writes on their own (no state change is there to carry them)."""
        physical_id_held, values = held
        if not physical_id_held and not values:
            return
        self._write_deferred_lock()
        writer = self._held_writer(held)
        with self._database.transaction() as session:
            if physical_id_held:
                # Not a locked write, as ``resource_id_set``'s own is not.
                session.execute(
                    sa.update(ResourceRow)
                    .where(ResourceRow.id == self.id)
                    .values(physical_resource_id=self.resource_id)
                    .execution_options(synchronize_session=False)
                )
            if writer is not None:
                writer(session)

    # Attributes

    def _resolve_attribute(self, name: str) -> Any:
        return None

    def _cached_attribute(self, name: str) -> Any:
        """An attribute's value, remembered unless its schema says never to cache it."""
        if self.attributes.get_cache_mode(name) == "cache_none":  # type: ignore[attr-defined]
            return self._resolve_any_attribute(name)
        if self._cached_attributes is None:
            self._cached_attributes = {}
        if name in self._cached_attributes:
            return self._cached_attributes[name]
        value = self._resolve_any_attribute(name)
        # None may become a real value later: only real values are kept.
        if value is not None:
            self._cached_attributes[name] = value
            self._has_new_cached_attributes = True
        return value

    def store_attributes(self) -> None:
        """Keep the attribute values resolved so far in the resource's attribute data row."""
        assert self.id is not None
        if self.status != "COMPLETE" or self.action in ("INIT", "DELETE"):  # type: ignore[attr-defined]
            return
        if not self._has_new_cached_attributes:
            return
        try:
            self._store_attribute_data()
        except Exception as error:
            LOG.error("store_attributes rsrc %s %s DB error %s", self.name, self.id, error)  # type: ignore[attr-defined]

    def _store_attribute_data(self) -> None:
        self._write_deferred_lock()
        data: Any = self._cached_attributes
        encrypted = bool(self.stack.settings.encrypt_parameters_and_properties)  # type: ignore[attr-defined]
        if encrypted and data:
            data = crypt.encrypted_dict(data, self._encryption_key)
        else:
            encrypted = False
        with self._database.transaction() as session:
            stored = None
            if self._attr_data_id is not None:
                stored = session.get(ResourcePropertiesData, self._attr_data_id)
            if stored is None:
                stored = ResourcePropertiesData()
                session.add(stored)
            stored.data, stored.encrypted = data, encrypted
            session.flush()
            attribute_data_id = stored.id
        values = {
            "attr_data_id": attribute_data_id,
            "atomic_key": resources.next_atomic_key(self._atomic_key),
        }
        with self._database.transaction() as session:
            claimed = session.execute(
                sa.update(ResourceRow)
                .where(
                    ResourceRow.id == self.id,
                    ResourceRow.atomic_key == self._atomic_key,
                    ResourceRow.engine_id.is_(None),
                    sa.or_(
                        ResourceRow.attr_data_id == attribute_data_id,
                        ResourceRow.attr_data_id.is_(None),
                    ),
                )
                .values(values)
                .execution_options(synchronize_session=False)
            ).rowcount
            if not claimed:
                # Someone else stored first, or our view is stale: ours is not kept.
                session.execute(
                    sa.delete(ResourcePropertiesData).where(
                        ResourcePropertiesData.id == attribute_data_id
                    )
                )
                return
        self._atomic_key = resources.next_atomic_key(self._atomic_key)
        self._attr_data_id = attribute_data_id
        self._has_new_cached_attributes = False

    def clear_stored_attributes(self) -> None:
        if self._attr_data_id is not None:
            with self._database.transaction() as session:
                row = session.get(ResourceRow, self.id)
                if row is not None:
                    row.attr_data_id = None
                stored = session.get(ResourcePropertiesData, self._attr_data_id)
                if stored is not None:
                    session.delete(stored)
            self._attr_data_id = None
        self._has_new_cached_attributes = bool(self._cached_attributes)
        self._cached_attributes = {}

    def _resolve_any_attribute(self, name: str) -> Any:
        if name in self.base_attributes_schema:  # type: ignore[attr-defined]
            if self.resource_id is not None:
                return self._show_resource()
            return None
        return self._resolve_attribute(name)

    # Storing

    def _row_values(self) -> dict[str, Any]:
        stack: Any = self.stack  # type: ignore[attr-defined]
        if not self.root_stack_id:
            self.root_stack_id = stack.root_stack_id()
        return {
            "action": self.action,  # type: ignore[attr-defined]
            "status": self.status,  # type: ignore[attr-defined]
            "status_reason": str(self.status_reason),  # type: ignore[attr-defined]
            "stack_id": stack.id,
            "physical_resource_id": self.resource_id,
            "name": self.name,  # type: ignore[attr-defined]
            "needed_by": [],
            "requires": sorted(self.requires, reverse=True),
            "replaces": self.replaces,
            "replaced_by": self.replaced_by,
            "current_template_id": self.current_template_id,
            "root_stack_id": self.root_stack_id,
            "updated_at": self.updated_time,
            "properties_data": None,
            "rsrc_prop_data_id": self._create_or_replace_rsrc_prop_data(),
        }

    def store(
        self,
        lock: int = LOCK_NONE,
        set_metadata: bool = False,
        also: Callable[[Any], Any] | None = None,
    ) -> None:
        """Write the row: create it, or update it under the lock protocol ``lock`` names.

        ``set_metadata`` writes the template's metadata too (when the resource first acts);
        ``also`` writes more rows (a state change's event) in the same transaction.
        """
        self._write_deferred_lock()
        values = self._row_values()
        # Held writes of a handler commit with this store (the physical id is in ``values``).
        held = self._take_held_writes()
        also = _both(self._held_writer(held), also)
        if set_metadata:
            metadata = self.t.metadata()  # type: ignore[attr-defined]
            values["rsrc_metadata"] = metadata
            self._rsrc_metadata = metadata
        if self.id is None:
            row = resources.create_resource(self._database, values)
            self.id, self.uuid, self.created_time = row.id, row.uuid, row.created_at
            self._atomic_key = row.atomic_key
            if also is not None:
                with self._database.transaction() as session:
                    also(session)
            return
        if lock == LOCK_NONE or self._calling_engine_id is None:
            with self._database.transaction() as session:
                row = session.get(ResourceRow, self.id)
                if row is None:
                    raise exception.NotFound(f"resource with id {self.id} not found")
                for name, value in values.items():
                    setattr(row, name, value)
                if also is not None:
                    also(session)
            return
        self._store_with_lock(values, lock, also, held)

    def _store_with_lock(
        self,
        values: dict[str, Any],
        lock: int,
        also: Callable[[Any], Any] | None = None,
        held: tuple[bool, dict[str, tuple[Any, bool]]] = (False, {}),
    ) -> None:
        assert self.id is not None
        if lock == LOCK_ACQUIRE:
            values["engine_id"] = self._calling_engine_id
            expected_engine_id = None
        elif lock == LOCK_RELEASE:
            values["engine_id"] = None
            expected_engine_id = self._calling_engine_id
        else:
            expected_engine_id = None
        if not resources.update_resource(
            self._database, self.id, values, self._atomic_key, expected_engine_id, also
        ):
            LOG.info("Resource %s is locked or does not exist", self)
            # What the handler wrote is kept all the same, as its own writes would have been.
            self._write_held(held)
            raise exception.UpdateInProgress(resource_name=self.name)  # type: ignore[attr-defined]
        self._atomic_key = resources.next_atomic_key(self._atomic_key)

    def state_set(
        self, action: str, status: str, reason: str = DEFAULT_REASON, lock: int = LOCK_NONE
    ) -> None:
        if action not in self.ACTIONS:  # type: ignore[attr-defined]
            raise ValueError(f"Invalid action {action}")
        if status not in self.STATUSES:  # type: ignore[attr-defined]
            raise ValueError(f"Invalid status {status}")
        old_state = (self.action, self.status)  # type: ignore[attr-defined]
        leaving_init = self.action == "INIT"  # type: ignore[attr-defined]
        self.action, self.status, self.status_reason = action, status, reason  # type: ignore[attr-defined]
        changed = (action, status) != old_state
        if lock == LOCK_ACQUIRE and self._defer_next_lock:
            self._defer_lock(action, status, reason, changed, leaving_init)
        elif lock == LOCK_RELEASE and self._deferred_lock is not None:
            self._store_with_deferred_lock(action, status, reason, changed)
        else:
            # The event of a state change commits with the change itself.
            event = self._event_writer(action, status, reason) if changed else None
            self.store(lock=lock, set_metadata=leaving_init, also=event)
        if status != "COMPLETE":
            self.clear_stored_attributes()

    # A lock taken with the step's outcome

    def _lock_can_wait(self, action: str) -> bool:
        """Whether the lock of ``action`` may be written with its outcome (``_defer_lock``)."""
        return (
            bool(self.acts_locally)  # type: ignore[attr-defined]
            and action != "ADOPT"
            and self.id is not None
            and not callable(getattr(self, f"check_{action.lower()}_complete", None))
            and self._database.in_unit_of_work()
        )

    def _defer_lock(
        self, action: str, status: str, reason: str, changed: bool, leaving_init: bool
    ) -> None:
        """Keep the lock and IN_PROGRESS state to write them with the step's outcome.

        Only in a unit of work, for a resource that acts locally and has no check to wait
        on: its outcome is recorded right after the handler, in the same transaction, so
        no one sees the row in between. One compare-and-swap from the unlocked row to the
        outcome, moving ``atomic_key`` on twice as the lock's two writes would, leaves the
        row they would leave, and the two events go in one INSERT. Any other write of the
        resource before then writes the lock first (``_write_deferred_lock``).
        """
        self._defer_next_lock = False
        values = self._row_values()
        if leaving_init:
            metadata = self.t.metadata()  # type: ignore[attr-defined]
            values["rsrc_metadata"] = metadata
            self._rsrc_metadata = metadata
        values["engine_id"] = self._calling_engine_id
        # Read now, as the write would have read it: the handler has not named the
        # physical resource yet.
        event = self._event_values(action, status, reason) if changed else None
        self._deferred_lock = (values, event)

    def _store_with_deferred_lock(
        self, action: str, status: str, reason: str, changed: bool
    ) -> None:
        assert self.id is not None and self._deferred_lock is not None
        locked_values, locked_event = self._deferred_lock
        self._deferred_lock = None
        values = {**locked_values, **self._row_values(), "engine_id": None}
        held_writer = self._held_writer(self._take_held_writes())
        settings = self.stack.settings  # type: ignore[attr-defined]

        def write(session: Any) -> None:
            if held_writer is not None:
                held_writer(session)
            rows = [locked_event] if locked_event is not None else []
            if changed:
                rows.append(self._event_values(action, status, reason))
            events.add_events(
                session, rows, settings.max_events_per_stack, settings.event_purge_batch_size
            )

        released = resources.next_atomic_key(resources.next_atomic_key(self._atomic_key))
        if not resources.update_resource(
            self._database, self.id, values, self._atomic_key, None, write, released
        ):
            LOG.info("Resource %s is locked or does not exist", self)
            # The lock was never ours: as when taking it fails, nothing is written.
            raise exception.UpdateInProgress(resource_name=self.name)  # type: ignore[attr-defined]
        self._atomic_key = released

    def _write_deferred_lock(self) -> None:
        """Write a deferred lock on its own, as taking it would have: another write of the
        resource is about to be made."""
        if self._deferred_lock is None:
            return
        assert self.id is not None
        values, event = self._deferred_lock
        self._deferred_lock = None
        write = None
        if event is not None:
            settings = self.stack.settings  # type: ignore[attr-defined]

            def write(session: Any) -> None:
                events.add_events(
                    session, [event], settings.max_events_per_stack, settings.event_purge_batch_size
                )

        if not resources.update_resource(
            self._database, self.id, values, self._atomic_key, None, write
        ):
            LOG.info("Resource %s is locked or does not exist", self)
            raise exception.UpdateInProgress(resource_name=self.name)  # type: ignore[attr-defined]
        self._atomic_key = resources.next_atomic_key(self._atomic_key)

    # Events

    def _add_event(self, action: str, status: str, reason: str) -> None:
        with self._database.transaction() as session:
            self._event_writer(action, status, reason)(session)

    def _event_writer(self, action: str, status: str, reason: str) -> Callable[[Any], Any]:
        """What writes this state change's event into the transaction that stores it.

        The values are read when it runs: storing the row may first give the resource
        a new properties data row, which the event must name.
        """
        settings = self.stack.settings  # type: ignore[attr-defined]

        def write(session: Any) -> Any:
            return events.add_event(
                session,
                self._event_values(action, status, reason),
                settings.max_events_per_stack,
                settings.event_purge_batch_size,
            )

        return write

    def _event_values(self, action: str, status: str, reason: str) -> dict[str, Any]:
        """The event of a state change as it stands now."""
        return {
            "stack_id": self.stack.id,  # type: ignore[attr-defined]
            "resource_action": action,
            "resource_status": status,
            "resource_name": self.name,  # type: ignore[attr-defined]
            "physical_resource_id": self.resource_id or self.physical_resource_name(),
            "resource_status_reason": reason,
            "resource_type": self.type(),  # type: ignore[attr-defined]
            "rsrc_prop_data_id": self._rsrc_prop_data_id,
            "resource_properties": None,
            "created_at": utcnow(),
        }

    # What a type may say about updates (Heat's hooks and their defaults)

    def needs_replace(self, after_properties: Any) -> bool:
        return False

    def needs_replace_with_prop_diff(
        self, changed_properties_set: Any, after_props: Any, before_props: Any
    ) -> Any:
        return False

    def needs_replace_with_tmpl_diff(self, tmpl_diff: Any) -> bool:
        return False

    def needs_replace_failed(self) -> bool:
        return True

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        if prop_diff:
            raise exception.UpdateReplace(self.name)  # type: ignore[attr-defined]
        return None

    def handle_preempt(self) -> None:
        """Called when a newer traversal finds this resource still busy with an older one."""
        return None

    # One step of an action

    def prepare_create(self, template_id: int, requires: set[int]) -> None:
        """Take the new template's definition and resolve the properties to store."""
        self.requires = requires
        self.current_template_id = template_id
        if (self.action, self.status) != ("INIT", "COMPLETE"):  # type: ignore[attr-defined]
            error = exception.Error(f"State {self.state} invalid for create")  # type: ignore[attr-defined]
            raise exception.ResourceFailure(error, self, "CREATE")  # type: ignore[arg-type]
        self.reparse()  # type: ignore[attr-defined]
        self._update_stored_properties()

    def start_update(
        self, after: Any, engine_id: str, template_id: int, requires: set[int]
    ) -> tuple[bool, Any]:
        """Begin updating to definition ``after``: (False, None) when nothing changes.

        Raises UpdateReplace when the resource must be replaced instead (recording, as
        Heat does, an UPDATE that completed by asking for a replacement when the
        handler was reached), and ResourceFailure when the update failed.
        """
        from keel_app.engine.resource import update

        self._calling_engine_id = engine_id
        after_external_id = after.external_id()
        if self.external_id != after_external_id:  # type: ignore[attr-defined]
            # Another resource cannot be swapped in, nor one let go, by an update.
            feature = f"Update to property external_id of {self.name} ({self.type()})"  # type: ignore[attr-defined]
            raise exception.ResourceFailure(exception.NotSupported(feature=feature), self, "UPDATE")  # type: ignore[arg-type]
        if after_external_id is not None:
            # What lives outside the stack is never updated by it.
            self._persist_update_no_change(template_id, requires)
            return False, None
        before = self.frozen_definition()
        after_properties, before_properties = update.prepare_properties(self, after, before)
        try:
            changed = update.needs_update(self, after, before, after_properties, before_properties)
        except exception.UpdateReplace:
            self._prepare_replacement(LOCK_RESPECT)
            raise
        if not changed:
            self._persist_update_no_change(template_id, requires)
            return False, None
        self.updated_time = utcnow()
        self.requires = self.requires | requires
        self.state_set("UPDATE", "IN_PROGRESS", lock=LOCK_ACQUIRE)
        old_template_id = self.current_template_id
        try:
            after_properties.validate()
            self.properties = before_properties
            template_diff = after.freeze() - before
            if template_diff and self.needs_replace_with_tmpl_diff(template_diff):
                raise exception.UpdateReplace(str(self))
            property_diff = update.changed_properties(self, after_properties, before_properties)
            self.current_template_id = template_id
            token = self.handle_update(after, template_diff, property_diff)
        except exception.UpdateReplace as replace:
            self.current_template_id = old_template_id
            self._prepare_replacement(LOCK_RELEASE)
            self.state_set("UPDATE", "COMPLETE", str(replace), lock=LOCK_RELEASE)
            raise
        except Exception as error:
            raise self._fail("UPDATE", error) from error
        return True, token

    def prepare_for_replace(self) -> None:
        """Make way for the replacement about to be created (a port gives up its fixed
        IPs for the new one to take them); nothing by default."""
        return None

    def _prepare_replacement(self, lock: int) -> None:
        """Heat's preparation for a replacement, when the type has one; a failure fails
        the update."""
        if type(self).prepare_for_replace is LifeCycle.prepare_for_replace:
            return
        try:
            self.prepare_for_replace()
        except Exception as error:
            failure = exception.ResourceFailure(error, self, "UPDATE")  # type: ignore[arg-type]
            self.state_set("UPDATE", "FAILED", str(failure), lock=lock)
            raise failure from error

    def _persist_update_no_change(self, template_id: int, requires: set[int]) -> None:
        """An update that leaves the resource as it is: only its template moves on."""
        self.current_template_id = template_id
        self.requires = requires
        if self.status == "FAILED":  # type: ignore[attr-defined]
            reason = "Update status to COMPLETE for FAILED resource neither update nor replace."
            self.state_set(self.action, "COMPLETE", reason, lock=LOCK_RESPECT)  # type: ignore[attr-defined]
        else:
            self.store(lock=LOCK_RESPECT)

    def finish_update(self, after: Any, template_id: int, requires: set[int]) -> None:
        """What an update leaves once its handler is done: the new definition, stored."""
        self.t = after
        self.reparse()  # type: ignore[attr-defined]
        self._update_stored_properties()
        self.current_template_id = template_id
        self.requires = requires

    def start_action(self, action: str, engine_id: str, clean_up: bool = False) -> Any:
        """Lock the resource IN_PROGRESS and call the handler; returns the handler's token.

        UpdateInProgress (someone else holds the lock) leaves everything as it was.
        A failure of the handler records FAILED, releases the lock and raises
        ResourceFailure. ``clean_up`` is the delete of a create to be retried: what
        failed is deleted whatever the deletion policy says of the resource.
        """
        self._calling_engine_id = engine_id
        initial_state = self.state
        if action == "DELETE":
            self._use_stored_properties()
        self._defer_next_lock = self._lock_can_wait(action)
        self.state_set(action, "IN_PROGRESS", lock=LOCK_ACQUIRE)
        policy = self.t.deletion_policy() if action == "DELETE" and not clean_up else None  # type: ignore[attr-defined]
        if action == "DELETE" and (self.abandon_in_progress or policy == "Retain"):
            # Left to live on outside the stack: the state changes, nothing is deleted.
            return RETAINED
        handler = getattr(self, f"handle_{action.lower()}", None)
        arguments: tuple[Any, ...] = ()
        if policy == "Snapshot":
            # The type keeps a snapshot of what it deletes (it is polled as a delete).
            handler, arguments = getattr(self, "handle_snapshot_delete", None), (initial_state,)
        if action == "ADOPT":
            arguments = (self.adopt_resource_data(),)
        with self._hold_handler_writes(action):
            try:
                return handler(*arguments) if callable(handler) else None
            except Exception as error:
                raise self._fail(action, error) from error

    @contextlib.contextmanager
    def _hold_handler_writes(self, action: str) -> Iterator[None]:
        """Hold the handler's ``resource_id_set`` and ``data_set`` writes, to commit them in
        one transaction when it returns instead of one each.

        When the action has no ``check_<action>_complete``, the step records COMPLETE right
        after the handler with nothing called in between, so the held writes wait for that
        state change (or the FAILED of a handler that raised) and commit with it. A
        resource that will be polled has them committed as soon as its handler returns:
        what it made must be on record before the step waits on it. A type whose handler
        reaches another service writes at once: what it made must be on record even if
        the step is cancelled (its lock taken) before the handler returns.
        """
        self._holding_writes = bool(self.acts_locally)  # type: ignore[attr-defined]
        try:
            yield
        finally:
            self._holding_writes = False
        if callable(getattr(self, f"check_{action.lower()}_complete", None)):
            self._write_held(self._take_held_writes())

    def adopt_resource_data(self) -> Any:
        """What the stack's adopt data holds of this resource (None when nothing); for a
        resource with an ``external_id``, that id."""
        if self.external_id is not None:  # type: ignore[attr-defined]
            return {"resource_id": self.external_id}  # type: ignore[attr-defined]
        adopted = getattr(self.stack, "adopt_stack_data", None) or {}  # type: ignore[attr-defined]
        return (adopted.get("resources") or {}).get(self.name)  # type: ignore[attr-defined]

    def handle_adopt(self, resource_data: Any = None) -> Any:
        """Take over the resource the data names: its physical id, data and metadata."""
        if not resource_data:
            resource_data = {}
        resource_id = resource_data.get("resource_id")
        if not resource_id:
            raise exception.ResourceFailure(Exception("Resource ID was not provided."), self)  # type: ignore[arg-type]
        self.resource_id_set(resource_id)
        data = resource_data.get("resource_data")
        if data and isinstance(data, dict):
            for key, value in data.items():
                self.data_set(key, value)
        self.metadata_set(resource_data.get("metadata"))  # type: ignore[attr-defined]
        return None

    def poll_action(
        self, action: str, token: Any, before_complete: Callable[[], None] | None = None
    ) -> bool:
        """Ask ``check_<action>_complete`` once; on True record COMPLETE and release the lock.

        After a ``PollDelay`` the answer is "not yet" and ``poll_delay`` says for how long.
        """
        checker = getattr(self, f"check_{action.lower()}_complete", None)
        if token == RETAINED:
            checker = None
        if action == "DELETE":
            self._use_stored_properties()
        self.poll_delay = None
        try:
            try:
                done = checker(token) if callable(checker) else True
            except PollDelay as delay:
                self.poll_delay = delay.period
                return False
            if done and before_complete is not None:
                before_complete()
        except Exception as error:
            raise self._fail(action, error) from error
        if done:
            self.state_set(action, "COMPLETE", lock=LOCK_RELEASE)
        return bool(done)

    def _use_stored_properties(self) -> None:
        """Delete with the properties the resource was made with, as Heat does: what
        they were resolved from may be gone by now."""
        if self._stored_properties_data is None:
            return
        self.properties = self.frozen_definition().properties(  # type: ignore[attr-defined]
            self.properties_schema,  # type: ignore[attr-defined]
            self.context,  # type: ignore[attr-defined]
        )
        self.translate_properties(self.properties, ignore_resolve_error=True)  # type: ignore[attr-defined]

    def _fail(self, action: str, error: Exception) -> exception.ResourceFailure:
        LOG.info("%s: %s", action, self, exc_info=True)
        failure = exception.ResourceFailure(error, self, action)  # type: ignore[arg-type]
        self.state_set(action, "FAILED", str(failure), lock=LOCK_RELEASE)
        return failure

    def locked_as_loaded(self, engine_id: str, atomic_key: int | None) -> bool:
        """Whether the row, as loaded, was held by ``engine_id`` at ``atomic_key``."""
        return (self._stored_engine_id, self._atomic_key) == (engine_id, atomic_key)

    def adopt_engine(self, engine_id: str, atomic_key: int | None) -> None:
        """Continue a step that ``engine_id`` started, holding its lock."""
        self._calling_engine_id = engine_id
        self._atomic_key = atomic_key

    def make_replacement(self, template_id: int, requires: set[int]) -> int | None:
        """Insert the row that replaces this one; None when the template is gone.

        Raises UpdateInProgress when another traversal holds this resource.
        """
        assert self.id is not None
        self._write_deferred_lock()
        values = {
            "stack_id": self.stack.id,  # type: ignore[attr-defined]
            "name": self.name,  # type: ignore[attr-defined]
            "rsrc_prop_data_id": None,
            "needed_by": [],
            "requires": sorted(requires, reverse=True),
            "replaces": self.id,
            "action": "INIT",
            "status": "COMPLETE",
            "status_reason": "",
            "current_template_id": template_id,
            "root_stack_id": self.root_stack_id,
        }
        replacement = resources.create_replacement(
            self._database, self.id, values, self._atomic_key
        )
        if replacement is None:
            return None
        self._atomic_key = resources.next_atomic_key(self._atomic_key)
        self.replaced_by = replacement.id
        return replacement.id

    @property
    def state(self) -> tuple[str, str]:
        return self.action, self.status  # type: ignore[attr-defined]

    def delete_row(self) -> None:
        """Remove the row (its resource_data rows go by the foreign key's cascade)."""
        if self.id is None:
            return
        self._write_deferred_lock()
        with self._database.transaction() as session:
            row = session.get(ResourceRow, self.id)
            if row is not None:
                session.delete(row)

    def now(self) -> datetime.datetime:
        """The time as the driver's clock tells it (virtual on the LocalQueue)."""
        clock = getattr(self.stack, "now", time.time)  # type: ignore[attr-defined]
        return datetime.datetime.fromtimestamp(clock(), datetime.UTC).replace(tzinfo=None)

    def handled_state(self) -> Mapping[str, Any]:
        return {"engine_id": self._calling_engine_id, "atomic_key": self._atomic_key}
