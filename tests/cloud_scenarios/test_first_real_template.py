"""A Heat user's first real template, against the real cloud: a network, a subnet, a router
with a gateway and its interface, a security group, a port, a server booted with
SOFTWARE_CONFIG user data, a volume attached to it, a floating IP on its port and a
software deployment to it. The test plays the server's agent (os-collect-config through
the CFN API, then the deployment's pre-signed CFN signal). The stack completes with the
deployment's output; an update resizes the server and gives it a new port, in place;
the delete leaves nothing behind."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest

from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)
from tests.cloud_scenarios.network_server_template import (
    boot_material,
    network_server_template,
)
from tests.cloud_scenarios.os_collect_config import CFN, collect

AGENT_TIMEOUT = 120.0
pytestmark = pytest.mark.usefixtures("stacks_left_behind")


@pytest.fixture(scope="module")
def boot(cloud: Cloud) -> Iterator[dict[str, str]]:
    with boot_material(cloud, "first") as made:
        yield made


def template(boot: dict[str, str], second_port: bool = False) -> dict[str, Any]:
    return network_server_template(
        boot,
        "10.94.0.0/24",
        software_config=CFN,
        second_port=second_port,
        outputs={
            "result": {"value": {"get_attr": ["deployment", "result"]}},
            "stdout": {"value": {"get_attr": ["deployment", "deploy_stdout"]}},
            "address": {"value": {"get_attr": ["floating", "floating_ip_address"]}},
        },
    )


def play_the_agent(heat: Any, stack_id: str, server_id: str) -> None:
    """Poll the server's metadata as os-collect-config does until the deployment is in it,
    then signal its outputs through the URL it came with."""
    collect_config = heat.resources.metadata(stack_id, "server")["os-collect-config"]
    deadline = time.monotonic() + AGENT_TIMEOUT
    while True:
        deployments = collect(heat, CFN, collect_config).get("deployments") or []
        if deployments:
            break
        assert time.monotonic() < deadline, f"no deployment reached server {server_id}"
        time.sleep(1)
    [deployment] = deployments
    inputs = {item["name"]: item.get("value") for item in deployment["inputs"]}
    assert (inputs["greeting"], inputs["deploy_action"], inputs["deploy_server_id"]) == (
        "hello",
        "CREATE",
        server_id,
    )
    body = json.dumps(
        {"deploy_stdout": "done", "deploy_stderr": "", "deploy_status_code": 0, "result": "HI"}
    ).encode()
    request = urllib.request.Request(
        inputs["deploy_signal_id"],
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 200


def test_network_server_volume_floating_ip_and_deployment_create_update_and_go(
    heat: Any, member: openstack.connection.Connection, boot: dict[str, str]
) -> None:
    stack_id = heat.stacks.create(
        stack_name=unique("first"),
        template=template(boot),
        parameters={"flavor": boot["small"], "role": "web"},
    )["stack"]["id"]
    deadline = time.monotonic() + AGENT_TIMEOUT
    while "server" not in physical_ids(heat, stack_id) or (
        heat.resources.get(stack_id, "server").resource_status != "CREATE_COMPLETE"
    ):
        assert time.monotonic() < deadline, heat.stacks.get(stack_id).stack_status_reason
        time.sleep(1)
    server_id = physical_ids(heat, stack_id)["server"]
    play_the_agent(heat, stack_id, server_id)
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    shown = outputs(stack)
    assert (shown["result"], shown["stdout"]) == ("HI", "done")

    ids = physical_ids(heat, stack_id)
    server = member.compute.get_server(server_id)
    assert (server.status, server.flavor.name) == ("ACTIVE", boot["small"])
    assert [attached["id"] for attached in server.attached_volumes] == [ids["volume"]]
    assert member.block_storage.get_volume(ids["volume"]).status == "in-use"
    [port] = member.network.ports(device_id=server_id)
    assert (port.id, port.security_group_ids) == (ids["port"], [ids["group"]])
    floating = member.network.get_ip(ids["floating"])
    assert (floating.port_id, floating.floating_ip_address) == (port.id, shown["address"])

    # A larger flavor (Nova's resize, confirmed) and a second port: both in place.
    heat.stacks.update(
        stack_id,
        template=template(boot, second_port=True),
        parameters={"flavor": boot["large"], "role": "web"},
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)
    assert ids["server"] == server_id
    server = member.compute.get_server(server_id)
    assert (server.status, server.flavor.name) == ("ACTIVE", boot["large"])
    assert sorted(port.id for port in member.network.ports(device_id=server_id)) == sorted(
        [ids["port"], ids["second_port"]]
    )
    assert outputs(stack)["result"] == "HI"

    delete_stack(heat, stack_id)
    assert member.compute.find_server(server_id) is None
    with pytest.raises(openstack.exceptions.NotFoundException):
        member.block_storage.get_volume(ids["volume"])
    assert member.network.find_ip(ids["floating"]) is None
    assert member.network.find_network(ids["net"]) is None
    assert member.network.find_router(ids["router"]) is None
    assert member.network.find_security_group(ids["group"]) is None
    assert list(heat.software_deployments.list(server_id=server_id)) == []
