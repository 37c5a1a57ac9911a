from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from keel_app.engine.settings import EngineSettings
from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import NONE_TEMPLATE, created, stack_path


@pytest.fixture
def settings() -> EngineSettings:
    return EngineSettings(host="engine-host", engine_id="engine-1", enable_stack_abandon=True)


def test_export_answers_the_stack_data_and_keeps_the_stack(
    client: FlaskClient, run_engine: Any
) -> None:
    identity = created(client, "exported", NONE_TEMPLATE)
    run_engine()

    response = client.get(stack_path(identity, "/export"), headers=HEADERS)

    data = response.get_json()
    assert response.status_code == 200
    assert (data["id"], data["name"], data["status"], data["action"]) == (
        identity["stack_id"],
        "exported",
        "COMPLETE",
        "CREATE",
    )
    assert data["template"] == NONE_TEMPLATE
    assert sorted(data["resources"]) == ["placeholder"]
    assert client.get(v1("stacks/exported"), headers=HEADERS).status_code == 302


def test_abandon_answers_the_stack_data_and_the_stack_goes(
    client: FlaskClient, run_engine: Any
) -> None:
    identity = created(client, "abandoned", NONE_TEMPLATE)
    run_engine()

    response = client.delete(stack_path(identity, "/abandon"), headers=HEADERS)
    run_engine()

    assert response.status_code == 200
    assert response.get_json()["name"] == "abandoned"
    assert client.get(v1("stacks/abandoned"), headers=HEADERS).status_code == 404
