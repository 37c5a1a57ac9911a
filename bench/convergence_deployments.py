"""The deployments bench/convergence.py runs stacks through, each with the same face:
``create``/``update``/``delete`` a stack, ``wait`` for its action to end, and read
``rss_mb``, ``tasks_run`` and (where it can be counted) ``counter`` of statements.

- ``Embedded``: the engine in this process on the tests' LocalQueue (a virtual clock,
  one step at a time): the engine's own cost, with no thread or server around it;
- ``AllInOne``: a real ``keel all-in-one`` process (SQLite, its engine threads), driven
  through its native API as a user's client drives it;
- ``FleetDeployment``: ``keel-worker`` processes on RabbitMQ and MariaDB, the stacks sent
  from this process through the service layer as keel-api sends them.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from prometheus_client.parser import text_string_to_metric_families

from keel_app.common.config import SQLITE_FILE_NAME
from keel_app.common.context import RequestContext
from keel_app.engine.convergence.worker import Worker
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.service import stack_update
from keel_app.engine.service import stacks as service
from keel_app.engine.settings import EngineSettings
from keel_app.models import Stack as StackRow
from keel_app.models.database import Database
from keel_app.models.migration import db_sync
from keel_app.web.spare_ports import free_port

MYSQL_SERVER = "mysql+pymysql://root@127.0.0.1:3306"
CONTEXT = RequestContext(
    user_id="bench-user", username="bench", project_id="bench-project", roles=["member"]
)
HOST = "127.0.0.1"


class ServiceLayerCalls:
    """Stack actions sent through the engine's service layer from this process."""

    database: Database
    settings: EngineSettings
    dispatcher: Any

    def create(self, name: str, template: dict[str, Any], files: dict[str, str]) -> dict:
        return self._call(service.create_stack, stack_name=name, template=template, files=files)

    def update(self, identity: dict, template: dict[str, Any], files: dict[str, str]) -> None:
        self._call(
            stack_update.update_stack, stack_identity=identity, template=template, files=files
        )

    def delete(self, identity: dict) -> None:
        service.delete_stack(
            CONTEXT, self.settings, self.database, self.dispatcher, stack_identity=identity
        )

    def _call(self, action: Callable[..., Any], **arguments: Any) -> Any:
        """A create or update as the API sends it: no parameters, no options."""
        return action(
            CONTEXT, self.settings, self.database, self.dispatcher, params={}, args={}, **arguments
        )


class StatementCounter:
    """Statements this process's engine sends (the embedded deployment runs them all)."""

    def __init__(self, database: Database):
        self.count = 0
        for engine in database.engines:
            sa.event.listen(engine, "before_cursor_execute", self._count)

    def _count(self, *_: Any) -> None:
        self.count += 1

    def read(self) -> int:
        return self.count


class ServerQuestions:
    """MariaDB's own statement counter, read through a connection of its own."""

    def __init__(self, url: str):
        self.engine = sa.create_engine(url, poolclass=sa.NullPool)

    def read(self) -> int:
        with self.engine.connect() as connection:
            row = connection.execute(sa.text("SHOW GLOBAL STATUS LIKE 'Questions'")).one()
            return int(row[1])


# Deployments


class Embedded(ServiceLayerCalls):
    name = "embedded (SQLite, in-process queue)"

    def __init__(self, directory: Path):
        self.database = Database(f"sqlite:///{directory / 'bench.sqlite'}")
        db_sync(self.database.engine)
        self.settings = EngineSettings(max_resources_per_stack=20000)
        self.queue = LocalQueue()
        self.queue.handler = Worker(self.database, self.settings, self.queue).handle
        self.counter = StatementCounter(self.database)
        self.dispatcher = self.queue
        self._tasks_counted = 0

    def tasks_run(self) -> int:
        return self._tasks_counted + len(self.queue.delivered)

    def rss_mb(self) -> float:
        """This process's resident memory: the engine runs in it."""
        return resident_mb(os.getpid())

    def wait(self, stack_id: str, action: str) -> str:
        self.queue.run_until_idle(limit=10_000_000)
        # The queue keeps what it delivered (for tests to read): counted and let go here,
        # so that the resident memory measured is the engine's, not that record's.
        self._tasks_counted += len(self.queue.delivered)
        self.queue.delivered.clear()
        return stack_status(self.database, stack_id)

    def close(self) -> None:
        self.database.dispose()


