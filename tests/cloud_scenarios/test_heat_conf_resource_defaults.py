"""heat.conf's options of what resources do where the template does not say, against the
test cloud: an OpenKeel deployment of its own configured with them, and what Nova, Swift
and the APIs then hold. With Heat's defaults each of these would come out otherwise
(tests/engine/test_settings.py pins the defaults).

- ``default_user_data_format = RAW``: a server's user data reaches Nova as written;
- ``max_server_name_length = 20``: a server named by Heat gets a name that short;
- ``stack_scheduler_hints = true``: Nova holds Heat's heat_* scheduler hints;
- ``max_nova_api_microversion = 2.36``: a server without networks is asked of Nova
  (novaclient refuses one only from 2.37 on);
- ``default_software_config_transport = POLL_TEMP_URL``: a SOFTWARE_CONFIG server polls a
  Swift TempURL;
- ``default_deployment_signal_transport = TEMP_URL_SIGNAL``: a deployment's server signals
  a Swift TempURL;
- ``server_keystone_endpoint_type = admin``: a server logging in as its stack user is
  handed the catalog's admin identity endpoint, not heat.conf's Keystone;
- ``[volumes] backups_enabled = false``: the Snapshot deletion policy of a volume is
  refused.
"""

from __future__ import annotations

import base64
import contextlib
import time
import urllib.parse
from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import openstack.exceptions
import pytest
import requests
from heatclient.exc import HTTPBadRequest

from tests.cloud import Cloud
from tests.cloud_scenarios import boot_material
from tests.cloud_scenarios.conftest import (
    alice_heat,
    delete_stack,
    physical_ids,
    unique,
    wait_for_stack,
)

DEFAULTS = (
    "default_user_data_format = RAW\n"
    "max_server_name_length = 20\n"
    "stack_scheduler_hints = true\n"
    "max_nova_api_microversion = 2.36\n"
    "default_software_config_transport = POLL_TEMP_URL\n"
    "default_deployment_signal_transport = TEMP_URL_SIGNAL\n"
    "server_keystone_endpoint_type = admin\n"
    "[volumes]\nbackups_enabled = false\n"
    # What follows in the file is [DEFAULT]'s again.
    "[DEFAULT]\n"
)


@pytest.fixture(scope="module")
def configured_heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    directory = tmp_path_factory.mktemp("resource-defaults")
    with alice_heat(cloud, directory, "mysql", DEFAULTS) as client:
        yield client


@pytest.fixture(scope="module")
def admin(cloud: Cloud) -> Iterator[openstack.connection.Connection]:
    connection = openstack.connect(**cloud.auth())
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def flavor(admin: openstack.connection.Connection) -> Iterator[Any]:
    with boot_material.flavors(admin, "defaults-flavor", 64) as (made,):
        yield made


@pytest.fixture(scope="module")
def image(admin: openstack.connection.Connection) -> Iterator[Any]:
    with boot_material.public_images(admin, "defaults-image", 1) as (made,):
        yield made


@pytest.fixture(scope="module")
def network(member: openstack.connection.Connection) -> Iterator[Any]:
    made = member.network.create_network(name=unique("defaults-net"))
    subnet = member.network.create_subnet(
        network_id=made.id, ip_version=4, cidr="10.33.0.0/24", name=unique("defaults-subnet")
    )
    yield made
    # What a failed test left behind goes with the network, as far as alice may.
    with contextlib.suppress(openstack.exceptions.SDKException):
        for port in member.network.ports(network_id=made.id):
            if port.device_owner in ("", "compute:nova", "compute:None"):
                member.network.delete_port(port)
        member.network.delete_subnet(subnet)
        member.network.delete_network(made)


def server_template(image: Any, flavor: Any, **server: Any) -> dict[str, Any]:
    properties = {"image": image.id, "flavor": flavor.name, **server}
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"server": {"type": "OS::Nova::Server", "properties": properties}},
    }


def create(heat: Any, name: str, template: dict[str, Any]) -> tuple[str, Any]:
    stack_id = heat.stacks.create(
        stack_name=unique(name), template=template, disable_rollback=True
    )["stack"]["id"]
    return stack_id, wait_for_stack(heat, stack_id, "CREATE")


def nova_server(admin: openstack.connection.Connection, server_id: str) -> dict[str, Any]:
    """The server as Nova shows it at 2.100 (its user data and scheduler hints)."""
    response = admin.compute.get(
        f"/servers/{server_id}", microversion="2.100", headers={"Accept": "application/json"}
    )
    assert response.status_code == 200, response.text
    return dict(response.json()["server"])


def test_a_server_boots_with_raw_user_data_a_short_name_and_heats_hints(
    configured_heat: Any,
    admin: openstack.connection.Connection,
    image: Any,
    flavor: Any,
    network: Any,
) -> None:
    template = server_template(
        image, flavor, user_data="#!/bin/sh\necho hello\n", networks=[{"network": network.id}]
    )
    stack_id, stack = create(configured_heat, "named-by-heat-at-length", template)
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    server_id = physical_ids(configured_heat, stack_id)["server"]
    shown = nova_server(admin, server_id)

    assert base64.b64decode(shown["OS-EXT-SRV-ATTR:user_data"]) == b"#!/bin/sh\necho hello\n"
    assert len(shown["name"]) <= 20
    # Nova shows each hint as a list of strings.
    hints = {
        key: [value] if isinstance(value, str) else value
        for key, value in shown["scheduler_hints"].items()
    }
    assert hints["heat_stack_id"] == [stack_id]
    assert hints["heat_root_stack_id"] == [stack_id]
    assert hints["heat_stack_name"] == [stack.stack_name]
    assert hints["heat_resource_name"] == ["server"]
    assert hints["heat_path_in_stack"] == [stack.stack_name]
    assert "heat_resource_uuid" in hints
    delete_stack(configured_heat, stack_id)


