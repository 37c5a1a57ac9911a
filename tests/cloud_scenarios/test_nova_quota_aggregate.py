"""OS::Nova::Quota and OS::Nova::HostAggregate against the real Nova, as the cloud's admin
(Heat's policy keeps both quotas and Nova's aggregates to admins).

The cloud has one compute host, which other tests' servers share: an aggregate holding
it never has an availability zone here (that would move the host out of Nova's default
zone while they boot), and the zone is tried on an aggregate without hosts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest, HTTPForbidden

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat as heat_as_admin
from tests.cloud_scenarios.conftest import delete_stack, physical_ids, unique, wait_for_stack

NOVA_LIMITS = (
    "cores", "fixed_ips", "floating_ips", "injected_file_content_bytes",
    "injected_file_path_bytes", "injected_files", "instances", "key_pairs",
    "metadata_items", "ram", "security_group_rules", "security_groups",
    "server_group_members", "server_groups",
)  # fmt: skip


@pytest.fixture(scope="module")
def admin_heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with heat_as_admin(cloud, tmp_path_factory.mktemp("nova-admin")) as client:
        yield client


@pytest.fixture
def project(admin: openstack.connection.Connection) -> Iterator[Any]:
    made = admin.identity.create_project(name=unique("nova-quota"), domain_id="default")
    try:
        yield made
    finally:
        admin.compute.delete(f"/os-quota-sets/{made.id}")
        admin.identity.delete_project(made)


def quotas(admin: openstack.connection.Connection, project_id: str) -> dict[str, int]:
    answer = admin.compute.get(f"/os-quota-sets/{project_id}").json()["quota_set"]
    return {key: answer[key] for key in NOVA_LIMITS}


def template_of(resource_type: str, **properties: Any) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"thing": {"type": resource_type, "properties": properties}},
    }


def aggregate_named(admin: openstack.connection.Connection, aggregate_id: str) -> Any:
    return admin.compute.get(f"/os-aggregates/{aggregate_id}").json()["aggregate"]


def test_a_projects_nova_quotas_are_set_changed_in_place_and_given_back(
    admin_heat: Any, admin: openstack.connection.Connection, project: Any
) -> None:
    defaults = quotas(admin, project.id)
    # The project by name; the network limits Nova's base microversion still takes.
    template = template_of(
        "OS::Nova::Quota", project=project.name, cores=8, instances=4, fixed_ips=12
    )
    stack_id = admin_heat.stacks.create(stack_name=unique("nova-quota"), template=template)[
        "stack"
    ]["id"]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert quotas(admin, project.id) == {**defaults, "cores": 8, "instances": 4, "fixed_ips": 12}

    template = template_of("OS::Nova::Quota", project=project.id, cores=-1, ram=2048)
    admin_heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(admin_heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    # What the template no longer names keeps the value it was given.
    assert quotas(admin, project.id) == {
        **defaults,
        "cores": -1,
        "instances": 4,
        "fixed_ips": 12,
        "ram": 2048,
    }

    delete_stack(admin_heat, stack_id)
    assert quotas(admin, project.id) == defaults


def test_a_nova_quota_without_a_limit_is_refused(admin_heat: Any, project: Any) -> None:
    with pytest.raises(HTTPBadRequest) as refused:
        admin_heat.stacks.create(
            stack_name=unique("nova-quota-empty"),
            template=template_of("OS::Nova::Quota", project=project.id),
        )
    assert refused.value.error["error"]["message"] == (
        "At least one of the following properties must be specified: cores, fixed_ips, "
        "floating_ips, injected_file_content_bytes, injected_file_path_bytes, "
        "injected_files, instances, key_pairs, metadata_items, ram, security_group_rules, "
        "security_groups, server_group_members, server_groups."
    )


def test_a_member_may_not_set_nova_quotas_by_heats_default_policy(heat: Any) -> None:
    with pytest.raises(HTTPForbidden) as refused:
        heat.stacks.create(
            stack_name=unique("nova-quota-refused"),
            template=template_of("OS::Nova::Quota", project="project-a", cores=1),
        )
    assert refused.value.error["error"]["message"] == (
        "You are not authorized to use resource_types:OS::Nova::Quota."
    )


def test_an_aggregate_takes_the_host_and_metadata_and_lets_the_host_go(
    admin_heat: Any, admin: openstack.connection.Connection, cloud: Cloud
) -> None:
    name = unique("aggregate")
    template = template_of(
        "OS::Nova::HostAggregate",
        name=name,
        hosts=[cloud.compute_host],
        metadata={"disk": "ssd", "speed": "fast"},
    )
    stack_id = admin_heat.stacks.create(stack_name=unique("aggregate"), template=template)["stack"][
        "id"
    ]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    aggregate_id = physical_ids(admin_heat, stack_id)["thing"]
    made = aggregate_named(admin, aggregate_id)
    assert (made["name"], made["hosts"], made["availability_zone"]) == (
        name,
        [cloud.compute_host],
        None,
    )
    assert made["metadata"] == {"disk": "ssd", "speed": "fast"}

    template = template_of(
        "OS::Nova::HostAggregate", name=name, hosts=[], metadata={"disk": "nvme"}
    )
    admin_heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(admin_heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    changed = aggregate_named(admin, aggregate_id)
    assert changed["id"] == made["id"]
    assert changed["hosts"] == []
    # Nova merges the new metadata into the old, as Heat sets it.
    assert changed["metadata"] == {"disk": "nvme", "speed": "fast"}

    # Back with the host: the delete takes it out first, as Nova requires.
    template = template_of("OS::Nova::HostAggregate", name=name, hosts=[cloud.compute_host])
    admin_heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(admin_heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert aggregate_named(admin, aggregate_id)["hosts"] == [cloud.compute_host]

    delete_stack(admin_heat, stack_id)
    assert name not in [aggregate.name for aggregate in admin.compute.aggregates()]


def test_an_aggregates_name_and_zone_change_in_place(
    admin_heat: Any, admin: openstack.connection.Connection
) -> None:
    name = unique("zone-aggregate")
    zone = unique("zone")
    template = template_of("OS::Nova::HostAggregate", name=name, availability_zone=zone)
    stack_id = admin_heat.stacks.create(stack_name=unique("zone-aggregate"), template=template)[
        "stack"
    ]["id"]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    aggregate_id = physical_ids(admin_heat, stack_id)["thing"]
    made = aggregate_named(admin, aggregate_id)
    assert (made["name"], made["availability_zone"], made["hosts"]) == (name, zone, [])
    assert made["metadata"] == {"availability_zone": zone}

    template = template_of(
        "OS::Nova::HostAggregate", name=f"{name}-renamed", availability_zone=f"{zone}-moved"
    )
    admin_heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(admin_heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    changed = aggregate_named(admin, aggregate_id)
    assert (changed["id"], changed["name"], changed["availability_zone"]) == (
        made["id"],
        f"{name}-renamed",
        f"{zone}-moved",
    )

    delete_stack(admin_heat, stack_id)
    assert f"{name}-renamed" not in [aggregate.name for aggregate in admin.compute.aggregates()]


def test_an_unknown_host_is_refused_by_its_constraint(admin_heat: Any) -> None:
    template = template_of(
        "OS::Nova::HostAggregate", name=unique("aggregate"), hosts=["no-such-host"]
    )
    with pytest.raises(HTTPBadRequest) as refused:
        admin_heat.stacks.create(stack_name=unique("aggregate-refused"), template=template)
    # Nova's own answer, as novaclient words it (its request id differs each time).
    assert refused.value.error["error"]["message"].startswith(
        "Property error: : resources.thing.properties.hosts[0]: : Error validating value "
        "'no-such-host': No hypervisor matching 'no-such-host' could be found. (HTTP 404) "
        "(Request-ID: req-"
    )
