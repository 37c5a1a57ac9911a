"""The same template through OpenKeel and through Heat 27.0.1, both behind the test cloud's
Keystone and driving the same Nova, Neutron and Cinder: the final states, each resource's
events and the shapes of the attributes (keys and value types, not the ids and addresses
each made) are the same."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest

from tests.cloud import Cloud
from tests.cloud_heat import alice_reference_heat
from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    wait_for_stack,
)
from tests.cloud_scenarios.network_server_template import (
    boot_material,
    network_server_template,
)

UUID = re.compile(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}")


@pytest.fixture(scope="module")
def reference_heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with alice_reference_heat(cloud.keystone, tmp_path_factory.mktemp("heat-27")) as client:
        yield client


@pytest.fixture(scope="module")
def boot(cloud: Cloud) -> Iterator[dict[str, str]]:
    with boot_material(cloud, "diff") as made:
        yield made


def template(boot: dict[str, str]) -> dict[str, Any]:
    made = network_server_template(
        boot,
        "10.93.0.0/24",
        outputs={
            "server_networks": {"value": {"get_attr": ["server", "networks"]}},
            "server_addresses": {"value": {"get_attr": ["server", "addresses"]}},
            "server_first_address": {"value": {"get_attr": ["server", "first_address"]}},
            "server_name": {"value": {"get_attr": ["server", "name"]}},
            "port_fixed_ips": {"value": {"get_attr": ["port", "fixed_ips"]}},
            "port_mac": {"value": {"get_attr": ["port", "mac_address"]}},
            "subnet_cidr": {"value": {"get_attr": ["subnet", "cidr"]}},
            "net_subnets": {"value": {"get_attr": ["net", "subnets"]}},
            "router_gateway": {"value": {"get_attr": ["router", "external_gateway_info"]}},
            "floating_address": {"value": {"get_attr": ["floating", "floating_ip_address"]}},
            "volume_size": {"value": {"get_attr": ["volume", "size"]}},
            "volume_attachments": {"value": {"get_attr": ["volume", "attachments_list"]}},
            "group_rules": {"value": {"get_attr": ["group", "show", "security_group_rules"]}},
        },
    )
    # Both engines keep a server's attributes as they were when it completed. A floating
    # IP made beside the server would be in them or not by a race; made after, never.
    made["resources"]["floating"]["depends_on"] = ["interface", "server"]
    return made


def _key_shape(key: str, stack_name: str) -> str:
    if UUID.fullmatch(key):
        return "UUID"
    if stack_name and stack_name in key:
        return f"STACK-{key.split('-')[-2]}"
    return key


def shape(value: Any, stack_name: str = "") -> Any:
    """``value`` with every scalar replaced by its type's name (lists by their items' set
    of shapes in a stable order, keys naming the stack's resources by ``STACK-...``):
    what both engines must agree on when each made its own resources."""
    if isinstance(value, dict):
        return {_key_shape(key, stack_name): shape(item, stack_name) for key, item in value.items()}
    if isinstance(value, list):
        shapes = []
        for item in value:
            if shape(item, stack_name) not in shapes:
                shapes.append(shape(item, stack_name))
        return sorted(shapes, key=repr)
    return type(value).__name__


def events_by_resource(client: Any, stack_id: str, stack_name: str) -> dict[str, list[str]]:
    """Each resource's events in the API's order (the stack's own under ``STACK``)."""
    found: dict[str, list[str]] = {}
    for event in client.events.list(stack_id):
        name = "STACK" if event.resource_name == stack_name else event.resource_name
        found.setdefault(name, []).append(event.resource_status)
    return found


def wait_until_nova_lists_the_floating_ip(
    member: openstack.connection.Connection, client: Any, stack_id: str
) -> None:
    """Nova adds a floating IP to a server's addresses when Neutron's event reaches it,
    after the association is done. Waiting for it means an engine that read the server's
    attributes afresh, instead of as they were stored at its completion, would show it."""
    ids = physical_ids(client, stack_id)
    address = member.network.get_ip(ids["floating"]).floating_ip_address
    deadline = time.monotonic() + 60
    while True:
        listed = member.compute.get_server(ids["server"]).addresses.values()
        if any(entry["addr"] == address for entries in listed for entry in entries):
            return
        assert time.monotonic() < deadline, f"Nova never listed {address}"
        time.sleep(0.5)


def run(
    client: Any, boot: dict[str, str], member: openstack.connection.Connection
) -> dict[str, Any]:
    """The stack created, updated in place and deleted; what each step showed."""
    seen: dict[str, Any] = {}
    stack_name = f"diff-{uuid.uuid4().hex[:6]}"
    stack_id = client.stacks.create(
        stack_name=stack_name,
        template=template(boot),
        parameters={"role": "web", "flavor": boot["small"]},
    )["stack"]["id"]
    try:
        stack = wait_for_stack(client, stack_id, "CREATE")
        seen["create"] = (stack.stack_status, stack.stack_status_reason)
        wait_until_nova_lists_the_floating_ip(member, client, stack_id)
        seen["outputs"] = shape(outputs(client.stacks.get(stack_id)), stack_name)
        seen["resources"] = sorted(
            (resource.resource_name, resource.resource_type, resource.resource_status)
            for resource in client.resources.list(stack_id)
        )
        client.stacks.update(
            stack_id, template=template(boot), parameters={"role": "db", "flavor": boot["small"]}
        )
        stack = wait_for_stack(client, stack_id, "UPDATE")
        seen["update"] = (stack.stack_status, stack.stack_status_reason)
        seen["events"] = events_by_resource(client, stack_id, stack_name)
    finally:
        delete_stack(client, stack_id)
    return seen


def test_a_network_server_volume_and_floating_ip_stack_runs_as_in_heat(
    heat: Any, reference_heat: Any, boot: dict[str, str], member: openstack.connection.Connection
) -> None:
    ours, theirs = run(heat, boot, member), run(reference_heat, boot, member)
    assert (
        ours["create"]
        == theirs["create"]
        == (
            "CREATE_COMPLETE",
            "Stack CREATE completed successfully",
        )
    )
    assert ours["update"] == theirs["update"]
    assert ours["resources"] == theirs["resources"]
    assert ours["events"] == theirs["events"]
    for name, value in ours["outputs"].items():
        assert (name, value) == (name, theirs["outputs"][name])


def test_the_differential_compares_shapes_not_values() -> None:
    assert shape({"a": [{"b": 1}, {"b": 2}], "c": None, "d": "x"}) == {
        "a": [{"b": "int"}],
        "c": "NoneType",
        "d": "str",
    }
