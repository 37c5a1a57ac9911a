"""OS::Keystone::Domain against the cloud's Keystone, driven by its admin: a domain with a
project in it, changed in place, disabled and deleted; and an enabled domain, which
Keystone refuses to delete, failing the delete with Keystone's Forbidden as with Heat."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat
from tests.cloud_scenarios.conftest import physical_ids, wait_for_stack


@pytest.fixture(scope="module")
def heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with admin_heat(cloud, tmp_path_factory.mktemp("keystone-domain")) as client:
        yield client


def domain_template(prefix: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "name": {"type": "string", "default": f"{prefix}-domain"},
            "description": {"type": "string", "default": "made by a stack"},
            "enabled": {"type": "boolean", "default": True},
        },
        "resources": {
            "domain": {
                "type": "OS::Keystone::Domain",
                "properties": {
                    "name": {"get_param": "name"},
                    "description": {"get_param": "description"},
                    "enabled": {"get_param": "enabled"},
                },
            },
            "project": {
                "type": "OS::Keystone::Project",
                "properties": {"domain": {"get_resource": "domain"}},
            },
        },
        "outputs": {"project_domain": {"value": {"get_attr": ["project", "domain_id"]}}},
    }


def test_a_domain_is_made_changed_in_place_disabled_and_deleted(
    heat: Any, admin: openstack.connection.Connection
) -> None:
    prefix = f"kd-{uuid.uuid4().hex[:8]}"
    template = domain_template(prefix)
    created = heat.stacks.create(stack_name=prefix, template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    domain = admin.identity.get_domain(ids["domain"])
    assert (domain.name, domain.description, domain.is_enabled) == (
        f"{prefix}-domain",
        "made by a stack",
        True,
    )
    project = admin.identity.get_project(ids["project"])
    assert project.domain_id == ids["domain"]
    assert project.name.startswith(f"{prefix}-project-")
    assert heat.stacks.get(stack_id).outputs[0]["output_value"] == ids["domain"]

    heat.stacks.update(
        stack_id,
        template=template,
        parameters={"name": f"{prefix}-renamed", "description": "changed", "enabled": False},
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    domain = admin.identity.get_domain(ids["domain"])
    assert (domain.name, domain.description, domain.is_enabled) == (
        f"{prefix}-renamed",
        "changed",
        False,
    )

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert admin.identity.find_project(ids["project"]) is None
    assert admin.identity.find_domain(ids["domain"]) is None


def test_an_enabled_domain_fails_the_delete_with_keystones_forbidden(
    heat: Any, admin: openstack.connection.Connection
) -> None:
    prefix = f"kd-{uuid.uuid4().hex[:8]}"
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"domain": {"type": "OS::Keystone::Domain"}},
    }
    created = heat.stacks.create(stack_name=prefix, template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    domain_id = physical_ids(heat, stack_id)["domain"]
    assert admin.identity.get_domain(domain_id).name.startswith(f"{prefix}-domain-")

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")

    assert stack.stack_status == "DELETE_FAILED"
    reason = stack.stack_status_reason
    assert reason.startswith(
        "Resource DELETE failed: Forbidden: resources.domain: Cannot delete a domain that is "
        "enabled, please disable it first. (HTTP 403) (Request-ID: req-"
    ), reason
    assert admin.identity.get_domain(domain_id).is_enabled

    # Disabled outside the stack, it goes with the next delete.
    admin.identity.update_domain(domain_id, is_enabled=False)
    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert admin.identity.find_domain(domain_id) is None
