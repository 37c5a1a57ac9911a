"""The embedded default has no Swift: a ``files_container`` is refused, and nothing kept."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS, v1
from tests.web.v1.stack_templates import NONE_TEMPLATE


def test_a_files_container_without_swift_is_not_found(client: FlaskClient) -> None:
    response = client.post(
        v1("stacks"),
        headers=HEADERS,
        json={"stack_name": "nowhere", "template": NONE_TEMPLATE, "files_container": "box"},
    )
    listed = client.get(v1("stacks"), headers=HEADERS)

    assert (response.status_code, response.get_json()["error"]["type"]) == (404, "NotFound")
    assert response.get_json()["error"]["message"] == (
        "Could not fetch files from container box, reason: The client (swift) is not available."
    )
    assert listed.get_json() == {"stacks": []}
