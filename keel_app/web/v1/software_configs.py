"""heat-api v1 routes: software_configs (being written)."""

from __future__ import annotations

from keel_app.web.routing import Route


def routes() -> list[Route]:
    return []
