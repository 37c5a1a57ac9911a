"""Create and delete stacks of real cloud resources through OpenKeel, and time them.

OpenKeel's distributed form (keel-api, one keel-worker, MariaDB, RabbitMQ) runs behind
the test cloud's Keystone (tests/cloud.py: Nova on its fake driver, Neutron's ML2, Cinder,
Glance, Swift), and a project member creates each stack with python-heatclient, waits
for CREATE_COMPLETE, then deletes it and waits until it is gone; what the services hold
is checked after each phase (every port or server made, none left).

Shapes (``--shapes``): ``ports:N`` a network, a subnet and N ports; ``servers:N`` a
network, a subnet and N servers (a flavor and an image the admin makes first);
``volumes:N`` N 1 GB volumes. For each phase it prints wall seconds, resources a second
and seconds a resource. The cloud is the one ``$KEEL_TEST_CLOUD`` names, else one started
for the run (about a minute).

    .venv/bin/python bench/cloud.py --shapes ports:20,servers:5,volumes:5
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

from tests import cloud as test_cloud  # noqa: E402
from tests import databases, keystone  # noqa: E402
from tests.cloud_scenarios.conftest import alice_heat, wait_for_stack  # noqa: E402
from tests.keystone import ADMIN, ALICE  # noqa: E402

COMMAND = "bench/cloud.py"


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


def template(shape: str, count: int, boot: dict[str, str]) -> dict[str, Any]:
    resources: dict[str, Any] = {}
    if shape == "ports":
        resources = network_resources("10.80.0.0/22")
        for index in range(count):
            resources[f"port{index}"] = {
                "type": "OS::Neutron::Port",
                "properties": {"network": {"get_resource": "net"}},
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
                },
            }
    elif shape == "volumes":
        for index in range(count):
            resources[f"volume{index}"] = {"type": "OS::Cinder::Volume", "properties": {"size": 1}}
    else:
        raise SystemExit(f"unknown shape {shape}")
    return {"heat_template_version": "2018-08-31", "resources": resources}


def held(member: Any, shape: str, stack_name: str) -> int:
    """How many of the shape's resources the services hold for the stack."""
    if shape == "ports":
        return sum(1 for port in member.network.ports() if port.name.startswith(stack_name))
    if shape == "servers":
        return sum(1 for server in member.compute.servers() if server.name.startswith(stack_name))
    return sum(1 for volume in member.block_storage.volumes() if volume.name.startswith(stack_name))


@contextlib.contextmanager
def boot_material(admin: Any) -> Iterator[dict[str, str]]:
    """A public image and flavor for the servers, deleted afterwards."""
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
        yield {"image": image.id, "flavor": flavor.id}
    finally:
        admin.image.delete_image(image, ignore_missing=True)
        admin.compute.delete_flavor(flavor, ignore_missing=True)


def run_shape(heat: Any, member: Any, shape: str, count: int, boot: dict[str, str]) -> None:
    stack_name = f"bench-{shape}-{uuid.uuid4().hex[:6]}"
    total = count + (2 if shape in ("ports", "servers") else 0)
    started = time.monotonic()
    stack_id = heat.stacks.create(stack_name=stack_name, template=template(shape, count, boot))[
        "stack"
    ]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    created = time.monotonic() - started
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    made = held(member, shape, stack_name)
    # A resource that went into an error state was deleted and made again (Heat's retries).
    retries = sum(
        1 for event in heat.events.list(stack_id) if event.resource_status == "CREATE_FAILED"
    )
    started = time.monotonic()
    heat.stacks.delete(stack_id)
    wait_for_stack(heat, stack_id, "DELETE")
    deleted = time.monotonic() - started
    left = held(member, shape, stack_name)
    for phase, seconds in (("create", created), ("delete", deleted)):
        print(
            f"{shape}:{count:<4} {phase:<6} {seconds:7.1f} s  {total / seconds:6.2f} res/s  "
            f"{seconds / total:6.2f} s/res  (held after create: {made}, after delete: {left}; "
            f"creates retried: {retries})",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default="ports:20,servers:5,volumes:5")
    options = parser.parse_args()
    shapes = [
        (name, int(count)) for name, count in (s.split(":") for s in options.shapes.split(","))
    ]
    with tempfile.TemporaryDirectory(prefix="keel-bench-cloud-") as scratch:
        directory = Path(scratch)
        (directory / "openkeel").mkdir()
        with a_cloud(directory) as cloud:
            admin = openstack.connect(**cloud.auth(ADMIN))
            member = openstack.connect(**cloud.auth(ALICE))
            with (
                boot_material(admin) as boot,
                alice_heat(cloud, directory / "openkeel", "mysql") as heat,
            ):
                print(f"# {COMMAND} --shapes {options.shapes}  (OpenKeel on MariaDB, 1 worker)")
                for shape, count in shapes:
                    run_shape(heat, member, shape, count, boot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
