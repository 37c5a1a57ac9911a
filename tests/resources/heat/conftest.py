"""The engine's database fixtures and LocalQueue, for the plugin scenarios."""

from tests.engine.conftest import context, database, settings  # noqa: F401
from tests.engine.service.conftest import queue  # noqa: F401
