"""OS::Neutron::ProviderNet against the real Neutron, as the cloud's admin (Neutron's
policy lets only admins choose a network's provider attributes): a flat network on a
physical network of its own, changed in place, refused as Heat and Neutron refuse, and
gone after delete."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import openstack
import openstack.connection
import pytest
from heatclient import client as heat_client
from heatclient.exc import HTTPBadRequest, HTTPNotFound
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from tests.cli import distributed
from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import physical_ids, unique, wait_for_stack
from tests.keystone import ADMIN


@pytest.fixture(scope="module")
def heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A python-heatclient of the admin's, talking to a keel-api of its own."""
    directory = tmp_path_factory.mktemp("provider-net")
    with distributed.behind_keystone(directory, cloud.keystone):
        port = distributed.api_port(directory / "heat.conf")
        auth = v3.Password(
            auth_url=cloud.auth_url,
            username=ADMIN.user_name,
            password=ADMIN.password,
            project_name=ADMIN.project_name,
            user_domain_id="default",
            project_domain_id="default",
        )
        yield heat_client.Client(
            "1",
            session=ks_session.Session(auth=auth),
            endpoint_override=f"http://{distributed.HOST}:{port}/v1/{cloud.project_id(ADMIN)}",
        )


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


def flat_network(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"physnet": {"type": "string"}},
        "resources": {
            "net": {
                "type": "OS::Neutron::ProviderNet",
                "properties": {
                    "network_type": "flat",
                    "physical_network": {"get_param": "physnet"},
                    **properties,
                },
            }
        },
        "outputs": {
            "status": {"value": {"get_attr": ["net", "status"]}},
            "subnets": {"value": {"get_attr": ["net", "subnets"]}},
        },
    }


def test_a_flat_provider_network_is_made_changed_in_place_and_deleted(
    heat: Any, admin: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    physnet = unique("physnet")
    stack_id = create_stack(
        stack_name=unique("provider-life"),
        template=flat_network({"name": "provider-a", "tags": ["edge"]}),
        parameters={"physnet": physnet},
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    network_id = physical_ids(heat, stack_id)["net"]
    network = admin.network.get_network(network_id)
    assert (
        network.name,
        network.provider_network_type,
        network.provider_physical_network,
        network.provider_segmentation_id,
        network.is_shared,
        network.is_router_external,
        network.tags,
    ) == ("provider-a", "flat", physnet, None, True, False, ["edge"])
    outputs = {item["output_key"]: item["output_value"] for item in stack.outputs}
    assert outputs == {"status": "ACTIVE", "subnets": []}

    changed = {"name": "provider-b", "shared": False, "router_external": True, "tags": ["x"]}
    heat.stacks.update(stack_id, template=flat_network(changed), parameters={"physnet": physnet})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["net"] == network_id
    network = admin.network.get_network(network_id)
    assert (network.name, network.is_shared, network.is_router_external, network.tags) == (
        "provider-b",
        False,
        True,
        ["x"],
    )

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE"
    assert admin.network.find_network(network_id) is None


def test_a_physical_network_neutron_does_not_know_fails_the_create(
    heat: Any, admin: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    physnet = unique("no-such-physnet")
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {
                "type": "OS::Neutron::ProviderNet",
                "properties": {"network_type": "vlan", "physical_network": physnet},
            }
        },
    }
    stack_id = create_stack(stack_name=unique("provider-vlan"), template=template)
    stack = wait_for_stack(heat, stack_id, "CREATE")

    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: BadRequest: resources.net: Invalid input for operation: "
        f"physical_network '{physnet}' unknown for VLAN provider network.\n"
        "Neutron server returns request_ids: ['req-"
    ), stack.stack_status_reason
    assert [n for n in admin.network.networks() if n.provider_physical_network == physnet] == []


def test_a_flat_network_with_a_segmentation_id_is_refused(heat: Any) -> None:
    template = flat_network({"segmentation_id": "101"})
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(
            stack_name=unique("provider-flat"), template=template, parameters={"physnet": "p"}
        )

    assert refused.value.error["error"] == {
        "message": "segmentation_id not allowed for network types: local, flat",
        "traceback": None,
        "type": "StackValidationFailed",
    }
