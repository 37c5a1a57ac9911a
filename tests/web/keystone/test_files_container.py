"""``files_container``: a stack's files read from Swift with the caller's token, through
the native API, the engine and the real Keystone's catalog (Swift itself is a fake
speaking its object API, tests/clients/fake_swift.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import flask
import pytest
import yaml
from flask.testing import FlaskClient

from tests.clients import fake_swift
from tests.keystone import ADMIN, ALICE, REGION, Keystone

NESTED = yaml.safe_dump(
    {
        "heat_template_version": "2018-08-31",
        "resources": {"inner": {"type": "OS::Heat::None"}},
        "outputs": {"origin": {"value": "from swift"}},
    }
).encode()
PARENT: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {"child": {"type": "nested.yaml"}},
    "outputs": {"origin": {"value": {"get_attr": ["child", "origin"]}}},
}


@pytest.fixture
def swift(keystone_service: Keystone) -> Iterator[tuple[str, fake_swift.SwiftState]]:
    """The fake Swift, in the catalog as ``object-store`` while the test runs."""
    admin = keystone_service.token(ADMIN)
    with fake_swift.running() as (url, state):
        status, made = keystone_service.request(
            "POST", "/services", admin, {"service": {"name": "swift", "type": "object-store"}}
        )
        assert status == 201 and made is not None
        service_id = made["service"]["id"]
        endpoint = {
            "service_id": service_id,
            "interface": "public",
            "region_id": REGION,
            "url": f"{url}/v1/AUTH_$(project_id)s",
        }
        try:
            status, _ = keystone_service.request(
                "POST", "/endpoints", admin, {"endpoint": endpoint}
            )
            assert status == 201
            yield url, state
        finally:
            keystone_service.request("DELETE", f"/services/{service_id}", admin)


def alice(keystone: Keystone, state: fake_swift.SwiftState) -> dict[str, str]:
    token = keystone.token(ALICE)
    state.tokens.add(token)
    return {"X-Auth-Token": token}


def test_a_stack_takes_its_files_from_the_container(
    app: flask.Flask,
    keystone_service: Keystone,
    swift: tuple[str, fake_swift.SwiftState],
    run_engine: Callable[[], Any],
) -> None:
    _, state = swift
    project_a = keystone_service.project_id(ALICE)
    state.containers[(f"AUTH_{project_a}", "templates")] = {"nested.yaml": NESTED}
    client: FlaskClient = app.test_client()
    headers = alice(keystone_service, state)

    created = client.post(
        f"/v1/{project_a}/stacks",
        headers=headers,
        json={"stack_name": "from-swift", "template": PARENT, "files_container": "templates"},
    )
    run_engine()
    stack_id = created.get_json()["stack"]["id"]
    shown = client.get(f"/v1/{project_a}/stacks/from-swift/{stack_id}", headers=headers)
    files = client.get(f"/v1/{project_a}/stacks/from-swift/{stack_id}/files", headers=headers)

    assert created.status_code == 201, created.get_json()
    stack = shown.get_json()["stack"]
    assert stack["stack_status"] == "CREATE_COMPLETE"
    assert stack["outputs"][0]["output_value"] == "from swift"
    assert files.get_json() == {"nested.yaml": NESTED.decode()}


def test_a_file_sent_with_the_request_wins_and_is_not_downloaded(
    app: flask.Flask,
    keystone_service: Keystone,
    swift: tuple[str, fake_swift.SwiftState],
    run_engine: Callable[[], Any],
) -> None:
    _, state = swift
    project_a = keystone_service.project_id(ALICE)
    state.containers[(f"AUTH_{project_a}", "templates")] = {
        "nested.yaml": NESTED,
        "other.yaml": b"unused: true\n",
    }
    sent = NESTED.decode().replace("from swift", "from the request")
    client: FlaskClient = app.test_client()
    headers = alice(keystone_service, state)

    created = client.post(
        f"/v1/{project_a}/stacks",
        headers=headers,
        json={
            "stack_name": "overridden",
            "template": PARENT,
            "files": {"nested.yaml": sent},
            "files_container": "templates",
        },
    )
    run_engine()
    stack_id = created.get_json()["stack"]["id"]
    stack = client.get(f"/v1/{project_a}/stacks/overridden/{stack_id}", headers=headers)

    assert stack.get_json()["stack"]["outputs"][0]["output_value"] == "from the request"
    downloaded = [path for path in state.requests if "?" not in path]
    assert downloaded == [f"/v1/AUTH_{project_a}/templates/other.yaml"]


def test_a_missing_container_is_not_found_with_swifts_reason(
    app: flask.Flask, keystone_service: Keystone, swift: tuple[str, fake_swift.SwiftState]
) -> None:
    url, state = swift
    project_a = keystone_service.project_id(ALICE)
    client: FlaskClient = app.test_client()

    response = client.post(
        f"/v1/{project_a}/stacks",
        headers=alice(keystone_service, state),
        json={"stack_name": "orphan", "template": PARENT, "files_container": "nowhere"},
    )

    body = response.get_json()
    # python-swiftclient's description of the failed request, inside Heat's NotFound.
    cut = fake_swift.NOT_FOUND_BODY[:60]
    assert (response.status_code, body["error"]["type"]) == (404, "NotFound")
    assert body["error"]["message"] == (
        "Could not fetch files from container nowhere, reason: Container GET failed: "
        f"{url}/v1/AUTH_{project_a}/nowhere?format=json 404 Not Found  "
        f"[first 60 chars of response] {cut} (txn: {fake_swift.TRANSACTION_ID})."
    )
    assert client.get(
        f"/v1/{project_a}/stacks", headers=alice(keystone_service, state)
    ).get_json() == {"stacks": []}


def test_a_container_larger_than_a_request_body_is_refused(
    app: flask.Flask,
    conf: Any,
    keystone_service: Keystone,
    swift: tuple[str, fake_swift.SwiftState],
) -> None:
    _, state = swift
    project_a = keystone_service.project_id(ALICE)
    key = (f"AUTH_{project_a}", "huge")
    state.containers[key] = {"nested.yaml": NESTED}
    state.claimed_bytes[key] = conf.max_json_body_size + 1
    client: FlaskClient = app.test_client()

    response = client.post(
        f"/v1/{project_a}/stacks",
        headers=alice(keystone_service, state),
        json={"stack_name": "huge", "template": PARENT, "files_container": "huge"},
    )

    body = response.get_json()
    assert (response.status_code, body["error"]["type"]) == (400, "DownloadLimitExceeded")
    assert body["error"]["message"] == (
        "Permissible download limit exceeded: Total size of files to download "
        f"({conf.max_json_body_size + 1} bytes) exceeds maximum allowed "
        f"({conf.max_json_body_size} bytes)."
    )
    assert [path for path in state.requests if "?" not in path] == []
