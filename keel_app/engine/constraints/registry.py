"""The global registry of custom constraints: entry points of group ``openkeel.constraints``.

The names are Heat's (its ``heat.constraints`` entry points), so a template's
``custom_constraint: nova.flavor`` finds a validator in OpenKeel too. A plugin that fails
to import is left out with a log line, as Heat does, so one broken package cannot take
template validation down.
"""

from __future__ import annotations

import functools
import logging
from importlib import metadata

LOG = logging.getLogger(__name__)

GROUP = "openkeel.constraints"


@functools.cache
def _loaded() -> dict[str, type]:
    classes: dict[str, type] = {}
    for entry_point in metadata.entry_points(group=GROUP):
        try:
            classes[entry_point.name] = entry_point.load()
        except Exception:
            LOG.exception("Failed to load custom constraint %s", entry_point.name)
    return classes


def get_constraint(name: str) -> type | None:
    """The validator class registered under ``name``, or None."""
    return _loaded().get(name)


def constraint_names() -> list[str]:
    """Every registered name, sorted."""
    return sorted(_loaded())
