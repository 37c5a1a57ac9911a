"""OS::Neutron::Trunk against the real Neutron, as a project member: a parent port with
VLAN subports named by name or id, renamed and its subports changed in place (those kept
untouched), refused as Neutron refuses while disabled, and gone after delete with its
ports left to their own resources."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPNotFound

from tests.cloud_scenarios.conftest import physical_ids, unique, wait_for_stack


@pytest.fixture
def create_stack(heat: Any) -> Iterator[Callable[..., str]]:
    """Creates a stack, the id returned; what a test leaves behind is deleted after it."""
    made: list[str] = []

    def create(**arguments: Any) -> str:
        stack_id = str(heat.stacks.create(**arguments)["stack"]["id"])
        made.append(stack_id)
        return stack_id

    yield create
    for stack_id in made:
        with contextlib.suppress(HTTPNotFound):  # the test deleted it
            heat.stacks.delete(stack_id)
    for stack_id in made:
        wait_for_stack(heat, stack_id, "DELETE")


def trunk_template(trunk: dict[str, Any]) -> dict[str, Any]:
    """A network with a parent port and three ports to be subports (named after the
    ``name`` parameter: ``<name>-a``...), and the trunk."""
    ports = {
        f"port_{suffix}": {
            "type": "OS::Neutron::Port",
            "properties": {
                "name": {"list_join": ["-", [{"get_param": "name"}, suffix]]},
                "network": {"get_resource": "net"},
            },
        }
        for suffix in ("parent", "a", "b", "c")
    }
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"name": {"type": "string"}},
        "resources": {
            "net": {"type": "OS::Neutron::Net", "properties": {"name": {"get_param": "name"}}},
            **ports,
            "trunk": {
                "type": "OS::Neutron::Trunk",
                # Subports named by name are no dependencies.
                "depends_on": list(ports),
                "properties": {"port": {"get_resource": "port_parent"}, **trunk},
            },
        },
        "outputs": {"parent": {"value": {"get_attr": ["trunk", "port_id"]}}},
    }


def subports(member: openstack.connection.Connection, trunk_id: str) -> list[tuple[str, int]]:
    trunk = member.network.get_trunk(trunk_id)
    return sorted((sub["port_id"], sub["segmentation_id"]) for sub in trunk.sub_ports)


def vlan(port: Any, segmentation_id: int) -> dict[str, Any]:
    return {"port": port, "segmentation_type": "vlan", "segmentation_id": segmentation_id}


def test_a_trunk_and_its_subports_are_made_changed_in_place_and_deleted(
    heat: Any, member: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    name = unique("trunk")
    trunk = {
        "name": name,
        "description": "first",
        "sub_ports": [vlan(f"{name}-a", 101), vlan({"get_resource": "port_b"}, 102)],
    }
    stack_id = create_stack(
        stack_name=unique("trunk-life"),
        template=trunk_template(trunk),
        parameters={"name": name},
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    made = member.network.get_trunk(ids["trunk"])
    assert (made.name, made.description, made.port_id, made.is_admin_state_up, made.status) == (
        name,
        "first",
        ids["port_parent"],
        True,
        "DOWN",  # no server uses it
    )
    assert subports(member, ids["trunk"]) == sorted([(ids["port_a"], 101), (ids["port_b"], 102)])
    assert heat.stacks.get(stack_id).outputs[0]["output_value"] == ids["port_parent"]

    # Renamed; port a kept as it was, port b leaves, port c joins: all in place.
    changed = {
        "name": name + "-2",
        "description": "second",
        "sub_ports": [vlan({"get_resource": "port_a"}, 101), vlan(f"{name}-c", 103)],
    }
    heat.stacks.update(stack_id, template=trunk_template(changed), parameters={"name": name})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    made = member.network.get_trunk(ids["trunk"])
    assert (made.name, made.description) == (name + "-2", "second")
    assert subports(member, ids["trunk"]) == sorted([(ids["port_a"], 101), (ids["port_c"], 103)])
    assert member.network.get_port(ids["port_b"]).device_owner == ""

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert member.network.find_trunk(ids["trunk"]) is None
    assert member.network.find_port(ids["port_parent"]) is None


def test_a_disabled_trunk_refuses_subport_changes_with_neutrons_conflict(
    heat: Any, member: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    name = unique("trunk-off")
    trunk = {"sub_ports": [vlan({"get_resource": "port_a"}, 201)]}
    stack_id = create_stack(
        stack_name=name, template=trunk_template(trunk), parameters={"name": name}
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)
    # Named after the stack where the template gives no name.
    assert member.network.get_trunk(ids["trunk"]).name.startswith(f"{name}-trunk-")

    # Disabled first, as Heat orders the calls: then Neutron refuses the new subport.
    disabled = {"admin_state_up": False, "sub_ports": [*trunk["sub_ports"], vlan(f"{name}-b", 202)]}
    heat.stacks.update(stack_id, template=trunk_template(disabled), parameters={"name": name})
    stack = wait_for_stack(heat, stack_id, "UPDATE")

    assert stack.stack_status == "UPDATE_FAILED"
    assert stack.stack_status_reason.startswith(
        f"Resource UPDATE failed: Conflict: resources.trunk: Trunk {ids['trunk']} is "
        "currently disabled.\nNeutron server returns request_ids: ['req-"
    ), stack.stack_status_reason
    made = member.network.get_trunk(ids["trunk"])
    assert made.is_admin_state_up is False
    assert subports(member, ids["trunk"]) == [(ids["port_a"], 201)]

    # Enabled again, the same update goes through.
    enabled = {**disabled, "admin_state_up": True}
    heat.stacks.update(stack_id, template=trunk_template(enabled), parameters={"name": name})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert subports(member, ids["trunk"]) == sorted([(ids["port_a"], 201), (ids["port_b"], 202)])
