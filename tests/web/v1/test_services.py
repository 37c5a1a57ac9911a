"""``GET /services`` over a real engine, and when no engine answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from keel_app.common.exception_wire import MessagingTimeout
from keel_app.models.maintenance.services import register_service
from keel_app.rpc.client import EngineClient
from keel_app.web import create_app
from tests.web.conftest import heat_conf
from tests.web.v1.conftest import HEADERS, v1


class SilentTransport:
    """A broker on which no engine listens: every call times out."""

    def call(self, context: Any, method: str, arguments: Any, version: str, timeout: Any) -> Any:
        raise MessagingTimeout("Timed out waiting for a reply to message ID 1")

    def cast(self, context: Any, method: str, arguments: Any, version: str) -> None:
        return None


def test_the_engines_are_listed_with_their_status(client: FlaskClient, database: Any) -> None:
    service_id = register_service(
        database,
        engine_id="engine-1",
        host="engine-host",
        hostname="machine-1",
        binary="heat-engine",
        topic="engine",
        report_interval=60,
    )

    response = client.get(v1("services"), headers=HEADERS)

    assert response.status_code == 200
    (service,) = response.get_json()["services"]
    created_at = service.pop("created_at")
    assert service == {
        "id": service_id,
        "binary": "heat-engine",
        "engine_id": "engine-1",
        "host": "engine-host",
        "hostname": "machine-1",
        "topic": "engine",
        "report_interval": 60,
        "updated_at": None,
        "deleted_at": None,
        "status": "up",
    }
    # As oslo's serialiser sends a datetime over RPC.
    assert len(created_at) == len("2026-01-02T03:04:05.123456")


def test_no_engine_answering_is_a_service_unavailable(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "HEAT_CONF": heat_conf(tmp_path),
            "ENGINE_CLIENT": EngineClient(SilentTransport()),
        }
    )

    response = app.test_client().get(v1("services"), headers=HEADERS)

    assert response.status_code == 503
    assert response.get_json() == {
        "code": 503,
        "title": "Service Unavailable",
        "explanation": "The server is currently unavailable. Please try again at a later time.",
        "error": {
            "type": "HTTPServiceUnavailable",
            "traceback": None,
            "message": "All heat engines are down.",
        },
    }


def test_other_methods_match_no_route(client: FlaskClient) -> None:
    response = client.post(v1("services"), headers=HEADERS)

    assert response.status_code == 404
