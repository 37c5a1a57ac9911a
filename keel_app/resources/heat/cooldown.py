"""A scaling group's cooldown, kept in its metadata as Heat keeps it.

The group's metadata holds ``scaling_in_progress`` (True while a resize runs) and
``cooldown_end``: ``{<ISO time>: <reason>}``, the time before which no adjustment is
made, and the adjustment that set it (``"change_in_capacity : 1"``). Metadata written
by older Heat releases (``{<ISO time of the last adjustment>: <reason>}``, or a
``cooldown`` key of that shape) is still honoured. Times are naive UTC, compared as
their ISO strings, as Heat compares them.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from keel_app.engine.resource.signals import NoActionRequired
from keel_app.models.base import utcnow

LOG = logging.getLogger(__name__)

SCALING_IN_PROGRESS, COOLDOWN_END, COOLDOWN = "scaling_in_progress", "cooldown_end", "cooldown"


def no_action(resource_name: str = "Unknown", reason: str = "") -> NoActionRequired:
    """The refusal of a signal that changes nothing (no event is recorded for it)."""
    return NoActionRequired(
        f"The resource {resource_name} could not perform scaling action: {reason}"
    )


def _sanitise(cooldown: Any) -> Any:
    return 0 if cooldown is None else max(0, cooldown)


def _older_than(iso_time: str, seconds: Any) -> bool:
    return utcnow() - datetime.datetime.fromisoformat(iso_time) > datetime.timedelta(
        seconds=seconds
    )


class CooldownMixin:
    """Whether a group may scale now, and the record of a scaling that finished."""

    def _check_scaling_allowed(self, cooldown: Any) -> None:
        """Refuse while scaling or in cooldown; otherwise mark the scaling as started."""
        name = self.name  # type: ignore[attr-defined]
        metadata = dict(self.metadata_get() or {})  # type: ignore[attr-defined]
        if metadata.get(SCALING_IN_PROGRESS):
            LOG.info("Can not perform scaling action: resource %s is already in scaling.", name)
            raise no_action(name, "due to scaling activity")
        cooldown = _sanitise(cooldown)
        if all(key not in metadata for key in (COOLDOWN, COOLDOWN_END)):
            # An older release's metadata: the time of the last adjustment is its key.
            metadata.pop(SCALING_IN_PROGRESS, None)
            if metadata and cooldown != 0:
                last_adjustment = next(iter(metadata))
                if not _older_than(last_adjustment, cooldown):
                    self._refuse_in_cooldown(cooldown)
        elif COOLDOWN_END in metadata:
            cooldown_end = next(iter(metadata[COOLDOWN_END]))
            if utcnow().isoformat() < cooldown_end:
                self._refuse_in_cooldown(cooldown)
        elif cooldown != 0:
            last_adjustment = next(iter(metadata[COOLDOWN]))
            if not _older_than(last_adjustment, cooldown):
                self._refuse_in_cooldown(cooldown)
        metadata[SCALING_IN_PROGRESS] = True
        self.metadata_set(metadata)  # type: ignore[attr-defined]

    def _refuse_in_cooldown(self, cooldown: Any) -> None:
        name = self.name  # type: ignore[attr-defined]
        LOG.info("Can not perform scaling action: resource %s is in cooldown (%s).", name, cooldown)
        raise no_action(name, f"due to cooldown, cooldown {cooldown}")

    def _finished_scaling(
        self,
        cooldown: Any,
        cooldown_reason: str,
        size_changed: bool = True,
        finished_at: datetime.datetime | None = None,
    ) -> None:
        """Record the end of a scaling; a size that changed starts a cooldown (which
        never ends sooner than one already recorded)."""
        metadata = dict(self.metadata_get(refresh=True) or {})  # type: ignore[attr-defined]
        if size_changed:
            finished_at = finished_at or utcnow()
            cooldown_end = (
                finished_at + datetime.timedelta(seconds=_sanitise(cooldown))
            ).isoformat()
            if COOLDOWN_END in metadata:
                cooldown_end = max(next(iter(metadata[COOLDOWN_END])), cooldown_end)
            metadata[COOLDOWN_END] = {cooldown_end: cooldown_reason}
        metadata[SCALING_IN_PROGRESS] = False
        self.metadata_set(metadata)  # type: ignore[attr-defined]

    def handle_metadata_reset(self) -> None:
        """A stuck ``scaling_in_progress`` is cleared (``resource mark-unhealthy``)."""
        metadata = dict(self.metadata_get() or {})  # type: ignore[attr-defined]
        if SCALING_IN_PROGRESS in metadata:
            metadata[SCALING_IN_PROGRESS] = False
            self.metadata_set(metadata)  # type: ignore[attr-defined]
