"""Properties whose default is a heat.conf option, as Heat's schemata read the option when
Heat starts (a Server's ``user_data_format`` and ``software_config_transport``, a
deployment's ``signal_transport``): the template's value where it gives one, else the
option's value from the engine's settings."""

from __future__ import annotations

from typing import Any


def given_or_configured(properties: Any, key: str, configured: Any) -> Any:
    """The property's value where the template gives one, else ``configured``;
    ``properties`` are a resource's, or the plain values of an update's difference."""
    given = getattr(properties, "data", properties)
    if given.get(key) is None:
        return configured
    return properties[key]