class AllInOne:
    """``keel all-in-one`` in a process of its own, its state in ``directory``."""

    def __init__(self, directory: Path, threads: int):
        self.name = f"all-in-one (keel all-in-one: SQLite, {threads} engine threads, HTTP API)"
        api_port, self.metrics_port = free_port(), free_port()
        self.log = open(directory / "all-in-one.log", "wb")  # noqa: SIM115 (closed in close)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "keel_app.cli.keel", "all-in-one",
             "--state-dir", str(directory), "--port", str(api_port), "--cfn-port", "0",
             "--engine-threads", str(threads), "--metrics-port", str(self.metrics_port)],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.base = f"http://{HOST}:{api_port}/v1/admin"
        self._wait_until_serving()
        # Read-only, outside any write transaction: the engine's Database begins each of
        # its transactions IMMEDIATE (the write lock), which a poller here would take from
        # the engine's steps every few milliseconds.
        self.status_reader = sqlite3.connect(
            f"file:{directory / SQLITE_FILE_NAME}?mode=ro", uri=True, check_same_thread=False
        )
        # The process counts its own statements, and its scrape says how many.
        self.counter = self

    def _wait_until_serving(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(self.base + "/stacks", timeout=5).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("keel all-in-one did not come up (see its log)") from None
                time.sleep(0.2)

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=600) as answer:
            text = answer.read()
            is_json = answer.headers.get_content_type() == "application/json"
        # An update's 202 and a delete's 204 carry no JSON document.
        return json.loads(text) if is_json and text else None

    def create(self, name: str, template: dict[str, Any], files: dict[str, str]) -> dict:
        body = {"stack_name": name, "template": template, "files": files, "parameters": {}}
        stack = self._call("POST", "/stacks", body)["stack"]
        return {"stack_name": name, "stack_id": stack["id"]}

    def update(self, identity: dict, template: dict[str, Any], files: dict[str, str]) -> None:
        path = f"/stacks/{identity['stack_name']}/{identity['stack_id']}"
        self._call("PUT", path, {"template": template, "files": files, "parameters": {}})

    def delete(self, identity: dict) -> None:
        self._call("DELETE", f"/stacks/{identity['stack_name']}/{identity['stack_id']}")

    def wait(self, stack_id: str, action: str) -> str:
        def read_status() -> str:
            row = self.status_reader.execute(
                "SELECT action, status FROM stack WHERE id = ?", (stack_id,)
            ).fetchone()
            return f"{row[0]}_{row[1]}"

        return wait_for_action(read_status, action)

    def _metric_total(self, name: str) -> int:
        with urllib.request.urlopen(f"http://{HOST}:{self.metrics_port}/metrics") as answer:
            text = answer.read().decode()
        return int(
            sum(
                sample.value
                for family in text_string_to_metric_families(text)
                for sample in family.samples
                if sample.name == name
            )
        )

    def tasks_run(self) -> int:
        return self._metric_total("keel_resource_steps_total")

    def read(self) -> int:
        """Statements the process has sent."""
        return self._metric_total("keel_database_statements_total")

    def rss_mb(self) -> float:
        return resident_mb(self.process.pid)

    def close(self) -> None:
        self.status_reader.close()
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


