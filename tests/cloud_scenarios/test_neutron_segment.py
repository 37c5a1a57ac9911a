"""OS::Neutron::Segment against the real Neutron, as the cloud's admin (Heat's and
Neutron's policies keep segments to admins): a VLAN segment and a flat one added to a
network, renamed in place, a new VLAN making a new segment, refused as Heat and Neutron
refuse (with openstacksdk's errors, as Heat drives segments through it), and gone after
delete."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest, HTTPNotFound

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat
from tests.cloud_scenarios.conftest import physical_ids, unique, wait_for_stack


def free_vlan() -> int:
    # Outside the range the cloud hands out to tenant networks (physnet1:100:199), so
    # that only an explicit choice takes it; random so that parallel runs rarely meet.
    return random.randrange(1000, 4000)


@pytest.fixture(scope="module")
def heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with admin_heat(cloud, tmp_path_factory.mktemp("neutron-segment")) as client:
        yield client


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


def segments_template(vlan: dict[str, Any], flat: dict[str, Any]) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"name": {"type": "string"}},
        "resources": {
            "net": {"type": "OS::Neutron::Net", "properties": {"name": {"get_param": "name"}}},
            "vlan": {
                "type": "OS::Neutron::Segment",
                "properties": {
                    "network": {"get_resource": "net"},
                    "network_type": "vlan",
                    "physical_network": "physnet1",
                    **vlan,
                },
            },
            "flat": {
                "type": "OS::Neutron::Segment",
                "properties": {
                    "network": {"get_resource": "net"},
                    "network_type": "flat",
                    **flat,
                },
            },
        },
        "outputs": {
            "segments": {"value": {"get_attr": ["net", "segments"]}},
            "vlan": {"value": {"get_attr": ["vlan", "show", "segmentation_id"]}},
        },
    }


def outputs(heat: Any, stack_id: str) -> dict[str, Any]:
    return {
        output["output_key"]: output["output_value"] for output in heat.stacks.get(stack_id).outputs
    }


def test_segments_are_added_to_a_network_changed_in_place_or_anew_and_deleted(
    heat: Any, admin: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    name = unique("segment")
    physnet = unique("physnet")
    vlan_id = free_vlan()
    stack_id = create_stack(
        stack_name=unique("segment-life"),
        template=segments_template(
            {"segmentation_id": vlan_id, "description": "tagged"},
            {"name": f"{name}-flat", "physical_network": physnet},
        ),
        parameters={"name": name},
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    vlan = admin.network.get_segment(ids["vlan"])
    assert (
        vlan.network_id,
        vlan.network_type,
        vlan.physical_network,
        vlan.segmentation_id,
        vlan.description,
    ) == (ids["net"], "vlan", "physnet1", vlan_id, "tagged")
    # Named after the stack where the template gives no name.
    assert vlan.name.startswith(f"{stack.stack_name}-vlan-")
    flat = admin.network.get_segment(ids["flat"])
    assert (flat.name, flat.network_type, flat.physical_network, flat.segmentation_id) == (
        f"{name}-flat",
        "flat",
        physnet,
        None,
    )
    listed = outputs(heat, stack_id)
    # Outputs show the network as it was when it completed, as Heat's convergence keeps
    # them: its own (vxlan) segment, not the two added after it.
    held = {segment.id for segment in admin.network.segments(network_id=ids["net"])}
    assert {ids["vlan"], ids["flat"]} < held
    assert {segment["id"] for segment in listed["segments"]} == held - {ids["vlan"], ids["flat"]}
    assert listed["vlan"] == vlan_id

    # The flat segment is renamed and described in place; another VLAN is a new segment.
    other_vlan = vlan_id + 1
    template = segments_template(
        {"segmentation_id": other_vlan, "description": "tagged"},
        {"name": f"{name}-flat-2", "description": "untagged", "physical_network": physnet},
    )
    heat.stacks.update(stack_id, template=template, parameters={"name": name})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason

    after = physical_ids(heat, stack_id)
    assert (after["net"], after["flat"]) == (ids["net"], ids["flat"])
    assert after["vlan"] != ids["vlan"]
    assert admin.network.find_segment(ids["vlan"]) is None
    assert admin.network.get_segment(after["vlan"]).segmentation_id == other_vlan
    flat = admin.network.get_segment(ids["flat"])
    assert (flat.name, flat.description) == (f"{name}-flat-2", "untagged")

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert admin.network.find_segment(after["vlan"]) is None
    assert admin.network.find_segment(ids["flat"]) is None
    assert admin.network.find_network(ids["net"]) is None


def test_a_vlan_segment_without_its_id_is_refused_before_anything_is_made(heat: Any) -> None:
    name = unique("segment-no-id")
    template = segments_template({}, {"physical_network": "physnet1"})
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=name, template=template, parameters={"name": name})

    assert refused.value.error["error"] == {
        "message": "segmentation_id is required for vlan provider network.",
        "traceback": None,
        "type": "StackValidationFailed",
    }
    assert [stack for stack in heat.stacks.list() if stack.stack_name == name] == []


def test_a_vlan_taken_already_fails_with_openstacksdks_conflict(
    heat: Any,
    admin: openstack.connection.Connection,
    cloud: Cloud,
    create_stack: Callable[..., str],
) -> None:
    name = unique("segment-taken")
    vlan_id = free_vlan()
    template = segments_template({"segmentation_id": vlan_id}, {"physical_network": name})
    template["resources"]["again"] = {**template["resources"]["vlan"], "depends_on": ["vlan"]}
    stack_id = create_stack(stack_name=name, template=template, parameters={"name": name})
    stack = wait_for_stack(heat, stack_id, "CREATE")

    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: ConflictException: resources.again: ConflictException: 409: "
        f"Client Error for url: {cloud.endpoints['network']}/v2.0/segments, Unable to create "
        f"the network. The VLAN {vlan_id} on physical network physnet1 is in use."
    )
    ids = physical_ids(heat, stack_id)
    assert [
        segment.id
        for segment in admin.network.segments(network_id=ids["net"])
        if segment.segmentation_id == vlan_id
    ] == [ids["vlan"]]
