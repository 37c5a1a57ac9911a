"""Real OpenKeel engine processes for integration tests: a private RabbitMQ vhost, a
heat.conf, and ``keel-worker`` subprocesses that can be stopped or killed."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import kombu.pools
import sqlalchemy as sa

from keel_app.models.service import Service
from keel_app.tasks.app import app
from keel_app.tasks.liveness import NODE_PREFIX

RABBITMQ = "127.0.0.1:5672"
ENCRYPTION_KEY = "fleet-tests-key-of-32-characters"


def _rabbitmqctl(*arguments: str) -> None:
    subprocess.run(["rabbitmqctl", "-q", *arguments], check=True, capture_output=True, timeout=60)


@contextlib.contextmanager
def rabbit_vhost() -> Iterator[str]:
    """A vhost of its own, so that no other test's messages reach these workers; its URL."""
    name = f"keel-test-{uuid.uuid4().hex[:10]}"
    _rabbitmqctl("add_vhost", name)
    try:
        _rabbitmqctl("set_permissions", "-p", name, "guest", ".*", ".*", ".*")
        yield f"amqp://guest:guest@{RABBITMQ}/{name}"
    finally:
        _rabbitmqctl("delete_vhost", name)


@contextlib.contextmanager
def broker(url: str) -> Iterator[None]:
    """Point this process's Celery app (the sending side) at ``url`` for a while."""
    previous = app.conf.broker_url
    _switch_broker(url)
    try:
        yield
    finally:
        _switch_broker(previous)


def _switch_broker(url: str) -> None:
    # The app's pools are kombu's process-wide ones, kept per broker URL: closing them is
    # not enough, as the next use of the same URL would get the closed pool back.
    kombu.pools.reset()
    # Celery's own reset after a fork: the next send opens fresh connection pools.
    app._after_fork()
    app.conf.broker_url = url


def write_heat_conf(
    directory: Path,
    database_url: str,
    periodic_interval: int = 1,
    max_resources_per_stack: int = 1000,
    transport_url: str | None = None,
) -> Path:
    path = directory / "heat.conf"
    path.write_text(
        "[DEFAULT]\n"
        + (f"transport_url = {transport_url}\n" if transport_url else "")
        + f"auth_encryption_key = {ENCRYPTION_KEY}\n"
        f"periodic_interval = {periodic_interval}\n"
        f"max_resources_per_stack = {max_resources_per_stack}\n"
        "[database]\n"
        f"connection = {database_url}\n"
        # No Keystone in these deployments: engines need no stack-user domain.
        "[paste_deploy]\nflavor = noauth\n"
    )
    return path


class Fleet:
    """``keel-worker`` processes sharing one heat.conf and one broker.

    The workers are told the broker by ``KEEL_BROKER_URL``, or, with
    ``broker_from_heat_conf``, find it as an operator's do: heat.conf's transport_url.
    """

    def __init__(
        self,
        conf_path: Path,
        broker_url: str,
        log_directory: Path,
        *,
        broker_from_heat_conf: bool = False,
    ):
        self.conf_path = conf_path
        self.broker_url = broker_url
        self.log_directory = log_directory
        self.broker_from_heat_conf = broker_from_heat_conf
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(
        self, count: int = 1, concurrency: int = 4, extra_arguments: tuple[str, ...] = ()
    ) -> None:
        environment = {**os.environ, "KEEL_BROKER_URL": self.broker_url}
        if self.broker_from_heat_conf:
            del environment["KEEL_BROKER_URL"]
        for _ in range(count):
            log = open(self.log_directory / f"worker-{len(self.processes)}.log", "wb")  # noqa: SIM115
            self.processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "keel_app.cli.worker",
                        "--config-file",
                        str(self.conf_path),
                        "--concurrency",
                        str(concurrency),
                        "--loglevel",
                        "WARNING",
                        *extra_arguments,
                    ],
                    env=environment,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
            log.close()
        self.wait_ready(len(self.alive()))

    def alive(self) -> list[subprocess.Popen[bytes]]:
        return [process for process in self.processes if process.poll() is None]

    def nodes(self, timeout: float = 1.0) -> set[str]:
        replies = app.control.ping(timeout=timeout)
        return {name for reply in replies for name in reply if name.startswith(NODE_PREFIX)}

    def wait_ready(self, count: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.nodes()) >= count:
                return
            if any(process.poll() is not None for process in self.processes[-count:]):
                break
        raise RuntimeError(f"keel-worker did not come up; see {self.log_directory}")

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)

    def stop(self) -> None:
        for process in self.alive():
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def engine_ids(database_url: str) -> list[str]:
    """The engine ids of the live service rows."""
    engine = sa.create_engine(database_url, poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            return list(
                connection.scalars(sa.select(Service.engine_id).where(Service.deleted_at.is_(None)))
            )
    finally:
        engine.dispose()
