"""``authenticated_to_backend``: whether the caller's credentials are good for the cloud.

Heat's engine asks its client backend (``[DEFAULT] cloud_backend``). The default
backend, the only one a Heat 27.0.1 deployment ships, has no such check, so Heat's
engine fails the call with the AttributeError of the missing method; heat-api's
``custom_backend_auth`` filter then sees that failure. OpenKeel answers the same, so the
filter behaves alike whichever engine takes the call.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database

# The class name Heat's error names: its default backend, OpenStackClients.
HEAT_DEFAULT_BACKEND = "OpenStackClients"


def authenticated_to_backend(
    context: Any, settings: EngineSettings, database: Database, dispatcher: Any
) -> bool:
    """Never answers: fails as Heat's default backend does."""
    raise AttributeError(f"'{HEAT_DEFAULT_BACKEND}' object has no attribute 'authenticated'")
