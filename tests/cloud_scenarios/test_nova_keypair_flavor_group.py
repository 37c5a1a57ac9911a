"""OS::Nova::KeyPair, OS::Nova::ServerGroup and OS::Nova::Flavor against the real Nova:
made with their properties, flavors changed in place by an admin, all gone after delete,
and Nova's refusals (and Heat's own) reported as Heat reports them."""

from __future__ import annotations

from typing import Any

import openstack
import openstack.connection
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519
from heatclient import client as heat_client
from heatclient.exc import HTTPBadRequest, HTTPForbidden
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from tests.cloud import Cloud
from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)
from tests.keystone import ADMIN, ALICE


def public_key() -> str:
    key = ed25519.Ed25519PrivateKey.generate().public_key()
    return key.public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    ).decode()


@pytest.fixture(scope="module")
def admin_heat(heat: Any, cloud: Cloud) -> Any:
    """The admin's python-heatclient, on the same keel-api as alice's."""
    endpoint = heat.http_client.endpoint_override.rsplit("/", 1)[0]
    auth = v3.Password(
        auth_url=cloud.auth_url,
        username=ADMIN.user_name,
        password=ADMIN.password,
        project_name=ADMIN.project_name,
        user_domain_id="default",
        project_domain_id="default",
    )
    return heat_client.Client(
        "1",
        session=ks_session.Session(auth=auth),
        endpoint_override=f"{endpoint}/{cloud.project_id(ADMIN)}",
    )


def test_a_key_pair_and_a_server_group_are_made_and_deleted(
    heat: Any, member: openstack.connection.Connection
) -> None:
    key_name, group_name, key = unique("key"), unique("group"), public_key()
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "key": {
                "type": "OS::Nova::KeyPair",
                "properties": {"name": key_name, "public_key": key, "type": "ssh"},
            },
            "group": {
                "type": "OS::Nova::ServerGroup",
                "properties": {"name": group_name, "policies": ["affinity"]},
            },
            "unnamed_group": {"type": "OS::Nova::ServerGroup"},
        },
        "outputs": {
            "public_key": {"value": {"get_attr": ["key", "public_key"]}},
            "private_key": {"value": {"get_attr": ["key", "private_key"]}},
            "group": {"value": {"get_attr": ["group", "show"]}},
        },
    }
    created = heat.stacks.create(stack_name=unique("nova-small"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    assert ids["key"] == key_name
    assert member.compute.get_keypair(key_name).public_key == key
    group = member.compute.get_server_group(ids["group"])
    assert (group.name, group.policy) == (group_name, "affinity")
    unnamed = member.compute.get_server_group(ids["unnamed_group"])
    assert unnamed.policy == "anti-affinity"
    assert unnamed.name.startswith(f"{stack.stack_name}-unnamed_group-")
    shown = outputs(heat.stacks.get(stack_id))
    assert shown["public_key"] == key
    assert shown["private_key"] == ""
    assert (shown["group"]["id"], shown["group"]["policy"]) == (ids["group"], "affinity")

    delete_stack(heat, stack_id)
    assert member.compute.find_keypair(key_name) is None
    assert member.compute.find_server_group(ids["group"]) is None
    assert member.compute.find_server_group(ids["unnamed_group"]) is None


def test_a_key_pair_without_a_public_key_is_refused_before_anything_is_made(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"key": {"type": "OS::Nova::KeyPair", "properties": {"name": "k"}}},
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("key-refused"), template=template)

    assert refused.value.error["error"]["type"] == "StackValidationFailed"
    assert refused.value.error["error"]["message"] == (
        "The public_key property is required by the nova API version currently used."
    )


def test_an_admin_makes_a_private_flavor_and_changes_it_in_place(
    admin_heat: Any, admin: openstack.connection.Connection, cloud: Cloud
) -> None:
    name = unique("flavor")
    template = {
        "heat_template_version": "2018-08-31",
        "parameters": {"speed": {"type": "string", "default": "fast"}},
        "resources": {
            "flavor": {
                "type": "OS::Nova::Flavor",
                "properties": {
                    "name": name,
                    "ram": 256,
                    "vcpus": 1,
                    "disk": 1,
                    "is_public": False,
                    "tenants": [ALICE.project_name],
                    "extra_specs": {"acme:speed": {"get_param": "speed"}},
                },
            }
        },
        "outputs": {
            "is_public": {"value": {"get_attr": ["flavor", "is_public"]}},
            "extra_specs": {"value": {"get_attr": ["flavor", "extra_specs"]}},
        },
    }
    created = admin_heat.stacks.create(stack_name=unique("flavor"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    flavor_id = physical_ids(admin_heat, stack_id)["flavor"]
    flavor = admin.compute.get_flavor(flavor_id)
    assert (flavor.name, flavor.ram, flavor.vcpus, flavor.disk, flavor.is_public) == (
        name,
        256,
        1,
        1,
        False,
    )
    access = admin.compute.get_flavor_access(flavor_id)
    assert [entry["tenant_id"] for entry in access] == [cloud.project_id(ALICE)]
    assert outputs(admin_heat.stacks.get(stack_id)) == {
        "is_public": False,
        "extra_specs": {"acme:speed": "fast"},
    }

    template["resources"]["flavor"]["properties"]["tenants"] = ["project-b"]
    admin_heat.stacks.update(stack_id, template=template, parameters={"speed": "slow"})
    stack = wait_for_stack(admin_heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(admin_heat, stack_id)["flavor"] == flavor_id
    assert admin.compute.fetch_flavor_extra_specs(flavor_id).extra_specs == {"acme:speed": "slow"}
    access = admin.compute.get_flavor_access(flavor_id)
    assert [entry["tenant_id"] for entry in access] == [cloud.keystone.project_ids["project-b"]]

    delete_stack(admin_heat, stack_id)
    assert admin.compute.find_flavor(flavor_id, ignore_missing=True) is None


def test_a_member_may_not_use_flavors_by_heats_default_policy(heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "flavor": {"type": "OS::Nova::Flavor", "properties": {"ram": 64, "vcpus": 1}}
        },
    }
    with pytest.raises(HTTPForbidden) as refused:
        heat.stacks.create(stack_name=unique("flavor-refused"), template=template)

    assert refused.value.error["error"]["message"] == (
        "You are not authorized to use resource_types:OS::Nova::Flavor."
    )
