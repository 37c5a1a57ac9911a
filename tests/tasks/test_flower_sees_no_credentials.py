"""What Flower shows of the fleet's tasks: the steps, and never a clear-text credential.

A real Flower process watches the broker while a real worker runs a stack created with a
context that carries a token and a password; Flower's task API lists the convergence steps
with their arguments, in which the credentials only appear sealed. Workers send task events
however they find their broker: told by ``KEEL_BROKER_URL``, or by heat.conf's transport_url
as an operator starts them (``keel-worker --config-file heat.conf``).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from keel_app.engine.service import stacks as service
from keel_app.tasks.context_wire import SEALED_KEY
from keel_app.tasks.engine_rpc import engine_client
from keel_app.web.spare_ports import free_port
from tests import fleet

TOKEN = "token-of-alice"
PASSWORD = "password-of-alice"


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.loads(answer.read())


@contextlib.contextmanager
def running_flower(vhost_url: str, directory: Path) -> Iterator[str]:
    """A real Flower on ``vhost_url``; the base URL of its HTTP API."""
    port = free_port()
    log = open(directory / "flower.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "--broker",
            vhost_url,
            "flower",
            "--address=127.0.0.1",
            f"--port={port}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        # Flower 2 serves its task API only to the authenticated, unless told otherwise.
        env={**os.environ, "FLOWER_UNAUTHENTICATED_API": "true"},
    )
    log.close()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                _get(f"{base}/api/tasks")
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def wait_until_flower_hears_a_worker(flower: str, timeout: float = 30) -> None:
    """Return once Flower's event receiver has heard a worker (its online event or a
    heartbeat). Flower answers HTTP before that receiver consumes, and a task whose
    task-received event went by unheard is listed without a name."""
    deadline = time.monotonic() + timeout
    while not _get(f"{flower}/workers?json=1")["data"]:
        assert time.monotonic() < deadline, "Flower heard no worker"
        time.sleep(0.2)


@pytest.fixture
def flower(vhost_url: str, tmp_path: Path) -> Iterator[str]:
    with running_flower(vhost_url, tmp_path) as base:
        yield base


@pytest.mark.parametrize("fleet_database_url", ["mysql"], indirect=True)
def test_flower_lists_the_steps_with_sealed_credentials_only(
    flower, workers, fleet_database, api_settings, dispatcher, context
) -> None:
    workers.start(1)
    wait_until_flower_hears_a_worker(flower)
    context.password = PASSWORD
    service.create_stack(
        context,
        api_settings,
        fleet_database,
        dispatcher,
        stack_name="watched",
        template={
            "heat_template_version": "2015-04-30",
            "resources": {"a": {"type": "OS::Heat::None"}, "b": {"type": "OS::Heat::None"}},
        },
        params={},
        files={},
        args={},
    )
    deadline = time.monotonic() + 60
    while True:
        tasks = _get(f"{flower}/api/tasks")
        steps = [task for task in tasks.values() if task.get("name") == "keel.check_resource"]
        if len([task for task in steps if task.get("state") == "SUCCESS"]) >= 2:
            break
        assert time.monotonic() < deadline, f"Flower saw {tasks}"
        time.sleep(0.3)

    shown = json.dumps(tasks)
    assert TOKEN not in shown
    assert PASSWORD not in shown
    assert all(SEALED_KEY in task["kwargs"] for task in steps)
    assert all("'project_id': 'project-a'" in task["kwargs"] for task in steps)


HIDDEN_VALUE = "database-password-of-alice"


@pytest.mark.parametrize("fleet_database_url", ["mysql"], indirect=True)
def test_flower_shows_an_engine_calls_method_but_not_its_secrets(
    flower, workers, api_settings, context
) -> None:
    workers.start(1)
    wait_until_flower_hears_a_worker(flower)
    client = engine_client(api_settings.auth_encryption_key, timeout=60)
    client.create_stack(
        context,
        "guarded",
        {
            "heat_template_version": "2015-04-30",
            "parameters": {"db_password": {"type": "string", "hidden": True}},
            "resources": {"a": {"type": "OS::Heat::None"}},
        },
        {"parameters": {"db_password": HIDDEN_VALUE}},
        {},
        {},
    )
    deadline = time.monotonic() + 60
    while True:
        tasks = _get(f"{flower}/api/tasks")
        calls = [task for task in tasks.values() if task.get("name") == "keel.engine_call"]
        if any(task.get("state") == "SUCCESS" for task in calls):
            break
        assert time.monotonic() < deadline, f"Flower saw {tasks}"
        time.sleep(0.3)

    [call] = calls
    assert HIDDEN_VALUE not in json.dumps(tasks)
    assert TOKEN not in json.dumps(tasks)
    assert "'method': 'create_stack'" in call["kwargs"]
    assert "'stack_name': 'guarded'" in call["kwargs"]
    assert "'params': '<not shown>'" in call["kwargs"]


@pytest.mark.parametrize("fleet_database_url", ["mysql"], indirect=True)
def test_flower_joining_a_fleet_started_from_heat_conf_lists_its_redacted_tasks(
    vhost_url, fleet_database_url, tmp_path, api_settings, context
) -> None:
    transport_url = vhost_url.replace("amqp://", "rabbit://", 1)
    conf_path = fleet.write_heat_conf(tmp_path, fleet_database_url, transport_url=transport_url)
    workers = fleet.Fleet(conf_path, vhost_url, tmp_path, broker_from_heat_conf=True)
    workers.start(1)
    try:
        # Flower comes to a fleet that is already running, as an operator adds it.
        with running_flower(vhost_url, tmp_path) as flower:
            wait_until_flower_hears_a_worker(flower)
            context.password = PASSWORD
            client = engine_client(api_settings.auth_encryption_key, timeout=60)
            client.create_stack(
                context,
                "from-heat-conf",
                {
                    "heat_template_version": "2015-04-30",
                    "parameters": {"db_password": {"type": "string", "hidden": True}},
                    "resources": {"a": {"type": "OS::Heat::None"}},
                },
                {"parameters": {"db_password": HIDDEN_VALUE}},
                {},
                {},
            )
            tasks = _wait_for_tasks(flower, {"keel.engine_call", "keel.check_resource"})
    finally:
        workers.stop()

    shown = json.dumps(tasks)
    assert HIDDEN_VALUE not in shown
    assert TOKEN not in shown
    assert PASSWORD not in shown
    [call] = [task for task in tasks.values() if task["name"] == "keel.engine_call"]
    assert "'stack_name': 'from-heat-conf'" in call["kwargs"]
    assert "'params': '<not shown>'" in call["kwargs"]
    [step] = [task for task in tasks.values() if task["name"] == "keel.check_resource"]
    assert SEALED_KEY in step["kwargs"]


def _wait_for_tasks(flower: str, names: set[str], timeout: float = 60) -> dict[str, Any]:
    """Flower's task list once a task of each of ``names`` has succeeded."""
    deadline = time.monotonic() + timeout
    while True:
        tasks: dict[str, Any] = _get(f"{flower}/api/tasks")
        done = {task.get("name") for task in tasks.values() if task.get("state") == "SUCCESS"}
        if names <= done:
            return tasks
        assert time.monotonic() < deadline, f"Flower saw {tasks}"
        time.sleep(0.3)
