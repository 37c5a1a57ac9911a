"""OS::Cinder::Quota against the real Cinder, on a project of its own: quotas set and
changed in place, Cinder's defaults back after the delete, and a quota below what the
project uses refused as Heat refuses it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat as heat_as_admin
from tests.cloud_scenarios.conftest import unique, wait_for_stack
from tests.keystone import ADMIN

WAIT = 120


@pytest.fixture(scope="module")
def admin_heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """python-heatclient as the cloud's admin (Cinder's quotas are the admin's)."""
    with heat_as_admin(cloud, tmp_path_factory.mktemp("cinder-quota")) as client:
        yield client


@pytest.fixture
def project(
    cloud: Cloud,
    admin: openstack.connection.Connection,
) -> Iterator[Any]:
    """A project of the test's own, where the admin may make volumes; gone after."""
    made = admin.identity.create_project(name=unique("quota-project"), domain_id="default")
    admin_role = admin.identity.find_role("admin")
    admin_user = admin.identity.find_user(ADMIN.user_name, domain_id="default")
    admin.identity.assign_project_role_to_user(made, admin_user, admin_role)
    try:
        yield made
    finally:
        there = openstack.connect(**{**cloud.auth(ADMIN), "project_name": made.name})
        for volume in there.block_storage.volumes():
            there.block_storage.delete_volume(volume)
            there.block_storage.wait_for_delete(volume, wait=WAIT)
        there.close()
        admin.block_storage.request(f"/os-quota-sets/{made.id}", "DELETE", raise_exc=False)
        admin.identity.delete_project(made)


def quotas(admin: openstack.connection.Connection, project_id: str) -> dict[str, int]:
    answer = admin.block_storage.request(f"/os-quota-sets/{project_id}", "GET").json()
    wanted = ("gigabytes", "volumes", "snapshots", "backups", "backup_gigabytes")
    return {key: answer["quota_set"][key] for key in wanted}


def quota_template(project: str, **limits: int) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "quota": {"type": "OS::Cinder::Quota", "properties": {"project": project, **limits}}
        },
    }


def test_a_projects_quotas_are_set_changed_in_place_and_given_back(
    admin_heat: Any,
    admin: openstack.connection.Connection,
    project: Any,
) -> None:
    defaults = quotas(admin, project.id)
    template = quota_template(project.name, gigabytes=10, volumes=3, snapshots=2)
    stack_id = admin_heat.stacks.create(stack_name=unique("quota"), template=template)["stack"][
        "id"
    ]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert quotas(admin, project.id) == {**defaults, "gigabytes": 10, "volumes": 3, "snapshots": 2}

    template = quota_template(project.name, gigabytes=20, volumes=-1, backups=1)
    admin_heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(admin_heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    # What the template no longer names keeps the value it was given.
    assert quotas(admin, project.id) == {
        **defaults,
        "gigabytes": 20,
        "volumes": -1,
        "snapshots": 2,
        "backups": 1,
    }

    admin_heat.stacks.delete(stack_id)
    stack = wait_for_stack(admin_heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert quotas(admin, project.id) == defaults


def test_a_quota_below_the_usage_fails_the_create(
    admin_heat: Any,
    admin: openstack.connection.Connection,
    cloud: Cloud,
    project: Any,
) -> None:
    there = openstack.connect(**{**cloud.auth(ADMIN), "project_name": project.name})
    volume = there.block_storage.create_volume(size=1, name=unique("used"))
    there.block_storage.wait_for_status(volume, "available", wait=WAIT)
    there.close()
    defaults = quotas(admin, project.id)

    template = quota_template(project.id, volumes=0)
    stack_id = admin_heat.stacks.create(stack_name=unique("quota-low"), template=template)["stack"][
        "id"
    ]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: ValueError: resources.quota: Invalid quota volumes value(s): 0. "
        "Can not be less than the current usage value(s): 1."
    )
    assert quotas(admin, project.id) == defaults
    admin_heat.stacks.delete(stack_id)
    wait_for_stack(admin_heat, stack_id, "DELETE")
