"""The test cloud really works: each service, reached through the catalog with
openstacksdk, does what the resource plugins will ask of it (a project member's network,
server, volume and objects; the admin's flavors and images)."""

from __future__ import annotations

import http.server
import threading
import time
import uuid
from collections.abc import Iterator

import openstack
import openstack.connection
import openstack.exceptions
import pytest

from tests.cloud import Cloud
from tests.keystone import ADMIN, ALICE

WAIT = 180
# openstacksdk 4.22 warns about its own internals (InfluxDB support, _compute_attributes)
# on every connection and resource it makes.
pytestmark = pytest.mark.filterwarnings("ignore::openstack.warnings._RemovedInSDKWarning")


@pytest.fixture
def admin(cloud: Cloud) -> Iterator[openstack.connection.Connection]:
    connection = openstack.connect(**cloud.auth(ADMIN))
    yield connection
    connection.close()


@pytest.fixture
def member(cloud: Cloud) -> Iterator[openstack.connection.Connection]:
    connection = openstack.connect(**cloud.auth(ALICE))
    yield connection
    connection.close()


class Leftovers:
    """What a test made, deleted after it in an order the services accept (servers
    before their volumes and ports, ports before networks) if the test did not."""

    def __init__(self, connection: openstack.connection.Connection) -> None:
        self.connection = connection
        self.servers: list[object] = []
        self.volumes: list[object] = []
        self.ports: list[object] = []
        self.subnets: list[object] = []
        self.networks: list[object] = []
        self.containers: list[str] = []

    def delete(self) -> None:
        compute, storage = self.connection.compute, self.connection.block_storage
        network, objects = self.connection.network, self.connection.object_store
        for server in self.servers:
            compute.delete_server(server, ignore_missing=True)
            compute.wait_for_delete(server, wait=WAIT)
        for volume in self.volumes:
            storage.delete_volume(volume, ignore_missing=True)
        for port in self.ports:
            network.delete_port(port, ignore_missing=True)
        for subnet in self.subnets:
            network.delete_subnet(subnet, ignore_missing=True)
        for made in self.networks:
            network.delete_network(made, ignore_missing=True)
        for container in self.containers:
            try:
                items = list(objects.objects(container))
            except openstack.exceptions.NotFoundException:
                continue
            for item in items:
                objects.delete_object(item, container=container, ignore_missing=True)
            objects.delete_container(container, ignore_missing=True)


@pytest.fixture
def leftovers(member: openstack.connection.Connection) -> Iterator[Leftovers]:
    made = Leftovers(member)
    yield made
    made.delete()


def _name(kind: str) -> str:
    return f"smoke-{kind}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def flavor(admin: openstack.connection.Connection) -> Iterator[object]:
    made = admin.compute.create_flavor(name=_name("flavor"), ram=64, vcpus=1, disk=1)
    yield made
    admin.compute.delete_flavor(made)


@pytest.fixture
def image(admin: openstack.connection.Connection) -> Iterator[object]:
    made = admin.image.create_image(
        name=_name("image"),
        data=b"\0" * 4096,
        disk_format="raw",
        container_format="bare",
        visibility="public",
    )
    yield made
    admin.image.delete_image(made)


def test_a_server_boots_on_a_new_port_and_gets_a_volume_attached(
    member: openstack.connection.Connection,
    leftovers: Leftovers,
    flavor: object,
    image: object,
) -> None:
    network = member.network.create_network(name=_name("net"))
    leftovers.networks.append(network)
    subnet = member.network.create_subnet(
        network_id=network.id, ip_version=4, cidr="10.11.12.0/24", name=_name("subnet")
    )
    leftovers.subnets.append(subnet)
    port = member.network.create_port(network_id=network.id, name=_name("port"))
    leftovers.ports.append(port)
    assert port.fixed_ips[0]["subnet_id"] == subnet.id

    server = member.compute.create_server(
        name=_name("server"),
        flavor_id=flavor.id,
        image_id=image.id,
        networks=[{"port": port.id}],
    )
    leftovers.servers.append(server)
    server = member.compute.wait_for_server(server, status="ACTIVE", wait=WAIT)
    assert server.status == "ACTIVE"
    bound = member.network.get_port(port.id)
    assert (bound.device_id, bound.status) == (server.id, "ACTIVE")
    assert port.fixed_ips[0]["ip_address"] in [
        address["addr"] for addresses in server.addresses.values() for address in addresses
    ]

    volume = member.block_storage.create_volume(size=1, name=_name("volume"))
    leftovers.volumes.append(volume)
    volume = member.block_storage.wait_for_status(volume, status="available", wait=WAIT)
    member.compute.create_volume_attachment(server, volume_id=volume.id)
    volume = member.block_storage.wait_for_status(volume, status="in-use", wait=WAIT)
    assert [attachment["server_id"] for attachment in volume.attachments] == [server.id]

    member.compute.delete_volume_attachment(server, volume.id)
    member.block_storage.wait_for_status(volume, status="available", wait=WAIT)
    member.block_storage.delete_volume(volume)
    member.block_storage.wait_for_delete(volume, wait=WAIT)
    member.compute.delete_server(server)
    member.compute.wait_for_delete(server, wait=WAIT)
    member.network.delete_port(port)
    member.network.delete_subnet(subnet)
    member.network.delete_network(network)
    assert member.network.find_network(network.id) is None


def test_an_object_is_stored_in_a_new_container_and_read_back(
    member: openstack.connection.Connection, leftovers: Leftovers
) -> None:
    container = member.object_store.create_container(name=_name("container"))
    leftovers.containers.append(container.name)
    member.object_store.upload_object(container=container.name, name="hello.txt", data=b"hi")

    assert member.object_store.download_object("hello.txt", container=container.name) == b"hi"
    listed = [item.name for item in member.object_store.objects(container.name)]
    assert listed == ["hello.txt"]

    member.object_store.delete_object("hello.txt", container=container.name)
    member.object_store.delete_container(container)
    names = [item.name for item in member.object_store.containers()]
    assert container.name not in names


IMAGE_BYTES = bytes(range(256)) * 32


class _ImageHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(IMAGE_BYTES)))
        self.end_headers()
        self.wfile.write(IMAGE_BYTES)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def image_url() -> Iterator[str]:
    """An image file served over HTTP on loopback, as OS::Glance::WebImage points at."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _ImageHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/disk.raw"
    server.shutdown()
    server.server_close()
    thread.join()


def test_an_image_is_imported_from_a_web_server(
    admin: openstack.connection.Connection, image_url: str
) -> None:
    image = admin.image.create_image(
        name=_name("web-image"), disk_format="raw", container_format="bare"
    )
    try:
        admin.image.import_image(image, method="web-download", uri=image_url)
        deadline = time.monotonic() + WAIT
        while image.status != "active" and time.monotonic() < deadline:
            assert image.status in ("queued", "importing")
            time.sleep(1)
            image = admin.image.get_image(image.id)
        assert (image.status, image.size) == ("active", len(IMAGE_BYTES))
    finally:
        admin.image.delete_image(image)
