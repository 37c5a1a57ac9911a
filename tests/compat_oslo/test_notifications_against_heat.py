"""Stack notifications, whole payloads, from OpenKeel and from Heat 27.0.1's own heat-engine.

The same calls, made by Heat's EngineClient, go to keel-bridge (its keel-worker
notifying) and to a heat-engine on a vhost of its own, both on one database and both
notifying through oslo.messaging; oslo's own listener receives each side's
notifications. Every stack action that notifies is made on each side: create, update,
suspend, resume, check and delete of a stack without tags, the same of a tagged stack
with a PATCH and a PUT update between, and a create that fails. The notifications must
be the same, in the same order, field by field and in Heat's key order, once the stack's
id and name and the times are written alike.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import fleet
from tests.compat_oslo import deployment
from tests.compat_oslo.test_bridge import CONTEXT
from tests.compat_oslo.test_bridge_notifications import Listener

pytestmark = pytest.mark.oracle

# Heat's engine stores the caller's password instead of asking Keystone for a trust.
CALLER = {**CONTEXT, "password": "secret-of-bridger"}
TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "description": "Notified",
    "resources": {"only": {"type": "OS::Heat::None"}},
}
UPDATED = {
    "heat_template_version": "2018-08-31",
    "description": "Notified again",
    "resources": {"only": {"type": "OS::Heat::None"}, "more": {"type": "OS::Heat::None"}},
}
FAILING = {
    "heat_template_version": "2018-08-31",
    "resources": {"broken": {"type": "OS::Heat::TestResource", "properties": {"fail": True}}},
}
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")

# (RPC method, its arguments, the state to wait for before the next call)
Step = tuple[str, dict[str, Any], str | None]
UNTAGGED: list[Step] = [
    ("create_stack", {"template": TEMPLATE, "args": {"disable_rollback": True}}, "CREATE_COMPLETE"),
    ("update_stack", {"template": UPDATED, "args": {}}, "UPDATE_COMPLETE"),
    ("stack_suspend", {}, "SUSPEND_COMPLETE"),
    ("stack_resume", {}, "RESUME_COMPLETE"),
    ("stack_check", {}, "CHECK_COMPLETE"),
    ("delete_stack", {}, None),
]
TAGGED: list[Step] = [
    ("create_stack", {"template": TEMPLATE, "args": {"tags": ["red", "blue"]}}, "CREATE_COMPLETE"),
    ("update_stack", {"template": UPDATED, "args": {"existing": True}}, "UPDATE_COMPLETE"),
    ("stack_check", {}, "CHECK_COMPLETE"),
    ("delete_stack", {}, None),
]
RETAGGED: list[Step] = [
    ("create_stack", {"template": TEMPLATE, "args": {"tags": ["red", "blue"]}}, "CREATE_COMPLETE"),
    ("update_stack", {"template": UPDATED, "args": {"tags": ["green"]}}, "UPDATE_COMPLETE"),
    ("update_stack", {"template": TEMPLATE, "args": {}}, "UPDATE_COMPLETE"),
    ("delete_stack", {}, None),
]
FAILED: list[Step] = [
    ("create_stack", {"template": FAILING, "args": {"disable_rollback": True}}, "CREATE_FAILED"),
]
FLOWS = {"untagged": UNTAGGED, "tagged": TAGGED, "retagged": RETAGGED, "failed": FAILED}
# Without Keystone, Heat's create_stack cannot make the stack-user project and records
# CREATE_FAILED with this reason before it goes on to create the stack anyway.
NO_KEYSTONE_REASON = "Authorization failed."
NOTIFICATIONS_A_STEP = 2


class Side:
    """One engine's peer and the listener of its notifications."""

    def __init__(self, oslo_url: str) -> None:
        self.listener = Listener(oslo_url)
        self.peer = deployment.HeatPeer(oslo_url)

    def close(self) -> None:
        self.peer.close()
        self.listener.close()

    def call(self, method: str, **kwargs: Any) -> Any:
        answer = self.peer.request(method=method, kwargs=kwargs, context=CALLER)
        assert "error" not in answer, answer
        return answer["result"]

    def wait_for(self, identity: dict[str, Any], state: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            (shown,) = self.call("show_stack", stack_identity=identity)
            if f"{shown['stack_action']}_{shown['stack_status']}" == state:
                return
            time.sleep(0.3)
        raise AssertionError(f"never {state}")

    def next_notification(self) -> dict[str, Any]:
        while True:
            notification = self.listener.next()
            if notification["payload"]["state_reason"] != NO_KEYSTONE_REASON:
                return notification

    def run(self, stack_name: str, steps: list[Step]) -> list[dict[str, Any]]:
        """The notifications of the steps, each made comparable."""
        identity: dict[str, Any] = {}
        received = []
        for method, arguments, state in steps:
            if method == "create_stack":
                identity = self.call(
                    method, stack_name=stack_name, params={}, files={}, **arguments
                )
            else:
                if method == "update_stack":
                    arguments = {"params": {}, "files": {}, **arguments}
                self.call(method, stack_identity=identity, **arguments)
            received += [self.next_notification() for _ in range(NOTIFICATIONS_A_STEP)]
            if state is not None:
                self.wait_for(identity, state)
        return [comparable(one, identity["stack_id"], stack_name) for one in received]


def comparable(notification: dict[str, Any], stack_id: str, stack_name: str) -> dict[str, Any]:
    payload = dict(notification["payload"])
    assert (payload["stack_identity"], payload["stack_name"]) == (stack_id, stack_name)
    payload["stack_identity"], payload["stack_name"] = "<id>", "<name>"
    for key in ("create_at", "updated_at"):
        if payload.get(key) is not None:
            assert ISO_TIME.fullmatch(payload[key]), payload[key]
            payload[key] = "<time>"
    return {
        "priority": notification["priority"],
        "event_type": notification["event_type"],
        "keys": list(notification["payload"]),
        "payload": payload,
    }


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Side]]:
    directory: Path = tmp_path_factory.mktemp("notifications-against-heat")
    with (
        deployment.deployment(directory, notifications=True) as deployed,
        fleet.rabbit_vhost() as heat_url,
        deployment.heat_engine(
            directory,
            deployed["database_url"],
            heat_url,
            host="heat-notifying-host",
            defaults="deferred_auth_method = password\n",
            sections=deployment.notifications_conf(heat_url),
        ),
    ):
        ours, heats = Side(deployed["oslo_url"]), Side(heat_url)
        try:
            yield {"ours": ours, "heats": heats}
        finally:
            ours.close()
            heats.close()


@pytest.mark.parametrize("flow", FLOWS)
def test_notifications_are_heats_field_by_field(sides: dict[str, Side], flow: str) -> None:
    heats = sides["heats"].run(f"heat-{flow}", FLOWS[flow])
    ours = sides["ours"].run(f"keel-{flow}", FLOWS[flow])

    assert ours == heats
