"""How servers reach their deployments (software_config_transport), against the real
Keystone, Swift and Nova (fake driver): an OS::Nova::Server with SOFTWARE_CONFIG user data
and an OS::Heat::DeployedServer each get an ``os_collect_config``; the test plays
os-collect-config with it (a CFN DescribeStackResource signed with the EC2 keypair, the
native API as the stack user, a plain GET of the Swift TempURL), sees a deployment made
through the API appear in what it reads, and finds the stack user, its EC2 credential
and the Swift container gone with the stack."""

from __future__ import annotations

import base64
import email
import json
import urllib.parse
from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest

from tests.cloud_scenarios import boot_material
from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)
from tests.cloud_scenarios.os_collect_config import (
    CFN,
    COLLECTOR,
    HEAT,
    TEMP_URL,
    collect,
    describe_through_cfn,
    read_through_cfn,
)

pytestmark = pytest.mark.usefixtures("stacks_left_behind")


@pytest.fixture(scope="module")
def boot(
    admin: openstack.connection.Connection, member: openstack.connection.Connection
) -> Iterator[dict[str, str]]:
    with boot_material.server_kit(admin, member, "transport") as made:
        yield made


def server_template(
    resource_type: str, transport: str, boot: dict[str, str] | None = None
) -> dict[str, Any]:
    properties: dict[str, Any] = {"software_config_transport": transport}
    if resource_type == "OS::Nova::Server":
        assert boot is not None
        properties.update(
            image=boot["image"],
            flavor=boot["flavor"],
            networks=[{"network": boot["network"]}],
            user_data_format="SOFTWARE_CONFIG",
            user_data="#!/bin/sh\necho booted\n",
        )
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "server": {
                "type": resource_type,
                "metadata": {"role": "web"},
                "properties": properties,
            }
        },
        "outputs": {"collect": {"value": {"get_attr": ["server", "os_collect_config"]}}},
    }


def create(heat: Any, template: dict[str, Any], action: str = "CREATE") -> tuple[str, Any]:
    stack_name = unique("transport")
    stack_id = heat.stacks.create(stack_name=stack_name, template=template)["stack"]["id"]
    return stack_id, wait_for_stack(heat, stack_id, action)


# What the transports leave in the cloud


def stack_user(admin: openstack.connection.Connection, collect_config: dict[str, Any]) -> Any:
    """The stack user the transport logs in or signs as."""
    if "heat" in collect_config and collect_config["heat"].get("user_id"):
        return admin.identity.get_user(collect_config["heat"]["user_id"])
    access = collect_config["cfn"]["access_key_id"]
    return admin.identity.get_user(ec2_credential(admin, access).user_id)


def ec2_credential(admin: openstack.connection.Connection, access: str) -> Any:
    for credential in admin.identity.credentials(type="ec2"):
        if json.loads(credential.blob)["access"] == access:
            return credential
    return None


def container_of(collect_config: dict[str, Any]) -> str:
    path = urllib.parse.urlparse(collect_config["request"]["metadata_url"]).path
    return urllib.parse.unquote(path.split("/")[3])


def deploy(heat: Any, server_id: str) -> tuple[Any, Any]:
    """A config and its deployment to the server, made through the API."""
    config = heat.software_configs.create(
        group="script", name=unique("config"), config="#!/bin/sh\necho deployed\n"
    )
    deployment = heat.software_deployments.create(
        config_id=config.id, server_id=server_id, action="CREATE", status="IN_PROGRESS"
    )
    return config, deployment


SERVERS = [
    pytest.param("OS::Nova::Server", transport, id=f"nova-{transport}")
    for transport in (CFN, HEAT, TEMP_URL)
] + [
    pytest.param("OS::Heat::DeployedServer", transport, id=f"deployed-{transport}")
    for transport in (CFN, HEAT, TEMP_URL)
]


@pytest.mark.parametrize(("resource_type", "transport"), SERVERS)
def test_a_server_reads_its_deployments_through_its_transport(
    heat: Any,
    admin: openstack.connection.Connection,
    member: openstack.connection.Connection,
    boot: dict[str, str],
    resource_type: str,
    transport: str,
) -> None:
    stack_id, stack = create(heat, server_template(resource_type, transport, boot))
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    server_id = physical_ids(heat, stack_id)["server"]
    collect_config = outputs(stack)["collect"]
    defaults = ["ec2"] if resource_type == "OS::Nova::Server" else []
    assert collect_config["collectors"] == [*defaults, COLLECTOR[transport], "local"]

    metadata = collect(heat, transport, collect_config)

    assert metadata == {"role": "web", "deployments": [], "os-collect-config": collect_config}

    config, deployment = deploy(heat, server_id)
    deployments = collect(heat, transport, collect_config)["deployments"]

    assert [(found["id"], found["name"]) for found in deployments] == [(config.id, config.name)]
    assert deployments[0]["config"] == "#!/bin/sh\necho deployed\n"

    user = stack_user(admin, collect_config) if transport != TEMP_URL else None
    access = collect_config.get("cfn", {}).get("access_key_id")
    heat.software_deployments.delete(deployment.id)
    heat.software_configs.delete(config.id)
    delete_stack(heat, stack_id)

    if user is not None:
        assert admin.identity.find_user(user.id) is None
    if access:
        assert ec2_credential(admin, access) is None
    if transport == TEMP_URL:
        with pytest.raises(openstack.exceptions.NotFoundException):
            member.object_store.get_container_metadata(container_of(collect_config))


