"""Latency of the native API's stack list and stack show, OpenKeel beside Heat 27.0.1.

Each target gets ``--stacks`` stacks (one OS::Heat::None each, created through its own
API), then ``--requests`` sequential ``GET /v1/<project>/stacks`` (the whole list) and as
many ``GET /v1/<project>/stacks/<name>/<id>`` of random stacks; it prints p50, p95 and
requests per second of each. Targets:

- ``embedded``: ``keel all-in-one`` (SQLite, engine threads in the API process, noauth);
- ``distributed``: ``keel-api`` and two ``keel-worker`` on RabbitMQ and MariaDB, the API's
  calls travelling as Celery tasks (noauth, so the figure is the API and its RPC);
- ``heat``: the reference Heat 27.0.1 of ../shared/tools/reference-heat (heat-api under
  uwsgi, heat-engine, RabbitMQ, MariaDB, Keystone tokens), started by its up.sh.

Heat's ``max_stacks_per_tenant`` (512) would refuse a thousand stacks in one project:
every target runs with 2,000, the reference Heat's heat.conf changed and its engine
restarted for that.

    .venv/bin/python bench/api.py --targets embedded,distributed,heat --stacks 1000
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import reference_heat  # noqa: E402

from keel_app.web.spare_ports import free_port  # noqa: E402

BIN = Path(sys.executable).parent
MYSQL_SERVER = "mysql+pymysql://root@127.0.0.1:3306"
STACK_LIMIT = 2000
TEMPLATE = {
    "heat_template_version": "2021-04-16",
    "resources": {"nothing": {"type": "OS::Heat::None"}},
}


@dataclass
class Target:
    name: str
    endpoint: str  # http://host:port/v1/<project>
    headers: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json", **self.headers}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(
            self.endpoint + path, data=data, method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")


# Filling a target with stacks


def create_stacks(target: Target, count: int, prefix: str) -> None:
    def create(index: int) -> None:
        status, answer = target.request(
            "POST", "/stacks", {"stack_name": f"{prefix}-{index}", "template": TEMPLATE}
        )
        if status != 201:
            raise RuntimeError(f"{target.name}: stack create answered {status}: {answer}")

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(create, range(count)))
    deadline = time.monotonic() + 3600
    while time.monotonic() < deadline:
        stacks = list_stacks(target)
        mine = [stack for stack in stacks if stack["stack_name"].startswith(prefix)]
        busy = [stack for stack in mine if stack["stack_status"] == "CREATE_IN_PROGRESS"]
        if len(mine) == count and not busy:
            failed = [stack for stack in mine if stack["stack_status"] != "CREATE_COMPLETE"]
            if failed:
                raise RuntimeError(f"{target.name}: {len(failed)} stacks failed: {failed[0]}")
            return
        time.sleep(1)
    raise RuntimeError(f"{target.name}: stacks still in progress after an hour")


def list_stacks(target: Target) -> list[dict[str, Any]]:
    status, answer = target.request("GET", "/stacks")
    if status != 200:
        raise RuntimeError(f"{target.name}: stack list answered {status}: {answer}")
    stacks: list[dict[str, Any]] = answer["stacks"]
    return stacks


def delete_stacks(target: Target, prefix: str) -> None:
    def delete(stack: dict[str, Any]) -> None:
        target.request("DELETE", f"/stacks/{stack['stack_name']}/{stack['id']}")

    mine = [stack for stack in list_stacks(target) if stack["stack_name"].startswith(prefix)]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(delete, mine))


# Timing


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def timed(requests: int, send: Callable[[], None]) -> dict[str, float]:
    send()  # one warm-up request, not counted
    samples = []
    started = time.perf_counter()
    for _ in range(requests):
        begin = time.perf_counter()
        send()
        samples.append(time.perf_counter() - begin)
    elapsed = time.perf_counter() - started
    return {
        "p50_ms": percentile(samples, 0.5) * 1000,
        "p95_ms": percentile(samples, 0.95) * 1000,
        "mean_ms": statistics.fmean(samples) * 1000,
        "per_s": requests / elapsed,
    }


def measure(target: Target, count: int, requests: int) -> dict[str, dict[str, float]]:
    prefix = f"bench-{uuid.uuid4().hex[:6]}"
    create_stacks(target, count, prefix)
    stacks = [stack for stack in list_stacks(target) if stack["stack_name"].startswith(prefix)]
    chooser = random.Random(7)

    def list_all() -> None:
        listed = list_stacks(target)
        if len(listed) < count:
            raise RuntimeError(f"{target.name}: listed {len(listed)} of {count} stacks")

    def show_one() -> None:
        stack = chooser.choice(stacks)
        status, answer = target.request("GET", f"/stacks/{stack['stack_name']}/{stack['id']}")
        if status != 200:
            raise RuntimeError(f"{target.name}: stack show answered {status}: {answer}")

    figures = {"list": timed(requests, list_all), "show": timed(requests, show_one)}
    delete_stacks(target, prefix)
    return figures


# The targets


def wait_for_http(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=5)
            return
        except urllib.error.HTTPError:
            return  # any HTTP answer means the server is up
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@contextlib.contextmanager
def processes(commands: list[list[str]], environment: dict[str, str]) -> Iterator[None]:
    started = [
        subprocess.Popen(
            command,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for command in commands
    ]
    try:
        yield
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


@contextlib.contextmanager
def embedded_target(directory: Path) -> Iterator[Target]:
    port = free_port()
    conf = directory / "heat.conf"
    conf.write_text(f"[DEFAULT]\nmax_stacks_per_tenant = {STACK_LIMIT}\n")
    command = [
        str(BIN / "keel"), "all-in-one", "--port", str(port), "--cfn-port", str(free_port()),
        "--state-dir", str(directory / "state"), "--config-file", str(conf),
    ]  # fmt: skip
    with processes([command], {**os.environ, "PYTHONWARNINGS": "ignore"}):
        wait_for_http(f"http://127.0.0.1:{port}/")
        yield Target("embedded", f"http://127.0.0.1:{port}/v1/admin")


@contextlib.contextmanager
def mariadb_database() -> Iterator[str]:
    import sqlalchemy as sa

    name = f"keel_bench_api_{uuid.uuid4().hex[:8]}"
    server = sa.create_engine(MYSQL_SERVER)
    with server.begin() as connection:
        connection.exec_driver_sql(f"CREATE DATABASE {name} CHARACTER SET utf8mb4")
    try:
        yield f"{MYSQL_SERVER}/{name}?charset=utf8mb4"
    finally:
        with server.begin() as connection:
            connection.exec_driver_sql(f"DROP DATABASE IF EXISTS {name}")
        server.dispose()


@contextlib.contextmanager
def distributed_target(directory: Path) -> Iterator[Target]:
    port = free_port()
    with mariadb_database() as url:
        conf = directory / "heat.conf"
        conf.write_text(
            f"[DEFAULT]\nmax_stacks_per_tenant = {STACK_LIMIT}\n"
            "transport_url = rabbit://guest:guest@127.0.0.1:5672/\n"
            f"[database]\nconnection = {url}\n"
            f"[heat_api]\nbind_host = 127.0.0.1\nbind_port = {port}\n"
            f"[heat_api_cfn]\nbind_host = 127.0.0.1\nbind_port = {free_port()}\n"
            "[paste_deploy]\nflavor = noauth\n"
        )
        environment = {**os.environ, "PYTHONWARNINGS": "ignore"}
        subprocess.run(
            [str(BIN / "keel-manage"), "--config-file", str(conf), "db_sync"],
            check=True,
            env=environment,
        )
        worker = [str(BIN / "keel-worker"), "--config-file", str(conf), "--concurrency", "4"]
        api = [str(BIN / "keel-api"), "--config-file", str(conf)]
        with processes([worker, worker, api], environment):
            wait_for_http(f"http://127.0.0.1:{port}/")
            target = Target("distributed", f"http://127.0.0.1:{port}/v1/admin")
            wait_for_engine(target)
            yield target


def wait_for_engine(target: Target, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while target.request("GET", "/build_info")[0] != 200:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{target.name}: no engine answered within {timeout} s")
        time.sleep(0.5)


def keystone_token(environment: dict[str, str]) -> tuple[str, str]:
    """A project-scoped token for the admin user, and its project id."""
    body = {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {
                        "name": environment["OS_USERNAME"],
                        "domain": {"name": environment["OS_USER_DOMAIN_NAME"]},
                        "password": environment["OS_PASSWORD"],
                    }
                },
            },
            "scope": {
                "project": {
                    "name": environment["OS_PROJECT_NAME"],
                    "domain": {"name": environment["OS_PROJECT_DOMAIN_NAME"]},
                }
            },
        }
    }
    request = urllib.request.Request(
        environment["OS_AUTH_URL"] + "/auth/tokens",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        token = response.headers["X-Subject-Token"]
        project_id = json.load(response)["token"]["project"]["id"]
    return token, project_id


def raise_reference_stack_limit() -> None:
    conf = reference_heat.REF_DIR / "etc" / "heat" / "heat.conf"
    text = conf.read_text()
    setting = f"max_stacks_per_tenant = {STACK_LIMIT}"
    if setting in text:
        return
    conf.write_text(text.replace("[DEFAULT]\n", f"[DEFAULT]\n{setting}\n", 1))
    # up.sh restarts heat-engine when heat.conf changed since it wrote it.
    engine_pid = reference_heat.REF_DIR / "run" / "heat-engine.pid"
    with contextlib.suppress(FileNotFoundError, ProcessLookupError):
        os.killpg(int(engine_pid.read_text()), signal.SIGTERM)


@contextlib.contextmanager
def heat_target() -> Iterator[Target]:
    environment = reference_heat.environment()
    raise_reference_stack_limit()
    environment = reference_heat.environment()
    token, project_id = keystone_token(environment)
    target = Target("heat", f"{environment['REF_HEAT_URL']}/{project_id}", {"X-Auth-Token": token})
    wait_for_engine(target, timeout=120)
    yield target


TARGETS = {"embedded": embedded_target, "distributed": distributed_target}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--targets", default="embedded,distributed,heat")
    parser.add_argument("--stacks", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=100)
    arguments = parser.parse_args()
    names = [name for name in arguments.targets.split(",") if name]
    print(f"# stack list ({arguments.stacks} stacks) and stack show, {arguments.requests} each")
    print(f"{'target':<12} {'call':<6} {'p50 ms':>9} {'p95 ms':>9} {'mean ms':>9} {'req/s':>8}")
    results: dict[str, dict[str, dict[str, float]]] = {}
    for name in names:
        with tempfile.TemporaryDirectory(prefix=f"keel-bench-{name}-") as directory:
            opened = heat_target() if name == "heat" else TARGETS[name](Path(directory))
            with opened as target:
                results[name] = measure(target, arguments.stacks, arguments.requests)
        for call, figures in results[name].items():
            print(
                f"{name:<12} {call:<6} {figures['p50_ms']:>9.1f} {figures['p95_ms']:>9.1f} "
                f"{figures['mean_ms']:>9.1f} {figures['per_s']:>8.1f}",
                flush=True,
            )
    if "heat" in results:
        for name in (name for name in results if name != "heat"):
            for call in ("list", "show"):
                ratio = results["heat"][call]["p50_ms"] / results[name][call]["p50_ms"]
                print(f"# {name} {call}: Heat's p50 / OpenKeel's p50 = {ratio:.1f}")
    print(
        f"# reproduce: python bench/api.py --targets {arguments.targets} "
        f"--stacks {arguments.stacks} --requests {arguments.requests}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
