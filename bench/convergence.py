"""Create, update and delete stacks through OpenKeel's convergence engine, and time them.

Three deployments (bench/convergence_deployments.py):
- ``all-in-one``: a real ``keel all-in-one`` process (SQLite, ``--threads`` engine
  threads, default 4), its stacks sent through its native API;
- ``embedded``: the engine in this process on the tests' single-threaded queue (a virtual
  clock): the engine's own cost, with no thread, server or HTTP around it;
- ``fleet``: ``keel-worker`` processes (``--workers``, default 2) on RabbitMQ and MariaDB
  (or any ``--database-url``), the stack sent from this process as the API would.

Shapes (``--shapes``): ``none:N`` N independent OS::Heat::None, ``chain:N`` N None each
depending on the previous one, ``random:N`` N independent RandomString, ``group:N`` a
ResourceGroup of N RandomString, ``nested:N`` N nested stacks (template resources) of 20
None each. For each phase it prints wall seconds (and, of them, the seconds the API's call
took before it returned), convergence tasks run (a task may carry several leaves) and
tasks/s, resources done a second and milliseconds a resource (for a chain, a hop), the
engine's resident memory (the largest worker's for ``fleet``), and database statements per
resource (counted by the engine's process for ``embedded`` and ``all-in-one``; the
server's ``Questions`` delta for MariaDB, so other clients of the server count too).
With ``--with-heat`` the same stacks are also created, updated and deleted through the
reference Heat 27.0.1 (../shared/tools/reference-heat, started by its up.sh), sent by
python-heatclient as its demo project's member (bench/reference_heat.py), and each phase
prints Heat's seconds and milliseconds a resource and Heat's time over OpenKeel's. With
``--repeat N`` each shape runs N times and each phase's median milliseconds a resource
follows its runs.

    .venv/bin/python bench/convergence.py --deployment fleet --shapes none:100,none:500,chain:100
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from convergence_deployments import (  # noqa: E402
    AllInOne,
    Embedded,
    FleetDeployment,
)
from reference_heat import ReferenceHeat  # noqa: E402

from keel_app.common import startup_heap  # noqa: E402

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
        name = f"bench-{shape}-{count}-{uuid.uuid4().hex[:6]}"
        identity.update(deployment.create(name, template(shape, count, 1), files(shape, 1)))

    stack_id = ""

    def created() -> None:
        nonlocal stack_id
        create()
        stack_id = identity["stack_id"]

    phase("create", created, "CREATE")
    if update:
        phase(
            "update",
            lambda: deployment.update(identity, template(shape, count, 2), files(shape, 2)),
            "UPDATE",
        )
    phase("delete", lambda: deployment.delete(identity), "DELETE")
    return figures


# Heat, for comparison


def heat_figures(heat: ReferenceHeat | None, shape: str, count: int) -> dict[str, Any] | None:
    """Heat's run of the shape, each phase's figures by its name; None without Heat."""
    if heat is None:
        return None
    return {figure["phase"]: figure for figure in run_shape(heat, shape, count)}


def machine_idle_share(seconds: float = 1.0) -> float:
    """The share of the machine's CPU time left idle over ``seconds`` (/proc/stat)."""

    def read() -> tuple[int, int]:
        fields = [int(value) for value in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        return fields[3] + fields[4], sum(fields)  # idle + iowait, all

    idle_before, total_before = read()
    time.sleep(seconds)
    idle_after, total_after = read()
    return (idle_after - idle_before) / max(total_after - total_before, 1)


def settle(timeout: float = 60.0) -> None:
    """Wait until Heat's services have finished what its run left them doing (a phase
    Heat reports stalled may still be working): OpenKeel's runs are timed on a machine
    as quiet as Heat's were."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if machine_idle_share() >= 0.8:
            return
    print(f"# the machine was still busy {timeout:.0f} s after Heat's run", file=sys.stderr)


def heat_phase(heat: dict[str, Any] | None, phase: str) -> tuple[float | None, str]:
    """Heat's seconds for ``phase`` if it completed, and what to print in their place."""
    if heat is None:
        return None, "-"
    figure = heat[phase]
    if figure["status"] != f"{phase.upper()}_COMPLETE":
        return None, figure["status"].lower().split("(")[0]  # e.g. "stalled"
    return figure["wall_s"], f"{figure['wall_s']:.2f}"


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
    parser.add_argument(
        "--deployment", choices=["all-in-one", "embedded", "fleet"], default="embedded"
    )
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
        elif arguments.deployment == "all-in-one":
            deployment = AllInOne(Path(directory), arguments.threads)
        else:
            deployment = FleetDeployment(
                Path(directory), arguments.database_url, arguments.workers, arguments.threads
            )
        reference = ReferenceHeat() if arguments.with_heat else None
        try:
            print(f"# {deployment.name}")
            if reference is not None:
                print(f"# beside {reference.name}")
            if not arguments.no_warm_up:
                # Workers import plugins and fill their caches on their first steps.
                run_shape(deployment, "none", 10)
                if reference is not None:
                    # A chain: Heat starts independent resources a second apart.
                    run_shape(reference, "chain", 10)
                print("# warm-up: a 10-resource stack created, updated and deleted first")
            # This process sends the fleet's and the embedded engine's stacks as keel-api
            # would: like keel-api, it keeps what it has built out of full collections.
            startup_heap.freeze()
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
                heat = heat_figures(reference, shape, count)
                if arguments.with_heat:
                    settle()
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
