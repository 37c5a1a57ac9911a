"""Views returning data get heat-api's JSON bytes."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from keel_app.web import create_app
from tests.web.conftest import heat_conf


def test_a_returned_dict_is_written_as_heat_writes_it(tmp_path: Path) -> None:
    app = create_app({"HEAT_CONF": heat_conf(tmp_path)})
    created = datetime.datetime(2026, 1, 2, 3, 4, 5)

    @app.route("/<tenant_id>/sample", methods=["GET"])
    def sample(tenant_id: str) -> dict[str, object]:
        return {"stack": {"name": "s\u00e9", "creation_time": created, "id": 7}, "a": [1]}

    response = app.test_client().get("/v1/t/sample")
    assert response.headers["Content-Type"] == "application/json"
    assert (
        response.get_data()
        == json.dumps(
            {
                "stack": {"name": "s\u00e9", "creation_time": "2026-01-02T03:04:05", "id": 7},
                "a": [1],
            }
        ).encode()
    )
