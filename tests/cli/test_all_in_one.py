"""``keel all-in-one``: the API and an engine in one process on the embedded default."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from keel_app.cli import all_in_one, embedded_engine
from keel_app.common import config
from keel_app.common.context import RequestContext
from keel_app.models import Stack
from keel_app.models.database import Database
from keel_app.models.maintenance import services
from keel_app.models.maintenance.stack_status import RESET_REASON
from tests.cli.all_in_one_process import call, start_all_in_one, stop
from tests.engine.service.chain import ENVIRONMENT, TEMPLATE
from tests.models.api import factories

CALLER = RequestContext(
    user_id="admin", username="admin", project_id="admin", roles=["admin", "member"]
)


def arguments(**values: Any) -> argparse.Namespace:
    defaults = {"state_dir": None, "config_file": [], "config_dir": None}
    return argparse.Namespace(**{**defaults, **values})


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv(config.STATE_DIR_ENV, str(tmp_path))
    started = embedded_engine.start(all_in_one.load_conf(arguments()), threads=2)
    yield started
    started.stop()


def wait_for_status(engine: Any, identity: dict[str, Any], timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while True:
        shown = engine.client.show_stack(CALLER, identity)[0]
        status = f"{shown['stack_action']}_{shown['stack_status']}"
        if not status.endswith("IN_PROGRESS") or time.monotonic() > deadline:
            return status
        time.sleep(0.05)


def test_the_embedded_default_is_sqlite_in_the_state_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(config.STATE_DIR_ENV, str(tmp_path))
    conf = all_in_one.load_conf(arguments())

    assert config.database_url(conf) == f"sqlite:///{tmp_path / 'openkeel.sqlite'}"
    assert conf.paste_deploy.flavor == "noauth"


def test_a_flavor_named_by_the_configuration_file_wins(tmp_path: Path) -> None:
    heat_conf = tmp_path / "heat.conf"
    heat_conf.write_text("[paste_deploy]\nflavor = keystone\n")

    conf = all_in_one.load_conf(arguments(config_file=[str(heat_conf)]))

    assert conf.paste_deploy.flavor == "keystone"


def test_the_engine_threads_build_a_stack_while_the_caller_waits(engine: Any) -> None:
    identity = engine.client.create_stack(CALLER, "web", TEMPLATE, ENVIRONMENT, {}, {})

    assert wait_for_status(engine, identity) == "CREATE_COMPLETE"
    outputs = engine.client.show_stack(CALLER, identity)[0]["outputs"]
    assert {output["output_key"]: output["output_value"] for output in outputs}["joined"] == (
        "X-hello"
    )


def test_the_engine_threads_delete_a_stack(engine: Any) -> None:
    identity = engine.client.create_stack(CALLER, "web", TEMPLATE, ENVIRONMENT, {}, {})
    assert wait_for_status(engine, identity) == "CREATE_COMPLETE"

    engine.client.delete_stack(CALLER, identity)

    deadline = time.monotonic() + 30
    while engine.client.list_stacks(CALLER) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert engine.client.list_stacks(CALLER) == []


def test_the_engine_reports_a_service_row(engine: Any) -> None:
    rows = services.list_services(engine.database)

    assert [(row.engine_id, row.binary, row.status) for row in rows] == [
        (engine.settings.engine_id, "heat-engine", "up")
    ]


def in_progress_stack(database: Database) -> str:
    stack = factories.stack(database, action="CREATE", status="IN_PROGRESS")
    factories.resource(database, stack.id, action="CREATE", status="IN_PROGRESS", engine_id="old")
    return stack.id


def test_a_stack_an_earlier_run_left_in_progress_is_reset(tmp_path: Path) -> None:
    database = factories.migrated_database(f"sqlite:///{tmp_path / 'db.sqlite'}")
    stack_id = in_progress_stack(database)
    name = factories.row(database, Stack, stack_id).name

    assert embedded_engine.reset_orphaned_stacks(database) == [(stack_id, name)]

    row = factories.row(database, Stack, stack_id)
    assert (row.action, row.status, row.status_reason) == ("CREATE", "FAILED", RESET_REASON)
    database.dispose()


def test_nothing_is_reset_while_another_engine_is_up(tmp_path: Path) -> None:
    database = factories.migrated_database(f"sqlite:///{tmp_path / 'db.sqlite'}")
    stack_id = in_progress_stack(database)
    services.register_service(
        database,
        engine_id="other",
        host="h",
        hostname="h",
        binary="heat-engine",
        topic="engine",
        report_interval=60,
    )

    assert embedded_engine.reset_orphaned_stacks(database) == []
    assert factories.row(database, Stack, stack_id).status == "IN_PROGRESS"
    database.dispose()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "keel_app.cli.keel",
            "all-in-one",
            "--port",
            "0",
            # Not 8000, which another service may hold.
            "--cfn-port",
            "0",
            "--state-dir",
            str(tmp_path / "state"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert process.stdout is not None
    banner = process.stdout.readline()
    url = banner.split(" on ")[1].split(" ")[0]
    yield process, url
    if process.poll() is None:
        process.kill()
        process.wait()
    process.stdout.close()


def test_the_command_serves_the_native_api_and_stops_on_sigterm(
    served: tuple[subprocess.Popen[str], str], tmp_path: Path
) -> None:
    process, url = served
    assert url.startswith("http://127.0.0.1:") and url.endswith("/v1/admin")

    with urllib.request.urlopen(f"{url}/build_info", timeout=10) as response:
        assert json.load(response) == {
            "api": {"revision": "unknown"},
            "engine": {"revision": "unknown"},
        }

    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    database = Database(f"sqlite:///{tmp_path / 'state' / 'openkeel.sqlite'}")
    assert services.list_services(database) == []
    database.dispose()


@pytest.mark.parametrize("flag", ["--port", "--cfn-port"])
def test_a_busy_port_stops_the_command_with_one_line_and_nothing_written(
    flag: str, tmp_path: Path
) -> None:
    state_dir = tmp_path / "state"
    with socket.socket() as occupant:
        occupant.bind(("127.0.0.1", 0))
        occupant.listen()
        busy = occupant.getsockname()[1]
        ports = {"--port": "0", "--cfn-port": "0", flag: str(busy)}
        completed = subprocess.run(
            [sys.executable, "-m", "keel_app.cli.keel", "all-in-one", "--state-dir", str(state_dir)]
            + [item for pair in ports.items() for item in pair],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )

    assert completed.returncode == 2
    assert completed.stderr == (
        f"keel all-in-one: port {busy} on 127.0.0.1 is in use (choose another with {flag})\n"
    )
    assert completed.stdout == ""
    # No database, no service row, no catalog file: the state directory was never made.
    assert not state_dir.exists()


LONG_CREATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "slow": {
            "type": "OS::Heat::TestResource",
            "properties": {"action_wait_secs": {"create": 600}},
        }
    },
}


def test_a_restart_after_a_crash_resets_the_stack_the_dead_engine_left_at_once(
    tmp_path: Path,
) -> None:
    state_dir = tmp_path / "state"
    crashed, url = start_all_in_one(state_dir, tmp_path / "crashed.log")
    try:
        stack_id = call(f"{url}/stacks", {"stack_name": "web", "template": LONG_CREATE})["stack"][
            "id"
        ]
        deadline = time.monotonic() + 30
        while (
            call(f"{url}/stacks/web/{stack_id}/resources")["resources"][0]["resource_status"]
            != "CREATE_IN_PROGRESS"
            and time.monotonic() < deadline
        ):
            time.sleep(0.1)
    finally:
        stop(crashed, kill=True)

    restarted, url = start_all_in_one(state_dir, tmp_path / "restarted.log")
    try:
        stack = call(f"{url}/stacks/web/{stack_id}")["stack"]
    finally:
        stop(restarted)

    assert (stack["stack_status"], stack["stack_status_reason"]) == (
        "CREATE_FAILED",
        RESET_REASON,
    )
    assert (
        f"Stack web ({stack_id}) was left IN_PROGRESS by an earlier run: reset to FAILED"
        in (tmp_path / "restarted.log").read_text()
    )


def test_the_command_freezes_its_start_up_objects_before_serving(tmp_path: Path) -> None:
    process, url = start_all_in_one(tmp_path / "state", tmp_path / "all-in-one.log")
    try:
        # Served means past the freeze: it runs between the banner and the first request.
        call(f"{url}/build_info")
    finally:
        stop(process)

    frozen = re.search(r"Froze (\d+) start-up objects", (tmp_path / "all-in-one.log").read_text())
    assert frozen is not None
    assert int(frozen.group(1)) > 100_000
