"""python-heatclient's stack actions and snapshots against the native API (the ``heat``
fixture: a loopback WSGI server thread, noauth)."""

from __future__ import annotations

from typing import Any

from tests.web.v1.stack_templates import NONE_TEMPLATE


def test_actions_and_snapshots_through_heatclient(heat: Any, run_engine: Any) -> None:
    stack_id = heat.stacks.create(stack_name="acted", template=NONE_TEMPLATE)["stack"]["id"]
    run_engine()

    heat.actions.suspend(stack_id)
    run_engine()
    suspended = heat.stacks.get(stack_id).stack_status
    snapshot = heat.stacks.snapshot(stack_id, name="kept")
    run_engine()
    listed = [
        (entry["name"], entry["status"])
        for entry in heat.stacks.snapshot_list(stack_id)["snapshots"]
    ]

    assert suspended == "SUSPEND_COMPLETE"
    assert listed == [("kept", "COMPLETE")]
    assert heat.stacks.snapshot_show(stack_id, snapshot["id"])["snapshot"]["name"] == "kept"
