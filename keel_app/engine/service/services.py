"""``list_services``: the engines of the deployment as their heartbeat rows show them.

Each live row (not soft-deleted) is answered in Heat's ``format_service`` shape, its
status ``up`` while the last heartbeat is at most two report intervals old.
"""

from __future__ import annotations

from typing import Any

from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.models.maintenance.services import ServiceState
from keel_app.models.maintenance.services import list_services as service_states


def format_service(state: ServiceState) -> dict[str, Any]:
    return {
        "id": state.id,
        "binary": state.binary,
        "engine_id": state.engine_id,
        "host": state.host,
        "hostname": state.hostname,
        "topic": state.topic,
        "report_interval": state.report_interval,
        "created_at": state.created_at,
        "updated_at": state.updated_at,
        "deleted_at": state.deleted_at,
        "status": state.status,
    }


def list_services(
    context: Any, settings: EngineSettings, database: Database, dispatcher: Any
) -> list[dict[str, Any]]:
    return [format_service(state) for state in service_states(database)]
