"""keel-bridge on RabbitMQ, called by Heat 27.0.1's own EngineClient (oslo.messaging in the
oracle's environment): the calls heat-api makes get Heat's answers and Heat's errors,
while OpenKeel's keel-worker does the convergence work."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kombu import Connection, Exchange, Queue

from keel_app.tasks import context_wire
from keel_app.tasks.dispatcher import engine_queue
from tests import fleet
from tests.compat_oslo import deployment

pytestmark = pytest.mark.oracle

TENANT = "project-bridge"
CONTEXT = {
    "user_id": "user-bridge",
    "project_id": TENANT,
    "username": "bridger",
    "auth_token": "clear-text-token-of-bridger",
    "roles": ["member", "reader"],
    "is_admin": False,
}
NONE_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"first": {"type": "OS::Heat::None"}, "second": {"type": "OS::Heat::None"}},
    "outputs": {"name": {"value": {"get_param": "OS::stack_name"}}},
}
CREATE_ARGUMENTS = {"disable_rollback": True, "timeout_mins": 5}


@pytest.fixture(scope="module")
def bridged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    directory: Path = tmp_path_factory.mktemp("bridge")
    with deployment.deployment(directory) as deployed:
        peer = deployment.HeatPeer(deployed["oslo_url"])
        deployed["peer"] = peer
        yield deployed
        peer.close()


def call(bridged: dict[str, Any], method: str, context: dict[str, Any] | None = None, **kwargs):
    return bridged["peer"].request(method=method, kwargs=kwargs, context=context or CONTEXT)


def result(bridged: dict[str, Any], method: str, **kwargs: Any) -> Any:
    answer = call(bridged, method, **kwargs)
    assert "error" not in answer, answer
    return answer["result"]


def raw(bridged: dict[str, Any], **request: Any) -> dict[str, Any]:
    return bridged["peer"].request(raw=True, context=CONTEXT, **request)


def create(bridged: dict[str, Any], name: str) -> dict[str, Any]:
    return result(
        bridged,
        "create_stack",
        stack_name=name,
        template=NONE_TEMPLATE,
        params={},
        files={},
        args=CREATE_ARGUMENTS,
    )


def wait_for_status(bridged: dict[str, Any], identity: dict[str, Any], status: str) -> dict:
    """The stack as show_stack gives it once ``<action>_<status>`` is ``status``."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        shown = result(bridged, "show_stack", stack_identity=identity, resolve_outputs=True)
        if shown and f"{shown[0]['stack_action']}_{shown[0]['stack_status']}" == status:
            return shown[0]
        time.sleep(0.3)
    raise AssertionError(f"stack {identity} never reached {status}")


def test_list_stacks_of_an_empty_project(bridged):
    assert result(bridged, "list_stacks") == []


def test_create_stack_answers_the_identity_and_the_fleet_completes_it(bridged):
    identity = create(bridged, "bridged-create")
    assert set(identity) == {"stack_name", "stack_id", "tenant", "path"}
    assert (identity["stack_name"], identity["tenant"], identity["path"]) == (
        "bridged-create",
        TENANT,
        "",
    )
    shown = wait_for_status(bridged, identity, "CREATE_COMPLETE")
    assert (shown["stack_name"], shown["stack_status_reason"], shown["outputs"]) == (
        "bridged-create",
        "Stack CREATE completed successfully",
        [
            {
                "output_key": "name",
                "output_value": "bridged-create",
                "description": "No description given",
            }
        ],
    )


def test_identify_and_list_stacks_find_the_created_stack(bridged):
    identity = create(bridged, "bridged-identify")
    assert result(bridged, "identify_stack", stack_name="bridged-identify") == identity
    listed = result(bridged, "list_stacks")
    assert identity["stack_id"] in {stack["stack_identity"]["stack_id"] for stack in listed}


def test_delete_stack_through_the_bridge(bridged):
    identity = create(bridged, "bridged-delete")
    wait_for_status(bridged, identity, "CREATE_COMPLETE")
    assert result(bridged, "delete_stack", stack_identity=identity) is None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = call(bridged, "identify_stack", stack_name="bridged-delete")
        if "error" in answer:
            break
        time.sleep(0.3)
    assert (answer["error"]["heat_class"], answer["error"]["message"]) == (
        "EntityNotFound",
        "The Stack (bridged-delete) could not be found.",
    )


def test_a_missing_stack_is_heats_entity_not_found_rebuilt_by_class_name(bridged):
    missing = {"stack_name": "nowhere", "stack_id": "0" * 36, "tenant": TENANT, "path": ""}
    answer = call(bridged, "show_stack", stack_identity=missing)
    assert answer == {
        "error": {
            "type": "EntityNotFound_Remote",
            # oslo's rebuilt class lives in a module of that name.
            "module": "heat.common.exception_Remote",
            "is_heat_exception": True,
            "heat_class": "EntityNotFound",
            "is_remote_error": False,
            "is_timeout": False,
            "exc_type": None,
            "value": None,
            "message": "The Stack (nowhere) could not be found.",
        }
    }