def test_a_nova_server_boots_with_its_transport_in_its_user_data(
    heat: Any, admin: openstack.connection.Connection, boot: dict[str, str]
) -> None:
    stack_id, stack = create(heat, server_template("OS::Nova::Server", CFN, boot))
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    server_id = physical_ids(heat, stack_id)["server"]

    # The user data is the admin's to read (microversion 2.3).
    answer = admin.compute.get(
        f"/servers/{server_id}", microversion="2.3", headers={"Accept": "application/json"}
    )
    user_data = base64.b64decode(answer.json()["server"]["OS-EXT-SRV-ATTR:user_data"])
    parts = {
        part.get_filename(): part.get_payload(decode=True).decode()
        for part in email.message_from_bytes(user_data).walk()
        if not part.is_multipart()
    }

    assert parts[""] == "#!/bin/sh\necho booted\n"
    assert json.loads(parts["cfn-init-data"]) == {
        "role": "web",
        "deployments": [],
        "os-collect-config": outputs(stack)["collect"],
    }
    delete_stack(heat, stack_id)


def test_zaqar_is_not_in_the_catalog(heat: Any, admin: openstack.connection.Connection) -> None:
    stack_id, stack = create(
        heat, server_template("OS::Heat::DeployedServer", "ZAQAR_MESSAGE"), "CREATE"
    )

    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: EndpointNotFound: resources.server: Could not find "
        "requested endpoint in Service Catalog."
    )
    collect_config = heat.resources.get(stack_id, "server").attributes["os_collect_config"]
    user_id = collect_config["zaqar"]["user_id"]
    assert admin.identity.get_user(user_id).id == user_id

    delete_stack(heat, stack_id)

    assert admin.identity.find_user(user_id) is None


def test_a_deployed_server_changes_transport_in_place(
    heat: Any, admin: openstack.connection.Connection, member: openstack.connection.Connection
) -> None:
    stack_id, stack = create(heat, server_template("OS::Heat::DeployedServer", TEMP_URL))
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    server_id = physical_ids(heat, stack_id)["server"]
    before = outputs(stack)["collect"]
    container = container_of(before)

    heat.stacks.update(stack_id, template=server_template("OS::Heat::DeployedServer", CFN))
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason

    assert physical_ids(heat, stack_id)["server"] == server_id
    collect_config = outputs(stack)["collect"]
    assert collect_config["collectors"] == ["cfn", "local"]
    assert collect_config["request"] == {"metadata_url": None}
    assert read_through_cfn(collect_config["cfn"])["os-collect-config"] == collect_config
    with pytest.raises(openstack.exceptions.NotFoundException):
        member.object_store.get_container_metadata(container)
    delete_stack(heat, stack_id)


def test_a_deployed_servers_user_is_disabled_while_suspended(
    heat: Any, admin: openstack.connection.Connection
) -> None:
    stack_id, stack = create(heat, server_template("OS::Heat::DeployedServer", HEAT))
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    user_id = outputs(stack)["collect"]["heat"]["user_id"]

    heat.actions.suspend(stack_id)
    stack = wait_for_stack(heat, stack_id, "SUSPEND")
    assert stack.stack_status == "SUSPEND_COMPLETE", stack.stack_status_reason
    assert admin.identity.get_user(user_id).is_enabled is False

    heat.actions.resume(stack_id)
    stack = wait_for_stack(heat, stack_id, "RESUME")
    assert stack.stack_status == "RESUME_COMPLETE", stack.stack_status_reason
    assert admin.identity.get_user(user_id).is_enabled is True
    delete_stack(heat, stack_id)


def test_a_deployed_server_under_the_snapshot_policy_is_deleted_without_an_image(
    heat: Any, admin: openstack.connection.Connection
) -> None:
    """Heat takes a Nova image of the server first, which fails the delete of a server
    Nova does not run (docs/divergences.md)."""
    template = server_template("OS::Heat::DeployedServer", HEAT)
    template["resources"]["server"]["deletion_policy"] = "Snapshot"
    stack_id, stack = create(heat, template)
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    user_id = outputs(stack)["collect"]["heat"]["user_id"]

    delete_stack(heat, stack_id)

    assert admin.identity.find_user(user_id) is None


def test_a_servers_keypair_describes_that_server_alone(heat: Any) -> None:
    template = server_template("OS::Heat::DeployedServer", CFN)
    template["resources"]["other"] = {"type": "OS::Heat::None"}
    stack_id, stack = create(heat, template)
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    section = outputs(stack)["collect"]["cfn"]

    answer = describe_through_cfn(section, "other")

    assert answer.status_code == 403, answer.text
    assert describe_through_cfn(section, "server").status_code == 200
    delete_stack(heat, stack_id)