def test_a_server_without_networks_is_asked_of_nova_below_microversion_2_37(
    configured_heat: Any, image: Any, flavor: Any
) -> None:
    stack_id, stack = create(configured_heat, "no-nics", server_template(image, flavor))
    # Nova picks the network itself (or says why it cannot): novaclient's refusal from
    # 2.37 on is not met.
    assert "nics are required" not in (stack.stack_status_reason or "")
    delete_stack(configured_heat, stack_id)


def deployment_template(image: Any, flavor: Any, network: Any) -> dict[str, Any]:
    template = server_template(
        image, flavor, user_data_format="SOFTWARE_CONFIG", networks=[{"network": network.id}]
    )
    template["resources"]["config"] = {
        "type": "OS::Heat::SoftwareConfig",
        "properties": {"group": "script", "config": "#!/bin/sh\necho deployed\n"},
    }
    template["resources"]["deployment"] = {
        "type": "OS::Heat::SoftwareDeployment",
        "properties": {
            "config": {"get_resource": "config"},
            "server": {"get_resource": "server"},
        },
    }
    return template


def deployed_inputs(heat: Any, server_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for config in heat.software_deployments.metadata(server_id):
            return {item["name"]: item.get("value") for item in config["inputs"]}
        time.sleep(1)
    raise AssertionError("no deployment for the server")


def test_servers_and_deployments_reach_back_through_swift_by_default(
    configured_heat: Any, image: Any, flavor: Any, network: Any
) -> None:
    stack_id = configured_heat.stacks.create(
        stack_name=unique("swift-transports"),
        template=deployment_template(image, flavor, network),
        disable_rollback=True,
    )["stack"]["id"]
    server_id = None
    deadline = time.monotonic() + 120
    while server_id is None and time.monotonic() < deadline:
        server = configured_heat.resources.get(stack_id, "server")
        if server.resource_status == "CREATE_COMPLETE":
            server_id = server.physical_resource_id
        time.sleep(1)
    assert server_id is not None

    # The server polls a Swift TempURL (POLL_TEMP_URL).
    metadata = configured_heat.resources.metadata(stack_id, "server")
    collect_config = metadata["os-collect-config"]
    assert "request" in collect_config["collectors"]
    metadata_url = collect_config["request"]["metadata_url"]
    assert "temp_url_sig=" in metadata_url

    # The deployment is signalled at a Swift TempURL (TEMP_URL_SIGNAL).
    inputs = deployed_inputs(configured_heat, server_id)
    assert inputs["deploy_signal_transport"] == "TEMP_URL_SIGNAL"
    assert "temp_url_sig=" in inputs["deploy_signal_id"]

    # The server's signal completes the deployment.
    answer = requests.put(inputs["deploy_signal_id"], json={"deploy_status_code": 0}, timeout=30)
    assert answer.status_code == 201
    stack = wait_for_stack(configured_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    delete_stack(configured_heat, stack_id)


@pytest.fixture
def admin_identity_url(admin: openstack.connection.Connection) -> Iterator[str]:
    """The catalog's admin identity endpoint, for the test's length, an unversioned URL
    of its own (the same Keystone by another host name)."""
    identity = next(admin.identity.services(type="identity"))
    [endpoint] = admin.identity.endpoints(service_id=identity.id, interface="admin")
    original = endpoint.url
    address = urllib.parse.urlsplit(original)
    url = f"http://localhost:{address.port}"
    admin.identity.update_endpoint(endpoint, url=url)
    try:
        yield url
    finally:
        admin.identity.update_endpoint(endpoint, url=original)


def test_a_server_is_handed_the_identity_endpoint_of_the_configured_interface(
    configured_heat: Any, admin_identity_url: str
) -> None:
    # A new token: its catalog has the endpoint as it is now.
    configured_heat.http_client.session.invalidate()
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "server": {
                "type": "OS::Heat::DeployedServer",
                "properties": {"software_config_transport": "POLL_SERVER_HEAT"},
            }
        },
    }
    stack_id, stack = create(configured_heat, "endpoint-type", template)
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    metadata = configured_heat.resources.metadata(stack_id, "server")
    assert metadata["os-collect-config"]["heat"]["auth_url"] == f"{admin_identity_url}/v3"
    delete_stack(configured_heat, stack_id)


def test_a_volumes_snapshot_deletion_policy_is_refused_without_backups(
    configured_heat: Any,
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "volume": {
                "type": "OS::Cinder::Volume",
                "deletion_policy": "Snapshot",
                "properties": {"size": 1},
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refusal:
        configured_heat.stacks.create(stack_name=unique("no-backups"), template=template)
    assert (
        '"Snapshot" deletion policy not supported - volume backup service is not enabled.'
        in str(refusal.value)
    )
