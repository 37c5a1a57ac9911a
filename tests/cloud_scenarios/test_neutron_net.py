"""OS::Neutron::Net against the real Neutron: made with its properties, changed in place,
deleted, and Neutron's own refusal reported as Heat reports it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import alice_heat, outputs, physical_ids, wait_for_stack

NETWORK = {
    "heat_template_version": "2018-08-31",
    "parameters": {"name": {"type": "string", "default": "web-net"}},
    "resources": {
        "net": {
            "type": "OS::Neutron::Net",
            "properties": {
                "name": {"get_param": "name"},
                "admin_state_up": False,
                "tags": ["web", "blue"],
                "value_specs": {"description": "made by a stack"},
            },
        }
    },
    "outputs": {
        "status": {"value": {"get_attr": ["net", "status"]}},
        "mtu": {"value": {"get_attr": ["net", "mtu"]}},
        "subnets": {"value": {"get_attr": ["net", "subnets"]}},
    },
}


@pytest.fixture(scope="module", params=["mysql", "sqlite"])
def heat(
    request: pytest.FixtureRequest, cloud: Cloud, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """alice's heatclient of an OpenKeel on MariaDB, then of one on SQLite."""
    directory = tmp_path_factory.mktemp(f"net-{request.param}")
    with alice_heat(cloud, directory, request.param) as client:
        yield client


def test_a_network_is_made_changed_in_place_and_deleted(
    heat: Any, member: openstack.connection.Connection
) -> None:
    created = heat.stacks.create(stack_name="net-life", template=NETWORK)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    network_id = physical_ids(heat, stack_id)["net"]
    network = member.network.get_network(network_id)
    assert (network.name, network.is_admin_state_up, network.description) == (
        "web-net",
        False,
        "made by a stack",
    )
    assert sorted(network.tags) == ["blue", "web"]
    assert outputs(heat.stacks.get(stack_id)) == {
        "status": "ACTIVE",
        "mtu": network.mtu,
        "subnets": [],
    }

    heat.stacks.update(stack_id, template=NETWORK, parameters={"name": "web-net-2"})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["net"] == network_id
    assert member.network.get_network(network_id).name == "web-net-2"

    heat.stacks.delete(stack_id)
    assert wait_for_stack(heat, stack_id, "DELETE") is None or (
        heat.stacks.get(stack_id).stack_status == "DELETE_COMPLETE"
    )
    assert member.network.find_network(network_id) is None


def test_neutrons_refusal_fails_the_create_with_neutronclients_error(
    heat: Any, member: openstack.connection.Connection
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {
                "type": "OS::Neutron::Net",
                "properties": {"value_specs": {"no_such_attribute": 1}},
            }
        },
    }
    created = heat.stacks.create(stack_name="net-refused", template=template)
    stack = wait_for_stack(heat, created["stack"]["id"], "CREATE")

    assert stack.stack_status == "CREATE_FAILED"
    reason = stack.stack_status_reason
    assert reason.startswith(
        "Resource CREATE failed: BadRequest: resources.net: "
        "Unrecognized attribute(s) 'no_such_attribute'\n"
        "Neutron server returns request_ids: ['req-"
    ), reason
    assert [n for n in member.network.networks() if n.name.startswith("net-refused")] == []
    heat.stacks.delete(created["stack"]["id"])
    wait_for_stack(heat, created["stack"]["id"], "DELETE")


def test_shared_is_refused_in_value_specs_before_anything_is_made(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net", "properties": {"value_specs": {"shared": True}}}
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name="net-shared", template=template)

    assert refused.value.error["error"] == {
        "message": "shared not allowed in value_specs",
        "traceback": None,
        "type": "StackValidationFailed",
    }
    assert [stack for stack in heat.stacks.list() if stack.stack_name == "net-shared"] == []
