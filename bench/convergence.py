"""Create, update and delete stacks through OpenKeel's convergence engine, and time them.

Two deployments:
- ``embedded``: the default of ``keel all-in-one``: SQLite and the in-process queue, one
  process doing everything;
- ``fleet``: ``keel-worker`` processes (``--workers``, default 2) on RabbitMQ and MariaDB
  (or any ``--database-url``), the stack sent from this process as the API would.

Shapes (``--shapes``): ``none:N`` N independent OS::Heat::None, ``chain:N`` N None each
depending on the previous one, ``random:N`` N independent RandomString, ``group:N`` a
ResourceGroup of N RandomString, ``nested:N`` N nested stacks (template resources) of 20
None each. For each phase it prints wall seconds (and, of them, the seconds the API's call
took before it returned), convergence tasks run (a task may carry several leaves) and
tasks/s, resources done a second and milliseconds a resource (for a chain, a hop), the
engine's resident memory (the largest worker's for ``fleet``), and database statements per
resource (counted by this process's engine for ``embedded``; the server's ``Questions``
delta for MariaDB, so other clients of the server count too). With ``--with-heat`` it also
runs the same shapes through the reference Heat 27.0.1 (../shared/tools/reference-heat,
started by its up.sh) and prints Heat's times and the ratio. With ``--repeat N`` each
shape runs N times and each phase's median milliseconds a resource follows its runs.

    .venv/bin/python bench/convergence.py --deployment fleet --shapes none:100,none:500,chain:100
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from keel_app.common.context import RequestContext  # noqa: E402
from keel_app.engine.convergence.worker import Worker  # noqa: E402
from keel_app.engine.dispatch import LocalQueue  # noqa: E402
from keel_app.engine.service import stacks as service  # noqa: E402
from keel_app.engine.settings import EngineSettings  # noqa: E402
from keel_app.models import Stack as StackRow  # noqa: E402
from keel_app.models.database import Database  # noqa: E402
from keel_app.models.migration import db_sync  # noqa: E402

REFERENCE_HEAT = ROOT.parent / "shared" / "tools" / "reference-heat"
MYSQL_SERVER = "mysql+pymysql://root@127.0.0.1:3306"
CONTEXT = RequestContext(
    user_id="bench-user", username="bench", project_id="bench-project", roles=["member"]
)
TYPES = {"none": "OS::Heat::None", "chain": "OS::Heat::None", "random": "OS::Heat::RandomString"}


def template(shape: str, count: int, generation: int) -> dict[str, Any]:
    if shape == "group":
        return group_template(count, generation)
    if shape == "nested":
        return nested_template(count, generation)
    resources: dict[str, Any] = {}
    for index in range(count):
        resource: dict[str, Any] = {
            "type": TYPES[shape],
            "metadata": {"generation": generation},
        }
        if shape == "chain" and index:
            resource["depends_on"] = [f"r{index - 1}"]
        resources[f"r{index}"] = resource
    return {"heat_template_version": "2021-04-16", "resources": resources}


def group_template(count: int, generation: int) -> dict[str, Any]:
    """One ResourceGroup of ``count`` RandomString (its members live in a nested stack)."""
    member = {"type": "OS::Heat::RandomString", "metadata": {"generation": generation}}
    group = {"type": "OS::Heat::ResourceGroup", "properties": {"count": count}}
    group["properties"]["resource_def"] = member
    return {"heat_template_version": "2021-04-16", "resources": {"group": group}}


NESTED_SIZE = 20


CHILD_TEMPLATE = "child.yaml"


def nested_template(count: int, generation: int) -> dict[str, Any]:
    """``count`` template resources, each a nested stack of 20 OS::Heat::None.

    Template resources rather than OS::Heat::Stack, which needs an orchestration
    endpoint in the caller's service catalog, as in Heat.
    """
    resources = {
        f"s{index}": {"type": CHILD_TEMPLATE, "metadata": {"generation": generation}}
        for index in range(count)
    }
    return {"heat_template_version": "2021-04-16", "resources": resources}


def resources_in(shape: str, count: int) -> int:
    """Resources of every stack of the shape, the parents of nested stacks included."""
    if shape == "group":
        return count + 1
    if shape == "nested":
        return count * (NESTED_SIZE + 1)
    return count


def files(shape: str, generation: int) -> dict[str, str]:
    if shape != "nested":
        return {}
    return {CHILD_TEMPLATE: json.dumps(template("none", NESTED_SIZE, generation))}


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


class Embedded:
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


class FleetDeployment:
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

    def rss_mb(self) -> float:
        """The largest resident memory of the worker processes."""
        return max(resident_mb(process.pid) for process in self.fleet.alive())

    def tasks_run(self) -> int:
        from keel_app.tasks.app import app  # noqa: PLC0415

        stats = app.control.inspect(timeout=2).stats() or {}
        names = ("keel.check_resource", "keel.check_resource_batch")
        return sum(node.get("total", {}).get(name, 0) for node in stats.values() for name in names)

    def wait(self, stack_id: str, action: str, timeout: float = 1800) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = stack_status(self.database, stack_id)
            if status.startswith(action) and not status.endswith("IN_PROGRESS"):
                return status
            time.sleep(0.02)
        return stack_status(self.database, stack_id)

    def close(self) -> None:
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


def stack_status(database: Database, stack_id: str) -> str:
    with database.transaction() as session:
        row = session.execute(
            sa.select(StackRow.action, StackRow.status)
            .where(StackRow.id == stack_id)
            .execution_options(include_deleted=True)
        ).one()
        return f"{row.action}_{row.status}"


# One shape


def run_shape(deployment: Any, shape: str, count: int, update: bool = True) -> list[dict[str, Any]]:
    """Create, update (unless ``update`` is False) and delete one stack of the shape."""
    figures = []

    def phase(name: str, start: Any, action: str) -> None:
        tasks_before = deployment.tasks_run()
        statements_before = deployment.counter.read() if deployment.counter else None
        began = time.perf_counter()
        start()
        call = time.perf_counter() - began
        status = deployment.wait(stack_id, action)
        wall = time.perf_counter() - began
        tasks = deployment.tasks_run() - tasks_before
        statements = deployment.counter.read() - statements_before if deployment.counter else None
        figures.append(
            {
                "shape": f"{shape}:{count}",
                "phase": name,
                "status": status,
                "wall_s": round(wall, 3),
                "call_s": round(call, 3),
                "tasks": tasks,
                "tasks_per_s": round(tasks / wall, 1) if wall else None,
                "resources_per_s": round(resources_in(shape, count) / wall, 1) if wall else None,
                "statements_per_resource": round(statements / resources_in(shape, count), 1)
                if statements is not None
                else None,
            }
        )

    identity: dict[str, str] = {}

    def create() -> None:
        identity.update(
            service.create_stack(
                CONTEXT,
                deployment.settings,
                deployment.database,
                deployment.dispatcher,
                stack_name=f"bench-{shape}-{count}-{uuid.uuid4().hex[:6]}",
                template=template(shape, count, 1),
                params={},
                files=files(shape, 1),
                args={},
            )
        )

    stack_id = ""

    def created() -> None:
        nonlocal stack_id
        create()
        stack_id = identity["stack_id"]

    phase("create", created, "CREATE")
    update_stack = _update_function(deployment, identity, shape, count) if update else None
    if update_stack is not None:
        phase("update", update_stack, "UPDATE")
    phase(
        "delete",
        lambda: service.delete_stack(
            CONTEXT,
            deployment.settings,
            deployment.database,
            deployment.dispatcher,
            stack_identity=identity,
        ),
        "DELETE",
    )
    return figures


def _update_function(deployment: Any, identity: dict[str, str], shape: str, count: int) -> Any:
    try:
        from keel_app.engine.service import stack_update  # noqa: PLC0415
    except ImportError:
        return None

    def update() -> None:
        stack_update.update_stack(
            CONTEXT,
            deployment.settings,
            deployment.database,
            deployment.dispatcher,
            stack_identity=identity,
            template=template(shape, count, 2),
            params={},
            files=files(shape, 2),
            args={},
        )

    return update


# Heat, for comparison


def heat_figures(shape: str, count: int) -> dict[str, Any] | None:
    mode = {"none": "none", "chain": "chain", "random": "random"}.get(shape)
    if mode is None:
        return None  # the reference script has no group or nested shapes
    ref_dir = os.environ.get("REF_DIR", "/var/tmp/reference-heat")
    command = (
        f"{REFERENCE_HEAT}/up.sh >/dev/null && . {ref_dir}/env.sh demo && "
        f"{ref_dir}/venv/bin/python {REFERENCE_HEAT}/bench_create.py {mode} {count}"
    )
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=7200)
    # The script exits non-zero when a phase did not complete, and still prints its figures.
    lines = done.stdout.strip().splitlines()
    if not lines:
        print(f"# reference Heat unavailable: {done.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return json.loads(lines[-1])


def heat_phase(heat: dict[str, Any] | None, phase: str) -> tuple[float | None, str]:
    """Heat's seconds for ``phase`` if it completed, and what to print in their place."""
    if heat is None or phase not in ("create", "delete"):
        return None, "-"
    status = str(heat.get(f"{phase}_status"))
    if status != f"{phase.upper()}_COMPLETE":
        return None, status.lower().split("(")[0]  # e.g. "stalled"
    return heat[f"{phase}_s"], str(heat[f"{phase}_s"])


