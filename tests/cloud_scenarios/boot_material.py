"""What scenarios boot servers from: flavors and public images the admin makes, and a
member's network with a subnet; each deleted again when the scenario module is done.

A module names its own fixtures of these, e.g.::

    @pytest.fixture(scope="module")
    def images(admin):
        with boot_material.public_images(admin, "asg-image", 2) as made:
            yield made
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import openstack.connection

from tests.cloud_scenarios.conftest import unique


@contextlib.contextmanager
def flavors(
    admin: openstack.connection.Connection, prefix: str, *rams: int
) -> Iterator[tuple[Any, ...]]:
    """A flavor of one vCPU and 1 GB of disk for each RAM size (MB) given."""
    made = tuple(
        admin.compute.create_flavor(name=unique(f"{prefix}-{ram}"), ram=ram, vcpus=1, disk=1)
        for ram in rams
    )
    try:
        yield made
    finally:
        for flavor in made:
            admin.compute.delete_flavor(flavor, ignore_missing=True)


@contextlib.contextmanager
def public_images(
    admin: openstack.connection.Connection, prefix: str, count: int
) -> Iterator[tuple[Any, ...]]:
    """``count`` small raw images every project may boot from."""
    made = tuple(
        admin.image.create_image(
            name=unique(f"{prefix}-{number}"),
            data=b"\0" * 4096,
            disk_format="raw",
            container_format="bare",
            visibility="public",
        )
        for number in range(1, count + 1)
    )
    try:
        yield made
    finally:
        for image in made:
            admin.image.delete_image(image, ignore_missing=True)


@contextlib.contextmanager
def subnet(member: openstack.connection.Connection, prefix: str, cidr: str) -> Iterator[Any]:
    """A subnet of ``cidr`` on a network of its own. Ports Nova or a test left on the
    network go with it (those of routers and DHCP are their owners' to remove)."""
    network = member.network.create_network(name=unique(f"{prefix}-net"))
    made = member.network.create_subnet(
        network_id=network.id, ip_version=4, cidr=cidr, name=unique(f"{prefix}-subnet")
    )
    try:
        yield made
    finally:
        for port in member.network.ports(network_id=network.id):
            if port.device_owner in ("", "compute:nova", "compute:None"):
                member.network.delete_port(port)
        member.network.delete_subnet(made)
        member.network.delete_network(network)


@contextlib.contextmanager
def server_kit(
    admin: openstack.connection.Connection, member: openstack.connection.Connection, prefix: str
) -> Iterator[dict[str, str]]:
    """The ids a server's properties name: a 64 MB flavor, a public image, and a network
    with a subnet (10.31.0.0/24: unrouted networks may share a range)."""
    with (
        flavors(admin, prefix, 64) as (flavor,),
        public_images(admin, prefix, 1) as (image,),
        subnet(member, prefix, "10.31.0.0/24") as made,
    ):
        yield {"flavor": flavor.id, "image": image.id, "network": made.network_id}
