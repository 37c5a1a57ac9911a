"""OS::Keystone::Project against the cloud's Keystone, driven by its admin: a project
made under a parent with its tags, changed in place, moved under another parent by
replacement, deleted; and Keystone's refusal reported as Heat reports it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat
from tests.cloud_scenarios.conftest import outputs, physical_ids, wait_for_stack


@pytest.fixture(scope="module")
def heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    # A conflict fails the create at once instead of after Heat's five retries.
    directory = tmp_path_factory.mktemp("keystone-project")
    with admin_heat(cloud, directory, "action_retry_limit = 0\n") as client:
        yield client


def projects_template(prefix: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "name": {"type": "string"},
            "description": {"type": "string", "default": "made by a stack"},
            "enabled": {"type": "boolean", "default": False},
            "tags": {"type": "comma_delimited_list", "default": "web,blue"},
            "parent": {"type": "string", "default": "first"},
        },
        "conditions": {"under_first": {"equals": [{"get_param": "parent"}, "first"]}},
        "resources": {
            "first": {
                "type": "OS::Keystone::Project",
                "properties": {"name": f"{prefix}-first", "domain": "Default"},
            },
            "second": {
                "type": "OS::Keystone::Project",
                "properties": {"name": f"{prefix}-second"},
                # One project deleted at a time: the test Keystone's SQLite database
                # refuses (locked, a 500) deletes running alongside each other.
                "depends_on": ["first"],
            },
            "project": {
                "type": "OS::Keystone::Project",
                "properties": {
                    "name": {"get_param": "name"},
                    "description": {"get_param": "description"},
                    "enabled": {"get_param": "enabled"},
                    "tags": {"get_param": "tags"},
                    "parent": {
                        "if": [
                            "under_first",
                            {"get_resource": "first"},
                            {"list_join": ["", [prefix, "-second"]]},
                        ]
                    },
                },
                "depends_on": ["second"],
            },
        },
        "outputs": {
            key: {"value": {"get_attr": ["project", key]}}
            for key in ("name", "parent_id", "domain_id", "enabled", "is_domain")
        },
    }


def test_a_project_is_made_changed_in_place_replaced_and_deleted(
    heat: Any, admin: openstack.connection.Connection
) -> None:
    prefix = f"kp-{uuid.uuid4().hex[:8]}"
    template = projects_template(prefix)
    created = heat.stacks.create(
        stack_name=prefix, template=template, parameters={"name": f"{prefix}-app"}
    )
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    project = admin.identity.get_project(ids["project"])
    assert (project.name, project.description, project.is_enabled) == (
        f"{prefix}-app",
        "made by a stack",
        False,
    )
    assert (project.domain_id, project.parent_id) == ("default", ids["first"])
    assert sorted(project.tags) == ["blue", "web"]
    assert outputs(heat.stacks.get(stack_id)) == {
        "name": f"{prefix}-app",
        "parent_id": ids["first"],
        "domain_id": "default",
        "enabled": False,
        "is_domain": False,
    }
    assert (
        heat.resources.get(stack_id, "project", with_attr=["show"]).attributes["show"]["id"]
        == ids["project"]
    )

    # Name, description, enabled and tags change in place; no tags at all clears them.
    heat.stacks.update(
        stack_id,
        template=template,
        parameters={"name": f"{prefix}-app2", "description": "", "enabled": True, "tags": ""},
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["project"] == ids["project"]
    project = admin.identity.get_project(ids["project"])
    assert (project.name, project.description, project.is_enabled, project.tags) == (
        f"{prefix}-app2",
        "",
        True,
        [],
    )

    # Another parent is another project (named anew: the replacement is made while the
    # project it replaces still holds its name).
    heat.stacks.update(
        stack_id,
        template=template,
        parameters={"name": f"{prefix}-app3", "enabled": True, "parent": "second"},
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    replaced = physical_ids(heat, stack_id)["project"]
    assert replaced != ids["project"]
    assert admin.identity.find_project(ids["project"]) is None
    project = admin.identity.get_project(replaced)
    assert (project.name, project.parent_id) == (f"{prefix}-app3", ids["second"])

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    for project_id in (replaced, ids["first"], ids["second"]):
        assert admin.identity.find_project(project_id) is None


def test_a_name_taken_in_the_domain_fails_the_create_with_keystones_conflict(
    heat: Any, admin: openstack.connection.Connection
) -> None:
    name = f"kp-{uuid.uuid4().hex[:8]}-taken"
    taken = admin.identity.create_project(name=name, domain_id="default")
    try:
        template = {
            "heat_template_version": "2018-08-31",
            "resources": {
                "project": {"type": "OS::Keystone::Project", "properties": {"name": name}}
            },
        }
        created = heat.stacks.create(stack_name=f"{name}-stack", template=template)
        stack = wait_for_stack(heat, created["stack"]["id"], "CREATE")

        assert stack.stack_status == "CREATE_FAILED"
        reason = stack.stack_status_reason
        assert reason.startswith(
            "Resource CREATE failed: Conflict: resources.project: Conflict occurred attempting "
            "to store project - it is not permitted to have two projects with either the same "
            f"name or same id in the same domain: name is {name}, project id "
        ), reason
        assert reason.endswith(")") and "(HTTP 409) (Request-ID: req-" in reason, reason
        heat.stacks.delete(created["stack"]["id"])
        wait_for_stack(heat, created["stack"]["id"], "DELETE")
    finally:
        admin.identity.delete_project(taken)
