"""Engine RPC latency through keel-bridge, beside Heat 27.0.1's own heat-engine.

One MariaDB database (migrated by OpenKeel; the schema is Heat's) gets ``--stacks``
stacks of ``--resources`` OS::Heat::None each, created through keel-bridge and a
keel-worker. Then the same client, Heat's own ``heat.rpc.client.EngineClient`` in the
oracle's environment, calls ``list_stacks`` and ``show_stack`` (one stack, outputs
resolved) ``--calls`` times, first one call at a time (latency: p50, p95), then from
``--concurrency`` threads (calls/s):

- through keel-bridge, on its own RabbitMQ vhost;
- through a real heat-engine (``num_engine_workers = 1``, Heat's default thread pool)
  from the oracle's environment, on another vhost of the same broker, reading the same
  database rows (skipped with ``--without-heat``).

    .venv/bin/python bench/bridge.py --stacks 20 --resources 10 --calls 300 --concurrency 8
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import fleet, oracle  # noqa: E402
from tests.compat_oslo import deployment  # noqa: E402

CONTEXT = {
    "user_id": "bench-user",
    "project_id": "bench-project",
    "username": "bench",
    "auth_token": "bench-token",
    "roles": ["member", "reader"],
    "is_admin": False,
}

# Runs in the oracle: Heat's EngineClient against one transport; prints one JSON line.
CLIENT = """
import json, statistics, sys, threading, time
from oslo_config import cfg
from heat.common import config, context, messaging
cfg.CONF([], project="heat", default_config_files=[])
messaging.setup(sys.argv[1])
from heat.rpc import client
options = json.loads(sys.argv[2])
engine = client.EngineClient()
caller = context.RequestContext(**options["context"])
if options.get("create"):
    template = {"heat_template_version": "2018-08-31", "resources": {
        f"r{index}": {"type": "OS::Heat::None"} for index in range(options["resources"])},
        "outputs": {"first": {"value": {"get_resource": "r0"}}}}
    for number in range(options["create"]):
        engine.create_stack(caller, f"bench-{number}", template, {}, {},
                            {"disable_rollback": True})
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        states = {(row["stack_action"], row["stack_status"])
                  for row in engine.list_stacks(caller)}
        if states == {("CREATE", "COMPLETE")}:
            break
        time.sleep(0.5)
    print(json.dumps({"created": options["create"]}), flush=True)
    sys.exit(0)
identity = engine.identify_stack(caller, "bench-0")
calls = {"list_stacks": lambda: engine.list_stacks(caller),
         "show_stack": lambda: engine.show_stack(caller, identity, resolve_outputs=True)}
results = {}
for name, run in calls.items():
    for _ in range(options["warmup"]):
        run()
    latencies = []
    for _ in range(options["calls"]):
        started = time.perf_counter()
        run()
        latencies.append(time.perf_counter() - started)
    latencies.sort()
    done = []
    def worker(count):
        for _ in range(count):
            run()
        done.append(count)
    per_thread = max(options["calls"] // options["concurrency"], 1)
    threads = [threading.Thread(target=worker, args=(per_thread,))
               for _ in range(options["concurrency"])]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    results[name] = {
        "p50_ms": 1000 * statistics.median(latencies),
        "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))],
        "sequential_calls_per_s": len(latencies) / sum(latencies),
        "concurrent_calls_per_s": sum(done) / elapsed,
    }
print(json.dumps(results), flush=True)
"""


def run_client(oslo_url: str, options: dict[str, Any]) -> dict[str, Any]:
    completed = subprocess.run(
        [str(oracle.python()), "-c", CLIENT, deployment.rabbit_url(oslo_url), json.dumps(options)],
        capture_output=True,
        text=True,
        timeout=3600,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    if completed.returncode != 0:
        raise RuntimeError(f"the Heat client failed:\n{completed.stderr}")
    answer: dict[str, Any] = json.loads(completed.stdout.strip().splitlines()[-1])
    return answer


def report(label: str, results: dict[str, Any]) -> None:
    for method, figures in results.items():
        print(
            f"{label:<12} {method:<12} p50 {figures['p50_ms']:7.2f} ms  "
            f"p95 {figures['p95_ms']:7.2f} ms  "
            f"{figures['sequential_calls_per_s']:7.1f} calls/s one at a time  "
            f"{figures['concurrent_calls_per_s']:7.1f} calls/s concurrent"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stacks", type=int, default=20)
    parser.add_argument("--resources", type=int, default=10)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--without-heat", action="store_true")
    arguments = parser.parse_args()
    options = {
        "context": CONTEXT,
        "calls": arguments.calls,
        "warmup": arguments.warmup,
        "concurrency": arguments.concurrency,
        "resources": arguments.resources,
    }
    with tempfile.TemporaryDirectory(prefix="keel-bench-bridge-") as temporary:
        directory = Path(temporary)
        with deployment.deployment(directory) as deployed:
            started = time.monotonic()
            run_client(deployed["oslo_url"], {**options, "create": arguments.stacks})
            print(
                f"created {arguments.stacks} stacks of {arguments.resources} OS::Heat::None "
                f"through keel-bridge in {time.monotonic() - started:.1f} s"
            )
            results = {"keel-bridge": run_client(deployed["oslo_url"], options)}
            if not arguments.without_heat:
                with fleet.rabbit_vhost() as heat_url:
                    with deployment.heat_engine(directory, deployed["database_url"], heat_url):
                        results["heat-engine"] = run_client(heat_url, options)
    for label, figures in results.items():
        report(label, figures)
    print(
        "reproduce: .venv/bin/python bench/bridge.py "
        f"--stacks {arguments.stacks} --resources {arguments.resources} "
        f"--calls {arguments.calls} --warmup {arguments.warmup} "
        f"--concurrency {arguments.concurrency}"
        + (" --without-heat" if arguments.without_heat else "")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
