"""Heat 27.0.1's engine refusing calls on a database of ours, answered as heat-api answers
(the oracle runs ``heat_engine_faults.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from keel_app.models.database import Database
from tests import oracle

HEAT_ENGINE_FAULTS = Path(__file__).with_name("heat_engine_faults.py")
# The environment heat-api sends with a request that gives none.
ENVIRONMENT = {
    "parameters": {},
    "resource_registry": {},
    "parameter_defaults": {},
    "encrypted_param_names": [],
    "event_sinks": [],
}


def fault_bodies(
    database: Database,
    project: str,
    calls: list[dict[str, Any]],
    keystone: dict[str, Any] | None = None,
) -> list[dict[str, Any] | None]:
    """heat-api's error body for each call (``None`` for one that succeeded)."""
    request: dict[str, Any] = {
        "url": database.url.render_as_string(hide_password=False),
        "project": project,
        "calls": calls,
    }
    if keystone is not None:
        request["keystone"] = keystone
    return oracle.run_json(HEAT_ENGINE_FAULTS.read_text(), json.dumps(request))
