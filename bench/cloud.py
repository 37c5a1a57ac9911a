"""Create, update and delete stacks of real cloud resources through OpenKeel (and, with
``--with-heat``, through Heat 27.0.1 against the same cloud), and time them.

OpenKeel's distributed form (keel-api, one keel-worker, MariaDB, RabbitMQ) runs behind
the test cloud's Keystone (tests/cloud.py: Nova on its fake driver, Neutron's ML2, Cinder,
Glance, Swift). With ``--with-heat`` the oracle's heat-engine (two workers) and heat-api
run behind the same Keystone (tests/cloud_heat.py). A project member creates each stack
with python-heatclient and waits for CREATE_COMPLETE, updates it in place and waits,
then deletes it and waits until it is gone; what the services hold is checked after
create and after delete (every server, port, volume or floating IP made, none left).

Shapes (``--shapes``): ``ports:N`` a network, a subnet and N ports; ``servers:N`` a
network, a subnet and N servers (a flavor and an image the admin makes first);
``volumes:N`` N 1 GB volumes; ``full:N`` a network, a subnet, a router with a gateway on
an external network and its interface, a security group, and N servers each on a port
of its own in that group with a floating IP and an attached 1 GB volume. The update
changes every server's metadata, every volume's description or every port's
tags, in place. For each phase it prints wall seconds and seconds a resource, and
with Heat's figures beside them Heat's time over OpenKeel's; under each, the CPU seconds
the phase cost the orchestrator, the cloud's services (and the shortest wall time that
CPU allows on this machine's cores, whoever orchestrates) and the shared MariaDB and
RabbitMQ (bench/process_cpu.py). The cloud is the one
``$KEEL_TEST_CLOUD`` names, else one started for the run (about a minute).

    .venv/bin/python bench/cloud.py --shapes full:20 --with-heat
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import openstack  # noqa: E402
import process_cpu  # noqa: E402

from keel_app.cli.worker import DEFAULT_CONCURRENCY  # noqa: E402
from tests import cloud as test_cloud  # noqa: E402
from tests import databases, keystone  # noqa: E402
from tests.cloud_heat import alice_reference_heat  # noqa: E402
from tests.cloud_scenarios.conftest import alice_heat, wait_for_stack  # noqa: E402
from tests.cloud_scenarios.external_network import external_network  # noqa: E402
from tests.keystone import ADMIN, ALICE  # noqa: E402

COMMAND = "bench/cloud.py"
# Heat dispatches a graph's leaves a second apart: a stack of many may take a while.
PHASE_TIMEOUT = 1800.0


@contextlib.contextmanager
def a_cloud(directory: Path) -> Iterator[test_cloud.Cloud]:
    state = os.environ.get("KEEL_TEST_CLOUD")
    if state:
        yield test_cloud.Cloud.load(Path(state))
        return
    with (
        databases.fresh_database("mysql", directory) as keystone_database,
        keystone.running(directory / "keystone", keystone_database) as identity,
        test_cloud.running(directory / "cloud", identity) as started,
    ):
        yield started


def network_resources(cidr: str) -> dict[str, Any]:
    return {
        "net": {"type": "OS::Neutron::Net"},
        "subnet": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": cidr},
        },
    }


def full_resources(count: int, boot: dict[str, str]) -> dict[str, Any]:
    resources = network_resources("10.82.0.0/22")
    resources.update(
        router={
            "type": "OS::Neutron::Router",
            "properties": {"external_gateway_info": {"network": boot["external_network"]}},
        },
        interface={
            "type": "OS::Neutron::RouterInterface",
            "properties": {
                "router": {"get_resource": "router"},
                "subnet": {"get_resource": "subnet"},
            },
        },
        group={
            "type": "OS::Neutron::SecurityGroup",
            "properties": {
                "rules": [{"protocol": "tcp", "port_range_min": 22, "port_range_max": 22}]
            },
        },
    )
    for index in range(count):
        resources[f"port{index}"] = {
            "type": "OS::Neutron::Port",
            "properties": {
                "network": {"get_resource": "net"},
                "fixed_ips": [{"subnet": {"get_resource": "subnet"}}],
                "security_groups": [{"get_resource": "group"}],
            },
        }
        resources[f"server{index}"] = {
            "type": "OS::Nova::Server",
            "properties": {
                "image": boot["image"],
                "flavor": boot["flavor"],
                "networks": [{"port": {"get_resource": f"port{index}"}}],
                "metadata": {"generation": {"get_param": "generation"}},
            },
        }
        resources[f"volume{index}"] = {
            "type": "OS::Cinder::Volume",
            "properties": {"size": 1, "description": {"get_param": "generation"}},
        }
        resources[f"attachment{index}"] = {
            "type": "OS::Cinder::VolumeAttachment",
            "properties": {
                "instance_uuid": {"get_resource": f"server{index}"},
                "volume_id": {"get_resource": f"volume{index}"},
            },
        }
        resources[f"floating{index}"] = {
            "type": "OS::Neutron::FloatingIP",
            "depends_on": ["interface"],
            "properties": {
                "floating_network": boot["external_network"],
                "port_id": {"get_resource": f"port{index}"},
            },
        }
    return resources


def template(shape: str, count: int, boot: dict[str, str]) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    if shape == "ports":
        resources = network_resources("10.80.0.0/22")
        for index in range(count):
            resources[f"port{index}"] = {
                "type": "OS::Neutron::Port",
                "properties": {
                    "network": {"get_resource": "net"},
                    "tags": [{"get_param": "generation"}],
                },
            }
    elif shape == "servers":
        resources = network_resources("10.81.0.0/22")
        for index in range(count):
            resources[f"server{index}"] = {
                "type": "OS::Nova::Server",
                "depends_on": ["subnet"],
                "properties": {
                    "image": boot["image"],
                    "flavor": boot["flavor"],
                    "networks": [{"network": {"get_resource": "net"}}],
                    "metadata": {"generation": {"get_param": "generation"}},
                },
            }
    elif shape == "volumes":
        for index in range(count):
            resources[f"volume{index}"] = {
                "type": "OS::Cinder::Volume",
                "properties": {"size": 1, "description": {"get_param": "generation"}},
            }
    elif shape == "full":
        resources = full_resources(count, boot)
    else:
        raise SystemExit(f"unknown shape {shape}")
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"generation": {"type": "string"}},
        "resources": resources,
    }


def held(member: Any, shape: str, stack_name: str, external_network: str) -> int:
    """How many of the shape's servers, ports, volumes and floating IPs the services hold
    for the stack (the floating IPs: all those on the run's own external network)."""
    counted = {
        "servers": lambda: member.compute.servers(),
        "volumes": lambda: member.block_storage.volumes(),
        "ports": lambda: member.network.ports(),
    }
    kinds = {"ports": ("ports",), "servers": ("servers",), "volumes": ("volumes",)}.get(
        shape, ("servers", "volumes", "ports")
    )
    total = sum(
        1 for kind in kinds for found in counted[kind]() if found.name.startswith(stack_name)
    )
    if shape == "full":
        total += sum(1 for _ in member.network.ips(floating_network_id=external_network))
    return total


@contextlib.contextmanager
def boot_material(cloud: test_cloud.Cloud, admin: Any) -> Iterator[dict[str, str]]:
    """A public image and flavor for the servers and an external network for the floating
    IPs, deleted afterwards."""
    suffix = uuid.uuid4().hex[:6]
    flavor = admin.compute.create_flavor(name=f"bench-{suffix}", ram=64, vcpus=1, disk=1)
    image = admin.image.create_image(
        name=f"bench-{suffix}",
        data=b"\0" * 1024,
        disk_format="raw",
        container_format="bare",
        visibility="public",
    )
    try:
        with external_network(cloud, "bench-public") as public:
            yield {"image": image.id, "flavor": flavor.id, "external_network": public.network.id}
    finally:
        admin.image.delete_image(image, ignore_missing=True)
        admin.compute.delete_flavor(flavor, ignore_missing=True)


def resources_in(shape: str, count: int) -> int:
    return {"ports": count + 2, "servers": count + 2, "volumes": count, "full": 5 * count + 5}[
        shape
    ]


def run_shape(
    heat: Any, member: Any, shape: str, count: int, boot: dict[str, str]
) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Seconds of each phase, and the CPU seconds each part of the deployment spent in
    it; what the services hold is checked on the way."""
    stack_name = f"bench-{shape}-{uuid.uuid4().hex[:6]}"
    shaped = template(shape, count, boot)
    seconds: dict[str, float] = {}
    cpu: dict[str, dict[str, float]] = {}

    def start() -> tuple[float, Any]:
        """When a phase starts: the clock, and the CPU each part has used so far."""
        return time.monotonic(), process_cpu.by_part()

    def phase(name: str, stack_id: str, action: str, started: tuple[float, Any]) -> None:
        stack = wait_for_stack(heat, stack_id, action, timeout=PHASE_TIMEOUT)
        seconds[name] = time.monotonic() - started[0]
        cpu[name] = process_cpu.spent(started[1], process_cpu.by_part())
        if action != "DELETE":
            assert stack.stack_status == f"{action}_COMPLETE", stack.stack_status_reason

    started = start()
    stack_id = heat.stacks.create(
        stack_name=stack_name, template=shaped, parameters={"generation": "1"}
    )["stack"]["id"]
    phase("create", stack_id, "CREATE", started)
    made = held(member, shape, stack_name, boot["external_network"])
    # A resource that went into an error state was deleted and made again (Heat's retries).
    retries = sum(
        1 for event in heat.events.list(stack_id) if event.resource_status == "CREATE_FAILED"
    )
    started = start()
    heat.stacks.update(stack_id, template=shaped, parameters={"generation": "2"})
    phase("update", stack_id, "UPDATE", started)
    started = start()
    heat.stacks.delete(stack_id)
    phase("delete", stack_id, "DELETE", started)
    left = held(member, shape, stack_name, boot["external_network"])
    print(
        f"#   {shape}:{count} held after create: {made}, after delete: {left}; "
        f"creates retried: {retries}",
        flush=True,
    )
    assert left == 0, f"{left} of the stack's resources are left"
    return seconds, cpu


Timed = tuple[dict[str, float], dict[str, dict[str, float]]]


def cpu_line(orchestrator: str, spent: dict[str, float]) -> str:
    """The CPU one phase cost: the orchestrator's own, the cloud's (and the shortest wall
    time that CPU allows on this machine's cores), the shared database's and broker's."""
    cloud = spent.get("cloud", 0.0)
    floor = cloud / process_cpu.cores()
    return (
        f"{orchestrator} {spent.get(orchestrator, 0.0):5.1f}, cloud {cloud:5.1f} "
        f"(alone >= {floor:4.1f} s wall on {process_cpu.cores()} cores), "
        f"database and broker {spent.get('database and broker', 0.0):4.1f}"
    )


def report(shape: str, count: int, ours: Timed, heats: Timed | None) -> None:
    total = resources_in(shape, count)
    for phase, seconds in ours[0].items():
        line = f"{shape}:{count:<4} {phase:<6} {seconds:7.1f} s {seconds / total:6.2f} s/res"
        if heats is not None:
            theirs = heats[0][phase]
            line += f"   heat {theirs:7.1f} s {theirs / total:6.2f} s/res   heat/openkeel "
            line += f"{theirs / seconds:5.1f}x"
        print(line, flush=True)
        print(f"#   cpu s: {cpu_line('openkeel', ours[1][phase])}", flush=True)
        if heats is not None:
            print(f"#   cpu s: {cpu_line('heat', heats[1][phase])}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default="ports:20,servers:5,volumes:5")
    parser.add_argument(
        "--with-heat", action="store_true", help="also run the shapes through Heat 27.0.1"
    )
    parser.add_argument("--workers", type=int, default=1, help="keel-workers (default 1)")
    parser.add_argument(
        "--concurrency",
        type=int,
        default=DEFAULT_CONCURRENCY,
        help=f"threads of each keel-worker (default {DEFAULT_CONCURRENCY}, keel-worker's)",
    )
    options = parser.parse_args()
    shapes = [
        (name, int(count)) for name, count in (s.split(":") for s in options.shapes.split(","))
    ]
    with tempfile.TemporaryDirectory(prefix="keel-bench-cloud-") as scratch:
        directory = Path(scratch)
        (directory / "openkeel").mkdir()
        with a_cloud(directory) as cloud, contextlib.ExitStack() as stack:
            admin = openstack.connect(**cloud.auth(ADMIN))
            member = openstack.connect(**cloud.auth(ALICE))
            boot = stack.enter_context(boot_material(cloud, admin))
            heat = stack.enter_context(
                alice_heat(
                    cloud,
                    directory / "openkeel",
                    "mysql",
                    workers=options.workers,
                    concurrency=options.concurrency,
                )
            )
            reference = (
                stack.enter_context(alice_reference_heat(cloud.keystone, directory / "heat"))
                if options.with_heat
                else None
            )
            flags = " --with-heat" if options.with_heat else ""
            flags += f" --workers {options.workers} --concurrency {options.concurrency}"
            print(
                f"# {COMMAND} --shapes {options.shapes}{flags}  (OpenKeel on MariaDB; "
                "Heat 27.0.1 on MariaDB, 2 engine workers)",
                flush=True,
            )
            for shape, count in shapes:
                ours = run_shape(heat, member, shape, count, boot)
                theirs = (
                    run_shape(reference, member, shape, count, boot)
                    if reference is not None
                    else None
                )
                report(shape, count, ours, theirs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
