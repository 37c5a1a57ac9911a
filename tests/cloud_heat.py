"""Heat 27.0.1 itself (the oracle's heat-engine and heat-api) behind the test cloud's
Keystone, beside OpenKeel: the same templates run through both against the same Nova,
Neutron, Cinder, Glance and Swift.

Heat gets what OpenKeel's distributed form gets (tests/cli/distributed.py): the same
heat.conf sections for that Keystone (trusts, the stack-user domain, the service user), a
fresh MariaDB database migrated to Heat's schema and a RabbitMQ vhost of its own. Its
engine runs two workers (Heat's default on this two-core machine); heat-api is Heat's
WSGI application served by its ``heat-wsgi-api`` script.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from heatclient import client as heat_client
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from keel_app.web.spare_ports import free_port
from tests import databases, fleet, oracle
from tests.cli.distributed import HOST, wait_for_http, write_conf
from tests.keystone import ALICE, USER_PASSWORD, Keystone
from tests.models.api.factories import migrated_database

ENGINE_WORKERS = 2


def _oracle_process(command: list[str], log_path: Path) -> subprocess.Popen[bytes]:
    with open(log_path, "wb") as log:
        return subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
            start_new_session=True,
        )


def _wait_for_engine(vhost_url: str, engine: subprocess.Popen[bytes], log_path: Path) -> None:
    """Until every engine worker consumes the ``engine`` topic: oslo.messaging drops a call
    sent before its queue is bound."""
    vhost = vhost_url.rsplit("/", 1)[1]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if engine.poll() is not None:
            raise RuntimeError(f"heat-engine exited:\n{log_path.read_text()[-3000:]}")
        listed = subprocess.run(
            ["rabbitmqctl", "-q", "list_queues", "-p", vhost, "name", "consumers"],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        consumers = dict(line.split("\t", 1) for line in listed.splitlines() if "\t" in line)
        if consumers.get("engine", "0").strip() == str(ENGINE_WORKERS):
            return
        time.sleep(1)
    raise RuntimeError("heat-engine did not consume its topic within 120 s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextlib.contextmanager
def heat_behind_keystone(directory: Path, keystone: Keystone) -> Iterator[str]:
    """heat-engine and heat-api running; heat-api's base URL (``.../v1``)."""
    oracle.ensure()
    directory.mkdir(parents=True, exist_ok=True)
    environment_dir = directory / "environment.d"
    environment_dir.mkdir(exist_ok=True)
    oracle.shipped_environment_dir(environment_dir)
    with (
        fleet.rabbit_vhost() as vhost_url,
        databases.fresh_database("mysql", directory) as database_url,
    ):
        migrated_database(database_url).dispose()
        defaults = (
            f"num_engine_workers = {ENGINE_WORKERS}\n"
            f"environment_dir = {environment_dir}\n"
            f"template_dir = {oracle.VENV / 'etc' / 'heat' / 'templates'}\n"
        )
        conf_path = write_conf(directory, keystone, database_url, vhost_url, defaults)
        with open(conf_path, "a") as conf:
            conf.write(
                f"[paste_deploy]\napi_paste_config = {oracle.VENV / 'etc/heat/api-paste.ini'}\n"
            )
        port = free_port(HOST)
        engine = _oracle_process(
            [str(oracle.VENV / "bin" / "heat-engine"), "--config-file", str(conf_path)],
            directory / "heat-engine.log",
        )
        api = _oracle_process(
            [
                str(oracle.VENV / "bin" / "heat-wsgi-api"),
                "--host",
                HOST,
                "--port",
                str(port),
                "--",
                "--config-file",
                str(conf_path),
            ],
            directory / "heat-api.log",
        )
        try:
            _wait_for_engine(vhost_url, engine, directory / "heat-engine.log")
            wait_for_http(f"http://{HOST}:{port}/", api, directory / "heat-api.log")
            yield f"http://{HOST}:{port}/v1"
        finally:
            _stop(api)
            _stop(engine)


@contextlib.contextmanager
def alice_reference_heat(keystone: Keystone, directory: Path) -> Iterator[Any]:
    """alice's python-heatclient of Heat 27.0.1 running against the test cloud."""
    with heat_behind_keystone(directory, keystone) as base_url:
        auth = v3.Password(
            auth_url=keystone.auth_url,
            username=ALICE.user_name,
            password=USER_PASSWORD,
            project_name=ALICE.project_name,
            user_domain_id="default",
            project_domain_id="default",
        )
        session = ks_session.Session(auth=auth)
        project_id = session.get_project_id()
        yield heat_client.Client("1", session=session, endpoint_override=f"{base_url}/{project_id}")
