"""OS::Keystone::User, Group, Role, UserRoleAssignment and GroupRoleAssignment against the
cloud's Keystone, driven by its admin: a role, a group holding it on a project, a user
in the group with its password, default project and a role on a domain, and roles
granted to another user and to the group by the assignment types; all of it changed in
place (a new password, other groups, other roles) and gone after delete. Assignments
naming both a project and a domain are refused as Heat refuses them."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest
from keystoneauth1 import exceptions as keystone_errors
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat
from tests.cloud_scenarios.conftest import outputs, physical_ids, wait_for_stack

PROJECT_A, PROJECT_B = "project-a", "project-b"


@pytest.fixture(scope="module")
def heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with admin_heat(cloud, tmp_path_factory.mktemp("keystone-users")) as client:
        yield client


def users_template(prefix: str) -> dict[str, Any]:
    role = {"get_resource": "role"}
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "password": {"type": "string", "hidden": True},
            "email": {"type": "string", "default": "app@example.com"},
            "spare": {"type": "boolean", "default": False},
            "description": {"type": "string", "default": "made by a stack"},
        },
        "conditions": {"in_spare": {"get_param": "spare"}},
        "resources": {
            "role": {"type": "OS::Keystone::Role", "properties": {"name": f"{prefix}-role"}},
            "group": {
                "type": "OS::Keystone::Group",
                "properties": {
                    "name": f"{prefix}-group",
                    "description": {"get_param": "description"},
                    "roles": [{"role": role, "project": PROJECT_A}],
                },
            },
            "spare_group": {
                "type": "OS::Keystone::Group",
                "properties": {"name": f"{prefix}-spare"},
            },
            "user": {
                "type": "OS::Keystone::User",
                "properties": {
                    "name": f"{prefix}-user",
                    "password": {"get_param": "password"},
                    "email": {"get_param": "email"},
                    "default_project": PROJECT_A,
                    "groups": [
                        {
                            "if": [
                                "in_spare",
                                {"get_resource": "spare_group"},
                                {"get_resource": "group"},
                            ]
                        }
                    ],
                    "roles": {
                        "if": [
                            "in_spare",
                            [{"role": role, "project": PROJECT_B}],
                            [{"role": role, "domain": "default"}],
                        ]
                    },
                },
                "depends_on": ["group", "spare_group"],
            },
            "other": {
                "type": "OS::Keystone::User",
                "properties": {"name": f"{prefix}-other"},
                # The role goes last, alone: the test Keystone's SQLite database refuses
                # (locked, a 500) a role's delete alongside others.
                "depends_on": ["role"],
            },
            "other_roles": {
                "type": "OS::Keystone::UserRoleAssignment",
                "properties": {
                    "user": {"get_resource": "other"},
                    "roles": {
                        "if": [
                            "in_spare",
                            [{"role": role, "project": PROJECT_B}],
                            [{"role": "member", "project": PROJECT_B}],
                        ]
                    },
                },
            },
            "group_roles": {
                "type": "OS::Keystone::GroupRoleAssignment",
                "properties": {
                    "group": {"get_resource": "group"},
                    "roles": [{"role": role, "domain": "default"}],
                },
            },
        },
        "outputs": {
            key: {"value": {"get_attr": ["user", key]}}
            for key in ("name", "default_project_id", "domain_id", "enabled", "password_expires_at")
        },
    }


def assignments(admin: openstack.connection.Connection, **actor: str) -> set[tuple[str, str, str]]:
    """(role id, "project" or "domain", its id) of what Keystone grants the actor."""
    found = set()
    for assignment in admin.identity.role_assignments(**actor):
        for kind in ("project", "domain"):
            if kind in assignment.scope:
                found.add((assignment.role["id"], kind, assignment.scope[kind]["id"]))
    return found


def logs_in(cloud: Cloud, user_id: str, password: str) -> bool:
    auth = v3.Password(auth_url=cloud.auth_url, user_id=user_id, password=password)
    try:
        ks_session.Session(auth=auth).get_token()
    except keystone_errors.Unauthorized:
        return False
    return True


def test_users_groups_roles_and_assignments_are_made_changed_and_deleted(
    heat: Any, admin: openstack.connection.Connection, cloud: Cloud
) -> None:
    prefix = f"ku-{uuid.uuid4().hex[:8]}"
    project_a, project_b = (
        cloud.keystone.project_ids[PROJECT_A],
        cloud.keystone.project_ids[PROJECT_B],
    )
    template = users_template(prefix)
    created = heat.stacks.create(
        stack_name=prefix,
        template=template,
        parameters={
            "password": "first-secret",
        },
    )
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)
    role_id, member_id = ids["role"], admin.identity.find_role("member").id

    assert admin.identity.get_role(role_id).name == f"{prefix}-role"
    group = admin.identity.get_group(ids["group"])
    assert (group.name, group.description, group.domain_id) == (
        f"{prefix}-group",
        "made by a stack",
        "default",
    )
    user = admin.identity.get_user(ids["user"])
    assert (user.name, user.email, user.is_enabled, user.default_project_id, user.domain_id) == (
        f"{prefix}-user",
        "app@example.com",
        True,
        project_a,
        "default",
    )
    assert logs_in(cloud, ids["user"], "first-secret")
    assert [g.id for g in admin.identity.user_groups(ids["user"])] == [ids["group"]]
    assert assignments(admin, user_id=ids["user"]) == {(role_id, "domain", "default")}
    assert assignments(admin, group_id=ids["group"]) == {
        (role_id, "project", project_a),
        (role_id, "domain", "default"),
    }
    assert assignments(admin, user_id=ids["other"]) == {(member_id, "project", project_b)}
    # The assignment types have no physical resource of their own.
    assert (ids["other_roles"], ids["group_roles"]) == ("", "")
    assert outputs(heat.stacks.get(stack_id)) == {
        "name": f"{prefix}-user",
        "default_project_id": project_a,
        "domain_id": "default",
        "enabled": True,
        "password_expires_at": None,
    }

    # A new password, another group, roles moved from the domain to a project, and the
    # other user's role swapped: all in place.
    heat.stacks.update(
        stack_id,
        template=template,
        parameters={
            "password": "second-secret",
            "description": "changed",
            "spare": True,
        },
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert admin.identity.get_group(ids["group"]).description == "changed"
    assert not logs_in(cloud, ids["user"], "first-secret")
    assert logs_in(cloud, ids["user"], "second-secret")
    assert [g.id for g in admin.identity.user_groups(ids["user"])] == [ids["spare_group"]]
    assert assignments(admin, user_id=ids["user"]) == {(role_id, "project", project_b)}
    assert assignments(admin, user_id=ids["other"]) == {(role_id, "project", project_b)}

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert admin.identity.find_user(ids["user"]) is None
    assert admin.identity.find_user(ids["other"]) is None
    assert admin.identity.find_group(ids["group"]) is None
    assert admin.identity.find_group(ids["spare_group"]) is None
    assert admin.identity.find_role(role_id) is None


def test_a_role_assignment_on_both_a_project_and_a_domain_is_refused(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "roles": {
                "type": "OS::Keystone::UserRoleAssignment",
                "properties": {
                    "user": "admin",
                    "roles": [{"role": "member", "project": PROJECT_A, "domain": "default"}],
                },
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=f"ku-{uuid.uuid4().hex[:8]}", template=template)

    assert refused.value.error["error"] == {
        "message": "Cannot define the following properties at the same time: project, domain.",
        "traceback": None,
        "type": "ResourcePropertyConflict",
    }


def test_a_role_assignment_with_neither_project_nor_domain_is_refused(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {"type": "OS::Keystone::Group"},
            "roles": {
                "type": "OS::Keystone::GroupRoleAssignment",
                "properties": {"group": {"get_resource": "group"}, "roles": [{"role": "member"}]},
            },
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=f"ku-{uuid.uuid4().hex[:8]}", template=template)

    assert refused.value.error["error"] == {
        "message": "Either project or domain must be specified for role member",
        "traceback": None,
        "type": "StackValidationFailed",
    }


def test_roles_assigned_to_a_user_move_with_the_assignments_user(
    heat: Any, admin: openstack.connection.Connection, cloud: Cloud
) -> None:
    prefix = f"ku-{uuid.uuid4().hex[:8]}"
    project_a = cloud.keystone.project_ids[PROJECT_A]
    template = {
        "heat_template_version": "2018-08-31",
        "parameters": {"move": {"type": "boolean", "default": False}},
        "conditions": {"to_second": {"get_param": "move"}},
        "resources": {
            "role": {"type": "OS::Keystone::Role"},
            # The role goes last, alone (see users_template).
            "first": {"type": "OS::Keystone::User", "depends_on": ["role"]},
            "second": {"type": "OS::Keystone::User", "depends_on": ["role"]},
            "assignment": {
                "type": "OS::Keystone::UserRoleAssignment",
                "properties": {
                    "user": {
                        "if": ["to_second", {"get_resource": "second"}, {"get_resource": "first"}]
                    },
                    "roles": [{"role": {"get_resource": "role"}, "project": PROJECT_A}],
                },
            },
        },
    }
    created = heat.stacks.create(stack_name=prefix, template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    ids = physical_ids(heat, stack_id)
    granted = {(ids["role"], "project", project_a)}
    assert assignments(admin, user_id=ids["first"]) == granted
    assert assignments(admin, user_id=ids["second"]) == set()

    # Heat would leave the roles with the first user; here they follow the property.
    heat.stacks.update(stack_id, template=template, parameters={"move": True})
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert assignments(admin, user_id=ids["first"]) == set()
    assert assignments(admin, user_id=ids["second"]) == granted

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    for name in ("first", "second"):
        assert admin.identity.find_user(ids[name]) is None
    assert admin.identity.find_role(ids["role"]) is None


def test_a_role_named_and_then_given_by_id_stays_granted(
    heat: Any, admin: openstack.connection.Connection, cloud: Cloud
) -> None:
    prefix = f"ku-{uuid.uuid4().hex[:8]}"
    project_a = cloud.keystone.project_ids[PROJECT_A]
    member_id = admin.identity.find_role("member").id
    template = {
        "heat_template_version": "2018-08-31",
        "parameters": {"roles": {"type": "json"}},
        "resources": {
            "group": {"type": "OS::Keystone::Group"},
            "assignment": {
                "type": "OS::Keystone::GroupRoleAssignment",
                "properties": {"group": {"get_resource": "group"}, "roles": {"get_param": "roles"}},
            },
        },
    }
    created = heat.stacks.create(
        stack_name=prefix,
        template=template,
        parameters={"roles": [{"role": "member", "project": PROJECT_A}]},
    )
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    group_id = physical_ids(heat, stack_id)["group"]
    granted = {(member_id, "project", project_a)}
    assert assignments(admin, group_id=group_id) == granted

    heat.stacks.update(
        stack_id,
        template=template,
        parameters={"roles": [{"role": member_id, "project": project_a}]},
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert assignments(admin, group_id=group_id) == granted

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert admin.identity.find_group(group_id) is None
