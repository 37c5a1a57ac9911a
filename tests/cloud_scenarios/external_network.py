"""An external network of the admin's for router gateways and floating IPs.

The test cloud has none of its own: the admin makes a flat network (each on a physical
network of its own name, which ML2's ``flat_networks = *`` allows) with
``router:external`` set and one subnet, visible to every project. What a failed test
left on it (gateway and floating IP ports) goes with it.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from typing import Any, NamedTuple

import openstack
import openstack.connection

from tests.cloud import Cloud
from tests.keystone import ADMIN

EXTERNAL_CIDR = "198.51.100.0/24"
OTHER_EXTERNAL_NETWORKS_WAIT = 600.0


class ExternalNetwork(NamedTuple):
    network: Any
    subnet: Any


@contextlib.contextmanager
def external_network(cloud: Cloud, prefix: str) -> Iterator[ExternalNetwork]:
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    with contextlib.closing(openstack.connect(**cloud.auth(ADMIN))) as admin:
        network = admin.network.create_network(
            name=name,
            is_router_external=True,
            provider_network_type="flat",
            provider_physical_network=name,
        )
        try:
            subnet = admin.network.create_subnet(
                name=f"{name}-subnet",
                network_id=network.id,
                ip_version=4,
                cidr=EXTERNAL_CIDR,
                is_dhcp_enabled=False,
            )
            yield ExternalNetwork(network, subnet)
        finally:
            for floating_ip in admin.network.ips(floating_network_id=network.id):
                admin.network.delete_ip(floating_ip, ignore_missing=True)
            for port in admin.network.ports(network_id=network.id):
                if port.device_owner == "network:router_gateway":
                    admin.network.update_router(port.device_id, external_gateway_info={})
                else:
                    admin.network.delete_port(port, ignore_missing=True)
            admin.network.delete_network(network, ignore_missing=True)


def wait_until_the_only_external_network(
    member: openstack.connection.Connection, public: ExternalNetwork
) -> None:
    """Other tests sharing the cloud make external networks of their own for a while:
    wait for theirs to go, as Heat's EC2 types need exactly one."""
    deadline = time.monotonic() + OTHER_EXTERNAL_NETWORKS_WAIT
    while True:
        found = [network.id for network in member.network.networks(is_router_external=True)]
        if found == [public.network.id]:
            return
        assert time.monotonic() < deadline, f"other external networks stay: {found}"
        time.sleep(2)
