"""OpenKeel's stack notifications as Heat sends them, received by oslo.messaging's own
notification listener (in the oracle's environment) while Heat's EngineClient creates,
updates and deletes a stack through keel-bridge."""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import oracle
from tests.compat_oslo import deployment
from tests.compat_oslo.test_bridge import CONTEXT, TENANT

pytestmark = pytest.mark.oracle

# Runs in the oracle: prints one JSON line a notification, as oslo hands it over.
LISTENER = """
import json, sys
from oslo_config import cfg
import oslo_messaging
cfg.CONF([], project="heat", default_config_files=[])
oslo_messaging.set_transport_defaults("heat")
transport = oslo_messaging.get_notification_transport(cfg.CONF, sys.argv[1])

class Endpoint:
    def _emit(self, priority, ctxt, publisher_id, event_type, payload, metadata):
        print(json.dumps({"priority": priority, "publisher_id": publisher_id,
                          "event_type": event_type, "payload": payload,
                          "context_user": ctxt.get("user"),
                          "context_token": ctxt.get("auth_token")}), flush=True)

    def info(self, ctxt, publisher_id, event_type, payload, metadata):
        self._emit("INFO", ctxt, publisher_id, event_type, payload, metadata)

    def error(self, ctxt, publisher_id, event_type, payload, metadata):
        self._emit("ERROR", ctxt, publisher_id, event_type, payload, metadata)

listener = oslo_messaging.get_notification_listener(
    transport, [oslo_messaging.Target(topic="notifications")], [Endpoint()],
    executor="threading")
listener.start()
print(json.dumps({"ready": True}), flush=True)
sys.stdin.readline()
listener.stop()
listener.wait()
"""

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
PAYLOAD_KEYS = [
    "tenant_id",
    "user_id",
    "user_identity",
    "username",
    "stack_identity",
    "stack_name",
    "state",
    "state_reason",
    "create_at",
    "tags",
    "updated_at",
    "description",
]


class Listener:
    def __init__(self, oslo_url: str) -> None:
        self.process = subprocess.Popen(
            [str(oracle.python()), "-c", LISTENER, deployment.rabbit_url(oslo_url)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
        self.received: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.next(60) == {"ready": True}

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("{"):
                self.received.put(json.loads(line))

    def next(self, timeout: float = 60) -> dict[str, Any]:
        return self.received.get(timeout=timeout)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("\n")
        self.process.stdin.close()
        self.process.wait(timeout=60)
        if self.process.stdout is not None:
            self.process.stdout.close()


@pytest.fixture(scope="module")
def notified(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    directory: Path = tmp_path_factory.mktemp("notifications")
    with deployment.deployment(directory, notifications=True) as deployed:
        listener = Listener(deployed["oslo_url"])
        peer = deployment.HeatPeer(deployed["oslo_url"])
        try:
            yield {**deployed, "listener": listener, "peer": peer}
        finally:
            peer.close()
            listener.close()


def request(notified: dict[str, Any], method: str, **kwargs: Any) -> Any:
    answer = notified["peer"].request(method=method, kwargs=kwargs, context=CONTEXT)
    assert "error" not in answer, answer
    return answer["result"]


def notifications(notified: dict[str, Any], count: int) -> list[dict[str, Any]]:
    return [notified["listener"].next() for _ in range(count)]


def wait_for_state(notified: dict[str, Any], identity: dict[str, Any], state: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        (shown,) = request(notified, "show_stack", stack_identity=identity)
        if f"{shown['stack_action']}_{shown['stack_status']}" == state:
            return
        time.sleep(0.3)
    raise AssertionError(f"never {state}")


def test_create_update_and_delete_are_notified_as_heat_notifies_them(notified):
    arguments = {"template": TEMPLATE, "params": {}, "files": {}, "args": {}}
    identity = request(notified, "create_stack", stack_name="notified", **arguments)
    created = notifications(notified, 2)
    wait_for_state(notified, identity, "CREATE_COMPLETE")
    request(
        notified,
        "update_stack",
        stack_identity=identity,
        template=UPDATED,
        params={},
        files={},
        args={},
    )
    updated = notifications(notified, 2)
    wait_for_state(notified, identity, "UPDATE_COMPLETE")
    request(notified, "delete_stack", stack_identity=identity)
    deleted = notifications(notified, 2)
    received = created + updated + deleted

    assert [(one["priority"], one["event_type"]) for one in received] == [
        ("INFO", "orchestration.stack.create.start"),
        ("INFO", "orchestration.stack.create.end"),
        ("INFO", "orchestration.stack.update.start"),
        ("INFO", "orchestration.stack.update.end"),
        ("INFO", "orchestration.stack.delete.start"),
        ("INFO", "orchestration.stack.delete.end"),
    ]
    # Each operation starts in the bridge (host bridge-host) and ends in the keel-worker
    # that ran its last step (this machine's host name, heat.conf's default).
    bridge, worker = "orchestration.bridge-host", f"orchestration.{socket.gethostname()}"
    assert [one["publisher_id"] for one in received] == [bridge, worker] * 3
    assert [list(one["payload"]) for one in received] == [PAYLOAD_KEYS] * 6
    first = received[0]["payload"]
    assert {key: first[key] for key in PAYLOAD_KEYS if key not in ("create_at",)} == {
        "tenant_id": TENANT,
        "user_id": "bridger",
        "user_identity": "user-bridge",
        "username": "bridger",
        "stack_identity": identity["stack_id"],
        "stack_name": "notified",
        "state": "CREATE_IN_PROGRESS",
        "state_reason": "Stack CREATE started",
        "tags": [],
        "updated_at": None,
        "description": "Notified",
    }
    assert [(one["payload"]["state"], one["payload"]["state_reason"]) for one in received] == [
        ("CREATE_IN_PROGRESS", "Stack CREATE started"),
        ("CREATE_COMPLETE", "Stack CREATE completed successfully"),
        ("UPDATE_IN_PROGRESS", "Stack UPDATE started"),
        ("UPDATE_COMPLETE", "Stack UPDATE completed successfully"),
        ("DELETE_IN_PROGRESS", "Stack DELETE started"),
        ("DELETE_COMPLETE", "Stack DELETE completed successfully"),
    ]
    assert received[3]["payload"]["description"] == "Notified again"


def test_notifications_carry_no_credentials(notified):
    arguments = {"template": TEMPLATE, "params": {}, "files": {}, "args": {}}
    request(notified, "create_stack", stack_name="notified-quietly", **arguments)
    (start, end) = notifications(notified, 2)
    assert [(one["context_user"], one["context_token"]) for one in (start, end)] == [
        ("user-bridge", None),
        ("user-bridge", None),
    ]


def test_a_failed_create_is_an_error_notification(notified):
    failing = {
        "heat_template_version": "2018-08-31",
        "resources": {"broken": {"type": "OS::Heat::TestResource", "properties": {"fail": True}}},
    }
    arguments = {"template": failing, "params": {}, "files": {}, "args": {"disable_rollback": True}}
    request(notified, "create_stack", stack_name="notified-failure", **arguments)
    (start, failure) = notifications(notified, 2)
    assert (start["priority"], start["event_type"]) == ("INFO", "orchestration.stack.create.start")
    assert (
        failure["priority"],
        failure["event_type"],
        failure["payload"]["state"],
        failure["payload"]["state_reason"],
    ) == (
        "ERROR",
        "orchestration.stack.create.error",
        "CREATE_FAILED",
        "Resource CREATE failed: ValueError: resources.broken: Test Resource failed broken",
    )
