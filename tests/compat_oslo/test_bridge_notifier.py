"""The oslo notifier of the edge, heard by oslo.messaging's own notification listener:
a scaling group's notifications, priorities, topics and the two messaging drivers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection

from keel_app.common.context import RequestContext
from keel_app.compat_oslo.notifier import OsloNotifier
from keel_app.engine import notification
from keel_app.engine.environment import Environment
from keel_app.engine.settings import EngineSettings
from keel_app.engine.stack import Stack
from keel_app.engine.template import Template
from keel_app.models.database import Database
from tests import fleet
from tests.compat_oslo.test_bridge_notifications import PAYLOAD_KEYS, Listener
from tests.models.api.factories import migrated_database

pytestmark = pytest.mark.oracle

GROUP_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "description": "A scaling stack",
    "resources": {"group": {"type": "OS::Heat::None"}},
}


@pytest.fixture(scope="module")
def vhost_url() -> Iterator[str]:
    with fleet.rabbit_vhost() as url:
        yield url


@pytest.fixture(scope="module")
def listener(vhost_url: str) -> Iterator[Listener]:
    heard = Listener(vhost_url)
    yield heard
    heard.close()


@pytest.fixture
def stored_stack(tmp_path: Path) -> Iterator[Stack]:
    database: Database = migrated_database(f"sqlite:///{tmp_path / 'notifier.sqlite'}")
    context = RequestContext(
        user_id="user-scaler", username="scaler", project_id="project-scaler", roles=["member"]
    )
    template = Template(GROUP_TEMPLATE, env=Environment({}))
    stack = Stack(
        context,
        "scaled",
        template,
        database=database,
        settings=EngineSettings(),
        tags=["blue"],
    )
    stack.store()
    yield stack
    database.dispose()


@pytest.fixture
def notifier(vhost_url: str) -> Iterator[OsloNotifier]:
    sender = OsloNotifier(vhost_url, publisher_id="orchestration.scaler-host")
    notification.install(sender)
    yield sender
    notification.install(None)
    sender.close()


def scale(stack: Stack, phase: str, message: str) -> None:
    notification.send_autoscaling(
        stack,
        phase=phase,
        adjustment=2,
        adjustment_type="change_in_capacity",
        capacity=3,
        groupname="scaled-group-x1y2",
        message=message,
    )


def test_a_scaling_start_is_heats_autoscaling_notification(listener, notifier, stored_stack):
    scale(stored_stack, "start", "Start resizing the group scaled-group-x1y2")
    heard = listener.next()
    assert (heard["priority"], heard["publisher_id"], heard["event_type"]) == (
        "INFO",
        "orchestration.scaler-host",
        "orchestration.autoscaling.start",
    )
    payload = heard["payload"]
    assert list(payload) == [
        *PAYLOAD_KEYS,
        "adjustment_type",
        "adjustment",
        "capacity",
        "groupname",
        "message",
    ]
    assert {key: payload[key] for key in list(payload) if key != "create_at"} == {
        "tenant_id": "project-scaler",
        "user_id": "scaler",
        "user_identity": "user-scaler",
        "username": "scaler",
        "stack_identity": stored_stack.id,
        "stack_name": "scaled",
        "state": "CREATE_IN_PROGRESS",
        "state_reason": "",
        "tags": ["blue"],
        "updated_at": None,
        "description": "A scaling stack",
        "adjustment_type": "change_in_capacity",
        "adjustment": 2,
        "capacity": 3,
        "groupname": "scaled-group-x1y2",
        "message": "Start resizing the group scaled-group-x1y2",
    }


def test_a_failed_scaling_is_an_error(listener, notifier, stored_stack):
    scale(stored_stack, "error", "Resource CREATE failed")
    heard = listener.next()
    assert (heard["priority"], heard["event_type"], heard["payload"]["message"]) == (
        "ERROR",
        "orchestration.autoscaling.error",
        "Resource CREATE failed",
    )


def fetched(url: str, queue_name: str) -> dict[str, Any]:
    with Connection(url) as connection:
        message = connection.default_channel.basic_get(queue_name, no_ack=True)
        assert message is not None
        body = message.body
    return json.loads(body if isinstance(body, str) else body.decode())


def test_each_topic_gets_its_copy_in_a_queue_of_its_own(vhost_url, stored_stack):
    sender = OsloNotifier(
        vhost_url, publisher_id="orchestration.h", topics=("notifications", "audit")
    )
    sender.notify(stored_stack.context, "stack.create.end", {"x": 1}, error=False)
    sender.close()
    envelope = fetched(vhost_url, "audit.info")
    assert envelope["oslo.version"] == "2.0"
    message = json.loads(envelope["oslo.message"])
    assert (message["event_type"], message["priority"], message["payload"]) == (
        "orchestration.stack.create.end",
        "INFO",
        {"x": 1},
    )


def test_the_messaging_driver_sends_no_envelope(vhost_url, stored_stack):
    sender = OsloNotifier(
        vhost_url, publisher_id="orchestration.h", topics=("plain",), enveloped=False
    )
    sender.notify(stored_stack.context, "stack.delete.error", {"y": 2}, error=True)
    sender.close()
    message = fetched(vhost_url, "plain.error")
    assert (message["event_type"], message["priority"], message["payload"]) == (
        "orchestration.stack.delete.error",
        "ERROR",
        {"y": 2},
    )
