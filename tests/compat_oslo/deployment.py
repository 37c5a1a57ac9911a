"""A bridge deployment for tests: oslo and Celery vhosts, MariaDB, a ``keel-worker``,
``keel-bridge``, and Heat's own RPC client as the peer (``heat_peer.py`` in the oracle)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kombu import Connection

from tests import databases, fleet, oracle
from tests.models.api.factories import migrated_database

PEER_SCRIPT = Path(__file__).with_name("heat_peer.py")


def rabbit_url(amqp_url: str) -> str:
    """The oslo.messaging form of a kombu URL."""
    return "rabbit://" + amqp_url.partition("://")[2]


def write_bridge_conf(directory: Path, database_url: str, oslo_url: str) -> Path:
    path = directory / "bridge-heat.conf"
    path.write_text(
        "[DEFAULT]\n"
        f"auth_encryption_key = {fleet.ENCRYPTION_KEY}\n"
        f"transport_url = {rabbit_url(oslo_url)}\n"
        "host = bridge-host\n"
        "executor_thread_pool_size = 16\n"
        "[database]\n"
        f"connection = {database_url}\n"
        "[paste_deploy]\nflavor = noauth\n"
    )
    return path


def queue_consumers(amqp_url: str, queue: str) -> int:
    """How many consumers ``queue`` has; 0 when it does not exist."""
    with Connection(amqp_url) as connection:
        try:
            return connection.default_channel.queue_declare(queue, passive=True).consumer_count
        except connection.channel_errors:
            return 0


def wait_for_consumer(amqp_url: str, queue: str, timeout: float = 60, process: Any = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if queue_consumers(amqp_url, queue) > 0:
            return
        if process is not None and process.poll() is not None:
            break
        time.sleep(0.2)
    raise RuntimeError(f"nobody consumes {queue}")


@contextlib.contextmanager
def bridge_process(
    conf_path: Path, celery_url: str, oslo_url: str, log_path: Path
) -> Iterator[Any]:
    environment = {**os.environ, "KEEL_BROKER_URL": celery_url}
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "keel_app.cli.bridge", "--config-file", str(conf_path)],
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_consumer(oslo_url, "engine", process=process)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def heat_engine(
    directory: Path,
    database_url: str,
    oslo_url: str,
    *,
    host: str = "heat-bench-host",
    defaults: str = "",
    sections: str = "",
) -> Iterator[Any]:
    """Heat's own heat-engine (one process) on ``oslo_url`` and the database, until the
    block ends; ``defaults`` are more lines of its heat.conf's [DEFAULT], ``sections``
    more sections after them."""
    conf_path = directory / "heat-engine.conf"
    conf_path.write_text(
        "[DEFAULT]\n"
        f"transport_url = {rabbit_url(oslo_url)}\n"
        f"auth_encryption_key = {fleet.ENCRYPTION_KEY}\n"
        "num_engine_workers = 1\n"
        f"host = {host}\n"
        f"{defaults}"
        "[database]\n"
        f"connection = {database_url}\n"
        f"{sections}"
    )
    with open(directory / "heat-engine.log", "wb") as log:
        process = subprocess.Popen(
            [str(oracle.VENV / "bin" / "heat-engine"), "--config-file", str(conf_path)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
    try:
        wait_for_consumer(oslo_url, f"engine.{host}", timeout=120, process=process)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class HeatPeer:
    """Heat's EngineClient in the oracle, one request at a time."""

    def __init__(self, oslo_url: str) -> None:
        self.url = oslo_url
        self.process = subprocess.Popen(
            [str(oracle.python()), str(PEER_SCRIPT), rabbit_url(oslo_url)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
        try:
            self._read()
        except RuntimeError:
            self.close()
            raise

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the Heat peer stopped")
            if line.startswith("{"):
                answer: dict[str, Any] = json.loads(line)
                return answer

    def request(self, **request: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self.process.wait(timeout=30)


def notifications_conf(oslo_url: str) -> str:
    """heat.conf's lines that send Heat's notifications to the oslo vhost."""
    return (
        "[oslo_messaging_notifications]\n"
        "driver = messagingv2\n"
        f"transport_url = {rabbit_url(oslo_url)}\n"
    )


def _append(path: Path, text: str) -> Path:
    path.write_text(path.read_text() + text)
    return path


@contextlib.contextmanager
def deployment(directory: Path, *, notifications: bool = False) -> Iterator[dict[str, Any]]:
    """Everything the bridge tests run against, torn down in reverse order; with
    ``notifications`` the engines notify on the oslo vhost as Heat's would."""
    with contextlib.ExitStack() as stack:
        # One vhost for oslo's queues and the fleet's Celery queues, as with a Heat
        # deployment's single transport_url.
        oslo_url = celery_url = stack.enter_context(fleet.rabbit_vhost())
        stack.enter_context(fleet.broker(celery_url))
        database_url = stack.enter_context(databases.fresh_database("mysql", directory))
        migrated_database(database_url).dispose()
        extra = notifications_conf(oslo_url) if notifications else ""
        worker_conf = _append(fleet.write_heat_conf(directory, database_url), extra)
        workers = fleet.Fleet(worker_conf, celery_url, directory)
        stack.callback(workers.stop)
        workers.start(1, concurrency=4)
        conf_path = _append(write_bridge_conf(directory, database_url, oslo_url), extra)
        bridge = stack.enter_context(
            bridge_process(conf_path, celery_url, oslo_url, directory / "bridge.log")
        )
        yield {
            "oslo_url": oslo_url,
            "celery_url": celery_url,
            "database_url": database_url,
            "bridge": bridge,
            "workers": workers,
            "directory": directory,
        }