def test_a_version_above_the_engines_is_refused_as_oslo_refuses_it(bridged):
    answer = raw(bridged, topic="engine", version="1.37", method="list_stacks")
    assert answer["error"] == {
        "type": "RemoteError",
        "module": "oslo_messaging.rpc.client",
        "is_heat_exception": False,
        "heat_class": None,
        "is_remote_error": True,
        "is_timeout": False,
        "exc_type": "UnsupportedVersion",
        "value": "Endpoint does not support RPC version 1.37. Attempted method: list_stacks",
        "message": "Remote error: UnsupportedVersion Endpoint does not support RPC version "
        "1.37. Attempted method: list_stacks",
    }


def test_a_worker_version_above_1_9_is_refused(bridged):
    answer = raw(bridged, topic="engine_worker", version="1.10", method="check_resource")
    assert (answer["error"]["exc_type"], answer["error"]["value"]) == (
        "UnsupportedVersion",
        "Endpoint does not support RPC version 1.10. Attempted method: check_resource",
    )


def test_a_call_to_the_bridges_host_queue_is_served(bridged):
    """engine.<host> (Heat's EngineService server name) reaches the bridge too."""
    counted = raw(
        bridged,
        topic="engine",
        server="bridge-host",
        version="1.33",
        method="count_stacks",
        kwargs={
            "filters": None,
            "show_deleted": False,
            "show_nested": False,
            "show_hidden": False,
            "tags": None,
            "tags_any": None,
            "not_tags": None,
            "not_tags_any": None,
        },
    )
    assert counted == {"result": len(result(bridged, "list_stacks"))}


def test_a_live_openkeel_engine_answers_listening(bridged):
    (engine_id,) = deployment_engine_ids(bridged)
    deadline = time.monotonic() + 30
    while True:
        answer = raw(
            bridged, topic="heat-engine-listener", server=engine_id, method="listening", timeout=2
        )
        if "result" in answer or time.monotonic() > deadline:
            break
    assert answer == {"result": True}


def test_an_unknown_engine_does_not_answer_listening(bridged):
    answer = raw(
        bridged,
        topic="heat-engine-listener",
        server="no-such-engine",
        method="listening",
        timeout=2,
    )
    assert (answer["error"]["type"], answer["error"]["is_timeout"]) == ("MessagingTimeout", True)


def deployment_engine_ids(bridged: dict[str, Any]) -> list[str]:
    return fleet.engine_ids(bridged["database_url"])


def bridge_engine_id(bridged: dict[str, Any]) -> str:
    """The bridge's own engine id: the engine_worker.<id> queue no keel-worker owns."""
    vhost = bridged["oslo_url"].rsplit("/", 1)[1]
    listed = subprocess.run(
        ["rabbitmqctl", "-q", "list_queues", "-p", vhost, "name"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    prefix = "engine_worker."
    owned = {name[len(prefix) :] for name in listed if name.startswith(prefix)}
    (engine_id,) = owned - set(deployment_engine_ids(bridged))
    return engine_id


def test_a_heat_engines_cast_reaches_celery_with_the_token_sealed(bridged):
    """cancel_check_resource cast by a Heat engine to the bridge's engine id becomes a
    keel.cancel_check_resource task on that engine's Celery queue, read off it here."""
    engine_id = bridge_engine_id(bridged)
    answer = raw(
        bridged,
        topic="engine_worker",
        server=engine_id,
        version="1.3",
        method="cancel_check_resource",
        kwargs={"stack_id": "stack-to-cancel"},
        cast=True,
    )
    assert answer == {"result": None}
    name = engine_queue(engine_id)
    queue = Queue(name, exchange=Exchange(name))
    deadline = time.monotonic() + 30
    message = None
    with Connection(bridged["celery_url"]) as connection:
        while message is None and time.monotonic() < deadline:
            try:
                message = queue(connection.default_channel).get(no_ack=True)
            except connection.channel_errors:
                pass
            time.sleep(0.2)
    assert message is not None
    assert message.headers["task"] == "keel.cancel_check_resource"
    body = message.body.decode() if isinstance(message.body, bytes) else message.body
    assert "clear-text-token-of-bridger" not in body
    _, kwargs, _ = json.loads(body)
    assert kwargs["stack_id"] == "stack-to-cancel"
    context = context_wire.unseal(kwargs["context"], fleet.ENCRYPTION_KEY)
    assert (context.auth_token, context.user_id, context.project_id) == (
        "clear-text-token-of-bridger",
        "user-bridge",
        TENANT,
    )
