"""OS::Glance::WebImage against the real Glance: an image whose data Glance downloads
from a URL (a file the test serves on loopback), changed in place, found by name by the
glance.image constraint, deleted, and Glance's and Heat's refusals reported as Heat
reports them."""

from __future__ import annotations

import functools
import hashlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openstack.connection
import openstack.exceptions
import pytest
from heatclient.exc import HTTPBadRequest, HTTPInternalServerError

from tests.cloud_scenarios.conftest import physical_ids, unique, wait_for_stack

IMAGE_DATA = b"\x00keel-web-image\x00" * 1024


@pytest.fixture(scope="module")
def image_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a small raw image served over HTTP on loopback."""
    directory: Path = tmp_path_factory.mktemp("web-image")
    (directory / "disk.raw").write_bytes(IMAGE_DATA)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/disk.raw"
    server.shutdown()
    server.server_close()


def image_template(url: str, name: str, tags: list[str], extra: dict[str, str]) -> Any:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "image": {
                "type": "OS::Glance::WebImage",
                "properties": {
                    "name": name,
                    "location": url,
                    "disk_format": "raw",
                    "container_format": "bare",
                    "min_disk": 1,
                    "tags": tags,
                    "os_distro": "keelos",
                    "extra_properties": extra,
                },
            },
        },
        "outputs": {"status": {"value": {"get_attr": ["image", "show", "status"]}}},
    }


def image_is_gone(member: openstack.connection.Connection, image_id: str) -> bool:
    try:
        image = member.image.get_image(image_id)
    except openstack.exceptions.NotFoundException:
        return True
    return image.status == "deleted"


def test_a_web_image_is_downloaded_changed_in_place_and_deleted(
    heat: Any, member: openstack.connection.Connection, image_url: str
) -> None:
    name = unique("keelos")
    template = image_template(image_url, name, ["web", "blue"], {"keel_purpose": "test"})
    stack_id = heat.stacks.create(stack_name=unique("web-image"), template=template)["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    image = member.image.get_image(ids["image"])
    assert (image.name, image.status, image.size, image.checksum) == (
        name,
        "active",
        len(IMAGE_DATA),
        hashlib.md5(IMAGE_DATA).hexdigest(),  # noqa: S324 - Glance's own checksum
    )
    assert (sorted(image.tags), image.min_disk, image.os_distro, image.visibility) == (
        ["blue", "web"],
        1,
        "keelos",
        "private",
    )
    assert image.properties["keel_purpose"] == "test"
    # The glance.image constraint finds it by its name. (The test cloud's Cinder cannot
    # write images to volumes: its fake driver's image copy needs sudo.)
    from_image = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "boot": {"type": "OS::Cinder::Volume", "properties": {"size": 1, "image": name}}
        },
    }
    assert heat.stacks.validate(template=from_image)["Parameters"] == {}
    assert {o["output_key"]: o["output_value"] for o in stack.outputs} == {"status": "active"}

    template = image_template(image_url, name, ["web", "green"], {"keel_stage": "two"})
    heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id)["image"] == ids["image"]
    image = member.image.get_image(ids["image"])
    assert sorted(image.tags) == ["green", "web"]
    assert image.properties.get("keel_stage") == "two"
    assert "keel_purpose" not in image.properties

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert image_is_gone(member, ids["image"])


def test_glances_refusal_fails_the_create_with_glanceclients_error(
    heat: Any, member: openstack.connection.Connection, image_url: str
) -> None:
    name = unique("refused")
    template = image_template(image_url, name, [], {})
    del template["outputs"]
    template["resources"]["image"]["properties"]["id"] = "not-a-uuid"
    stack_id = heat.stacks.create(stack_name=unique("web-refused"), template=template)["stack"][
        "id"
    ]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: HTTPBadRequest: resources.image: HTTP 400 Bad Request: "
    ), stack.stack_status_reason
    assert [image for image in member.image.images() if image.name == name] == []
    heat.stacks.delete(stack_id)
    wait_for_stack(heat, stack_id, "DELETE")


def test_images_and_members_are_checked_before_anything_is_made(heat: Any, image_url: str) -> None:
    template = image_template(image_url, unique("members"), [], {})
    template["resources"]["image"]["properties"]["members"] = ["someone"]
    del template["outputs"]
    # Heat's API maps this error to no status of its own: a 500, as Heat answers.
    with pytest.raises(HTTPInternalServerError) as failed:
        heat.stacks.create(stack_name=unique("web-members"), template=template)
    assert failed.value.error["error"] == {
        "message": "members property should only be specified for visibility with value shared.",
        "traceback": None,
        "type": "ResourcePropertyValueDependency",
    }

    missing = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "volume": {
                "type": "OS::Cinder::Volume",
                "properties": {"size": 1, "image": "no-such-image"},
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=unique("vol-noimage"), template=missing)
    assert refused.value.error["error"]["message"] == (
        "Property error: : resources.volume.properties.image: : Error validating value "
        "'no-such-image': No images matching {'name': 'no-such-image'}."
    )