class FleetDeployment(ServiceLayerCalls):
    def __init__(self, directory: Path, database_url: str | None, workers: int, threads: int):
        from tests import fleet  # noqa: PLC0415

        self.name = f"fleet ({workers} keel-worker x {threads} threads, RabbitMQ, MariaDB)"
        self._stack = contextlib.ExitStack()
        if database_url is None:
            database_url = self._stack.enter_context(mysql_database())
        self.database = Database(database_url)
        db_sync(self.database.engine)
        vhost = self._stack.enter_context(fleet.rabbit_vhost())
        self._stack.enter_context(fleet.broker(vhost))
        conf_path = fleet.write_heat_conf(
            directory, database_url, periodic_interval=60, max_resources_per_stack=20000
        )
        self.fleet = fleet.Fleet(conf_path, vhost, directory)
        self._stack.callback(self.fleet.stop)
        self.fleet.start(workers, concurrency=threads)
        from keel_app.tasks.dispatcher import CeleryDispatcher  # noqa: PLC0415

        self.settings = EngineSettings(
            auth_encryption_key=fleet.ENCRYPTION_KEY, max_resources_per_stack=20000
        )
        self.dispatcher = CeleryDispatcher(self.settings, self.database)
        self.counter = ServerQuestions(database_url) if database_url.startswith("mysql") else None
        # One statement a poll on a connection of its own, in autocommit: a transaction
        # of the engine's Database costs a COMMIT round trip more, every 5 ms, on the
        # server and the cores the workers' steps need.
        self.status_reader = sa.create_engine(
            database_url, isolation_level="AUTOCOMMIT", poolclass=sa.StaticPool
        ).connect()

    def rss_mb(self) -> float:
        """The largest resident memory of the worker processes."""
        return max(resident_mb(process.pid) for process in self.fleet.alive())

    def tasks_run(self) -> int:
        from keel_app.tasks.app import app  # noqa: PLC0415

        stats = app.control.inspect(timeout=2).stats() or {}
        names = ("keel.check_resource", "keel.check_resource_batch")
        return sum(node.get("total", {}).get(name, 0) for node in stats.values() for name in names)

    def wait(self, stack_id: str, action: str) -> str:
        def read_status() -> str:
            row = self.status_reader.execute(STATUS_QUERY, {"stack_id": stack_id}).one()
            return f"{row.action}_{row.status}"

        return wait_for_action(read_status, action)

    def close(self) -> None:
        self.status_reader.close()
        self.database.dispose()
        self._stack.close()


@contextlib.contextmanager
def mysql_database() -> Iterator[str]:
    name = f"keel_bench_{uuid.uuid4().hex[:8]}"
    server = sa.create_engine(f"{MYSQL_SERVER}/", poolclass=sa.NullPool)
    with server.connect() as connection:
        connection.execute(sa.text(f"CREATE DATABASE {name} CHARACTER SET utf8mb4"))
    try:
        yield f"{MYSQL_SERVER}/{name}?charset=utf8mb4"
    finally:
        with server.connect() as connection:
            connection.execute(sa.text(f"DROP DATABASE IF EXISTS {name}"))


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def wait_for_action(read_status: Callable[[], str], action: str, timeout: float = 1800) -> str:
    """The stack's status (``read_status``, polled every 5 ms) once ``action`` has ended,
    or the timeout has passed."""
    deadline = time.monotonic() + timeout
    while True:
        status = read_status()
        ended = status.startswith(action) and not status.endswith("IN_PROGRESS")
        if ended or time.monotonic() > deadline:
            return status
        time.sleep(0.005)


STATUS_QUERY = sa.select(StackRow.__table__.c.action, StackRow.__table__.c.status).where(
    StackRow.__table__.c.id == sa.bindparam("stack_id")
)


def stack_status(database: Database, stack_id: str) -> str:
    with database.transaction() as session:
        row = session.execute(
            STATUS_QUERY.execution_options(include_deleted=True), {"stack_id": stack_id}
        ).one()
        return f"{row.action}_{row.status}"
