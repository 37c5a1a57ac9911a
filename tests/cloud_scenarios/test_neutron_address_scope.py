"""OS::Neutron::AddressScope, OS::Neutron::SubnetPool and OS::Neutron::RBACPolicy against
the real Neutron, as a project member: a scope, a pool in it and the scope shared with
another project, changed in place, refused as Heat refuses, and gone after delete."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest, HTTPNotFound

from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import physical_ids, unique, wait_for_stack
from tests.keystone import ADMIN, BOB


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


def sharing_template(
    prefixes: list[str], pool: dict[str, Any], target_project: str
) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"name": {"type": "string"}},
        "resources": {
            "scope": {
                "type": "OS::Neutron::AddressScope",
                "properties": {"name": {"get_param": "name"}, "ip_version": 4},
            },
            "pool": {
                "type": "OS::Neutron::SubnetPool",
                "properties": {
                    "name": {"list_join": ["-", [{"get_param": "name"}, "pool"]]},
                    "prefixes": prefixes,
                    "address_scope": {"get_resource": "scope"},
                    **pool,
                },
            },
            "share": {
                "type": "OS::Neutron::RBACPolicy",
                "properties": {
                    "object_type": "address_scope",
                    "object_id": {"get_resource": "scope"},
                    "action": "access_as_shared",
                    "target_tenant": target_project,
                },
            },
        },
        "outputs": {
            "pool_scope": {"value": {"get_attr": ["pool", "show", "address_scope_id"]}},
        },
    }


def test_a_scope_its_pool_and_its_sharing_are_made_changed_in_place_and_deleted(
    heat: Any,
    member: openstack.connection.Connection,
    cloud: Cloud,
    create_stack: Callable[..., str],
) -> None:
    name = unique("scope")
    block = f"10.{random.randrange(64, 250)}"
    first = [f"{block}.0.0/20"]
    pool = {"default_prefixlen": 26, "min_prefixlen": 24, "max_prefixlen": 28, "tags": ["a"]}
    project_b = cloud.project_id(BOB)
    stack_id = create_stack(
        stack_name=unique("scope-life"),
        template=sharing_template(first, pool, project_b),
        parameters={"name": name},
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    scope = member.network.get_address_scope(ids["scope"])
    assert (scope.name, scope.ip_version, scope.is_shared) == (name, 4, False)
    made_pool = member.network.get_subnet_pool(ids["pool"])
    assert (
        made_pool.name,
        made_pool.prefixes,
        made_pool.address_scope_id,
        made_pool.default_prefix_length,
        made_pool.minimum_prefix_length,
        made_pool.maximum_prefix_length,
        made_pool.tags,
    ) == (f"{name}-pool", first, scope.id, 26, 24, 28, ["a"])
    policy = member.network.get_rbac_policy(ids["share"])
    assert (policy.object_type, policy.object_id, policy.action, policy.target_project_id) == (
        "address_scope",
        scope.id,
        "access_as_shared",
        project_b,
    )
    assert heat.stacks.get(stack_id).outputs[0]["output_value"] == scope.id

    # The pool grows, leaves the scope and is re-tagged; the scope is renamed; the
    # scope is shared with another project instead: all in place.
    grown = [*first, f"{block}.16.0/20"]
    changed = {**pool, "default_prefixlen": 27, "tags": ["b", "c"]}
    admin_project = cloud.project_id(ADMIN)
    template = sharing_template(grown, changed, admin_project)
    del template["resources"]["pool"]["properties"]["address_scope"]
    heat.stacks.update(stack_id, template=template, parameters={"name": name + "-2"})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert member.network.get_address_scope(scope.id).name == name + "-2"
    made_pool = member.network.get_subnet_pool(ids["pool"])
    assert (
        made_pool.name,
        made_pool.prefixes,
        made_pool.address_scope_id,
        made_pool.default_prefix_length,
        sorted(made_pool.tags),
    ) == (f"{name}-2-pool", [f"{block}.0.0/19"], None, 27, ["b", "c"])
    assert member.network.get_rbac_policy(ids["share"]).target_project_id == admin_project

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE"
    assert member.network.find_rbac_policy(ids["share"]) is None
    assert member.network.find_subnet_pool(ids["pool"]) is None
    assert member.network.find_address_scope(ids["scope"]) is None


def test_a_pool_cannot_give_back_prefixes(
    heat: Any, member: openstack.connection.Connection, create_stack: Callable[..., str]
) -> None:
    block = f"10.{random.randrange(64, 250)}"

    def template(prefixes: list[str]) -> dict[str, Any]:
        return {
            "heat_template_version": "2018-08-31",
            "resources": {
                "pool": {"type": "OS::Neutron::SubnetPool", "properties": {"prefixes": prefixes}}
            },
        }

    before = [f"{block}.0.0/24", f"{block}.8.0/24"]
    stack_id = create_stack(stack_name=unique("pool-shrink"), template=template(before))
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    pool_id = physical_ids(heat, stack_id)["pool"]

    heat.stacks.update(stack_id, template=template([f"{block}.8.0/24"]))
    stack = wait_for_stack(heat, stack_id, "UPDATE")

    assert stack.stack_status == "UPDATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource UPDATE failed: StackValidationFailed: resources.pool: Property prefixes "
        f"updated value ['{block}.8.0/24'] should be superset of existing value "
        f"['{block}.0.0/24', '{block}.8.0/24']."
    )
    assert sorted(member.network.get_subnet_pool(pool_id).prefixes) == sorted(before)


def test_an_address_scope_cannot_be_made_external(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "scope": {"type": "OS::Neutron::AddressScope"},
            "share": {
                "type": "OS::Neutron::RBACPolicy",
                "properties": {
                    "object_type": "address_scope",
                    "object_id": {"get_resource": "scope"},
                    "action": "access_as_external",
                    "target_tenant": "*",
                },
            },
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("scope-external"), template=template)

    assert refused.value.error["error"] == {
        "message": "Property error: : resources.share.properties.action: : Invalid action "
        '"access_as_external" for object type address_scope. Valid actions: access_as_shared',
        "traceback": None,
        "type": "StackValidationFailed",
    }


def test_inverted_prefix_bounds_are_refused(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "pool": {
                "type": "OS::Neutron::SubnetPool",
                "properties": {
                    "prefixes": ["10.9.0.0/16"],
                    "min_prefixlen": 28,
                    "max_prefixlen": 24,
                },
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("pool-bounds"), template=template)

    assert refused.value.error["error"] == {
        "message": "Illegal prefix bounds: max_prefixlen=24, min_prefixlen=28.",
        "traceback": None,
        "type": "StackValidationFailed",
    }