def print_rows(
    figures: list[dict[str, Any]], heat: dict[str, Any] | None, resources: int, rss_mb: float
) -> None:
    """One run's phases, one line each, beside Heat's figure for the phase."""
    for figure in figures:
        heat_s, heat_shown = heat_phase(heat, figure["phase"])
        ratio = f"{heat_s / figure['wall_s']:.0f}x" if heat_s else "-"
        heat_ms = f"{1000 * heat_s / resources:.1f}" if heat_s else "-"
        print(
            f"{figure['shape']:<12} {figure['phase']:<7} {figure['status']:<18} "
            f"{figure['wall_s']:>8.2f} {figure['call_s']:>7.2f} {figure['tasks']:>7} "
            f"{figure['resources_per_s'] or 0:>8.1f} "
            f"{1000 * figure['wall_s'] / resources:>7.2f} "
            f"{figure['tasks_per_s'] or 0:>8.1f} "
            f"{figure['statements_per_resource'] or '-':>9} "
            f"{heat_shown:>8} {heat_ms:>11} {ratio:>6} "
            f"{rss_mb:>7.1f}"
        )


def print_medians(runs: list[list[dict[str, Any]]], resources: int) -> None:
    """Per phase, the median of the runs' milliseconds a resource, with the fastest and
    the slowest: one run on a shared machine can be a third off either way."""
    for index, figure in enumerate(runs[0]):
        each = sorted(1000 * run[index]["wall_s"] / resources for run in runs)
        middle = len(each) // 2
        median = each[middle] if len(each) % 2 else (each[middle - 1] + each[middle]) / 2
        print(
            f"# {figure['shape']} {figure['phase']}: median {median:.2f} ms/res of "
            f"{len(each)} runs (fastest {each[0]:.2f}, slowest {each[-1]:.2f})"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deployment", choices=["embedded", "fleet"], default="embedded")
    parser.add_argument("--shapes", default="none:100,none:500,chain:100")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--database-url", help="fleet only; default: a new MariaDB database")
    parser.add_argument("--with-heat", action="store_true", help="also time reference Heat")
    parser.add_argument(
        "--no-update", action="store_true", help="create and delete only (no update phase)"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run each shape this many times (new stacks) and print the medians",
    )
    parser.add_argument(
        "--no-warm-up",
        action="store_true",
        help="measure from cold (by default a 10-resource stack goes through first)",
    )
    arguments = parser.parse_args()
    command = " ".join(["python", "bench/convergence.py", *sys.argv[1:]])

    with tempfile.TemporaryDirectory() as directory:
        if arguments.deployment == "embedded":
            deployment: Any = Embedded(Path(directory))
        else:
            deployment = FleetDeployment(
                Path(directory), arguments.database_url, arguments.workers, arguments.threads
            )
        try:
            print(f"# {deployment.name}")
            if not arguments.no_warm_up:
                # Workers import plugins and fill their caches on their first steps.
                run_shape(deployment, "none", 10)
                print("# warm-up: a 10-resource stack created, updated and deleted first")
            rss_start = deployment.rss_mb()
            print(
                f"{'shape':<12} {'phase':<7} {'status':<18} {'wall s':>8} {'call s':>7} "
                f"{'tasks':>7} {'res/s':>8} {'ms/res':>7} "
                f"{'tasks/s':>8} {'stmts/res':>9} {'heat s':>8} {'heat ms/res':>11} {'ratio':>6} "
                f"{'rss MB':>7}"
            )
            for item in arguments.shapes.split(","):
                shape, _, count_text = item.partition(":")
                count = int(count_text)
                heat = heat_figures(shape, count) if arguments.with_heat else None
                runs = []
                for _ in range(arguments.repeat):
                    runs.append(run_shape(deployment, shape, count, not arguments.no_update))
                    print_rows(runs[-1], heat, resources_in(shape, count), deployment.rss_mb())
                if arguments.repeat > 1:
                    print_medians(runs, resources_in(shape, count))
            rss_end = deployment.rss_mb()
            print(
                f"# engine RSS: {rss_start:.1f} MB after the warm-up, {rss_end:.1f} MB at the "
                f"end ({100 * (rss_end - rss_start) / rss_start:+.1f}%)"
            )
        finally:
            deployment.close()
    print(f"# reproduce: {command}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
