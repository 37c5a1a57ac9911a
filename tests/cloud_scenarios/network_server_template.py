"""The template of a Heat user's first real stack, and what it boots from: a network, a
subnet, a router with a gateway on an external network and its interface, a security
group, a port, a server on it, a volume attached to it and a floating IP on its port;
with ``software_config`` the server boots with SOFTWARE_CONFIG user data and a software
deployment goes to it. The flavors, the image and the external network are the admin's,
made for a module and deleted after it."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from typing import Any

import openstack

from tests.cloud import Cloud
from tests.cloud_scenarios.external_network import external_network
from tests.keystone import ADMIN


@contextlib.contextmanager
def boot_material(cloud: Cloud, prefix: str) -> Iterator[dict[str, str]]:
    """Two flavors (``small``, ``large``), an ``image`` and an external network
    (``public``), by name or id as a template names them."""
    suffix = uuid.uuid4().hex[:6]
    with openstack.connect(**cloud.auth(ADMIN)) as admin:
        small = admin.compute.create_flavor(name=f"{prefix}-s-{suffix}", ram=64, vcpus=1, disk=1)
        large = admin.compute.create_flavor(name=f"{prefix}-l-{suffix}", ram=128, vcpus=1, disk=1)
        image = admin.image.create_image(
            name=f"{prefix}-{suffix}",
            data=b"\0" * 1024,
            disk_format="raw",
            container_format="bare",
            visibility="public",
        )
        try:
            with external_network(cloud, f"{prefix}-public") as public:
                yield {
                    "small": small.name,
                    "large": large.name,
                    "image": image.name,
                    "public": public.network.id,
                }
        finally:
            admin.image.delete_image(image, ignore_missing=True)
            for flavor in (small, large):
                admin.compute.delete_flavor(flavor, ignore_missing=True)


def _deployment_resources() -> dict[str, Any]:
    return {
        "config": {
            "type": "OS::Heat::SoftwareConfig",
            "properties": {
                "group": "script",
                "inputs": [{"name": "greeting"}],
                "outputs": [{"name": "result"}],
                "config": "#!/bin/sh\necho $greeting > $heat_outputs_path.result\n",
            },
        },
        "deployment": {
            "type": "OS::Heat::SoftwareDeployment",
            "properties": {
                "config": {"get_resource": "config"},
                "server": {"get_resource": "server"},
                "input_values": {"greeting": "hello"},
            },
        },
    }


def network_server_template(
    boot: dict[str, str],
    cidr: str,
    software_config: str | None = None,
    second_port: bool = False,
    outputs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The stack's template; its parameters are ``flavor`` and ``role`` (the server's
    metadata). ``software_config`` names the server's transport and adds the deployment."""
    networks: list[dict[str, Any]] = [{"port": {"get_resource": "port"}}]
    server: dict[str, Any] = {
        "image": boot["image"],
        "flavor": {"get_param": "flavor"},
        "networks": networks,
        "metadata": {"role": {"get_param": "role"}},
        "user_data_format": "RAW",
    }
    resources: dict[str, Any] = {
        "net": {"type": "OS::Neutron::Net"},
        "subnet": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": cidr},
        },
        "router": {
            "type": "OS::Neutron::Router",
            "properties": {"external_gateway_info": {"network": boot["public"]}},
        },
        "interface": {
            "type": "OS::Neutron::RouterInterface",
            "properties": {
                "router": {"get_resource": "router"},
                "subnet": {"get_resource": "subnet"},
            },
        },
        "group": {
            "type": "OS::Neutron::SecurityGroup",
            "properties": {
                "rules": [{"protocol": "tcp", "port_range_min": 22, "port_range_max": 22}]
            },
        },
        "port": {
            "type": "OS::Neutron::Port",
            "properties": {
                "network": {"get_resource": "net"},
                "fixed_ips": [{"subnet": {"get_resource": "subnet"}}],
                "security_groups": [{"get_resource": "group"}],
            },
        },
        "server": {"type": "OS::Nova::Server", "properties": server},
        "volume": {"type": "OS::Cinder::Volume", "properties": {"size": 1}},
        "attachment": {
            "type": "OS::Cinder::VolumeAttachment",
            "properties": {
                "instance_uuid": {"get_resource": "server"},
                "volume_id": {"get_resource": "volume"},
            },
        },
        "floating": {
            "type": "OS::Neutron::FloatingIP",
            "depends_on": ["interface"],
            "properties": {
                "floating_network": boot["public"],
                "port_id": {"get_resource": "port"},
            },
        },
    }
    if software_config is not None:
        server.update(user_data_format="SOFTWARE_CONFIG", software_config_transport=software_config)
        resources.update(_deployment_resources())
    if second_port:
        resources["second_port"] = {
            "type": "OS::Neutron::Port",
            "properties": {"network": {"get_resource": "net"}},
        }
        networks.append({"port": {"get_resource": "second_port"}})
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"flavor": {"type": "string"}, "role": {"type": "string"}},
        "resources": resources,
        "outputs": outputs or {},
    }
