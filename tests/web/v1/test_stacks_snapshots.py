from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.web.v1.conftest import HEADERS
from tests.web.v1.stack_templates import NONE_TEMPLATE, created, shown, stack_path, timestamps_of


def snapshotted(client: FlaskClient, run_engine: Any, name: str) -> tuple[dict[str, str], str]:
    identity = created(client, "snapped", NONE_TEMPLATE)
    run_engine()
    response = client.post(stack_path(identity, "/snapshots"), headers=HEADERS, json={"name": name})
    assert response.status_code == 200, response.get_data(as_text=True)
    run_engine()
    return identity, response.get_json()["id"]


def test_a_snapshot_is_answered_in_progress_then_listed_complete(
    client: FlaskClient, run_engine: Any
) -> None:
    identity = created(client, "snapped", NONE_TEMPLATE)
    run_engine()

    taken = client.post(stack_path(identity, "/snapshots"), headers=HEADERS, json={"name": "one"})
    run_engine()
    listing = client.get(stack_path(identity, "/snapshots"), headers=HEADERS)

    snapshot = taken.get_json()
    assert (taken.status_code, snapshot["name"], snapshot["status"]) == (200, "one", "IN_PROGRESS")
    [listed] = listing.get_json()["snapshots"]
    assert (listed["id"], listed["name"], listed["status"], listed["status_reason"]) == (
        snapshot["id"],
        "one",
        "COMPLETE",
        "Stack SNAPSHOT completed successfully",
    )
    assert sorted(listed["data"]["resources"]) == ["placeholder"]


def test_show_snapshot_wraps_the_snapshot(client: FlaskClient, run_engine: Any) -> None:
    identity, snapshot_id = snapshotted(client, run_engine, "shown")

    response = client.get(stack_path(identity, f"/snapshots/{snapshot_id}"), headers=HEADERS)

    snapshot = response.get_json()["snapshot"]
    assert response.status_code == 200
    assert (snapshot["id"], snapshot["name"], snapshot["status"]) == (
        snapshot_id,
        "shown",
        "COMPLETE",
    )
    assert timestamps_of(snapshot)["creation_time"] is not None


def test_restore_answers_202_and_restores(client: FlaskClient, run_engine: Any) -> None:
    identity, snapshot_id = snapshotted(client, run_engine, "kept")

    response = client.post(
        stack_path(identity, f"/snapshots/{snapshot_id}/restore"), headers=HEADERS
    )
    run_engine()

    assert response.status_code == 202
    assert shown(client, identity)["stack_status"] == "RESTORE_COMPLETE"


def test_delete_snapshot_answers_204_and_it_goes(client: FlaskClient, run_engine: Any) -> None:
    identity, snapshot_id = snapshotted(client, run_engine, "dropped")

    response = client.delete(stack_path(identity, f"/snapshots/{snapshot_id}"), headers=HEADERS)
    run_engine()

    assert response.status_code == 204
    assert response.get_data() == b""
    listing = client.get(stack_path(identity, "/snapshots"), headers=HEADERS)
    assert listing.get_json() == {"snapshots": []}


def test_an_unknown_snapshot_is_not_found(client: FlaskClient, run_engine: Any) -> None:
    identity = created(client, "bare", NONE_TEMPLATE)
    run_engine()

    response = client.get(stack_path(identity, "/snapshots/nothing"), headers=HEADERS)

    assert response.status_code == 404
    assert response.get_json()["error"] == {
        "type": "NotFound",
        "traceback": None,
        "message": "Snapshot with id nothing not found",
    }
