"""OS::Keystone::Region, Service and Endpoint against the cloud's Keystone, driven by its
admin: a region under a parent region, a service and its endpoint there, all changed in
place and gone after delete; and Keystone's refusal of an endpoint's URL reported as
Heat reports it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat
from tests.cloud_scenarios.conftest import physical_ids, wait_for_stack


@pytest.fixture(scope="module")
def heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with admin_heat(cloud, tmp_path_factory.mktemp("keystone-catalog")) as client:
        yield client


def catalog_template(prefix: str) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "description": {"type": "string", "default": "made by a stack"},
            "enabled": {"type": "boolean", "default": True},
            "type": {"type": "string", "default": f"{prefix}-type"},
            "interface": {"type": "string", "default": "public"},
            "url": {"type": "string", "default": "http://192.0.2.1:9999/v1"},
        },
        "resources": {
            "parent": {"type": "OS::Keystone::Region", "properties": {"id": f"{prefix}-parent"}},
            "region": {
                "type": "OS::Keystone::Region",
                "properties": {
                    "id": f"{prefix}-region",
                    "parent_region": {"get_resource": "parent"},
                    "description": {"get_param": "description"},
                    "enabled": {"get_param": "enabled"},
                },
            },
            "service": {
                "type": "OS::Keystone::Service",
                "properties": {
                    "name": f"{prefix}-service",
                    "type": {"get_param": "type"},
                    "description": {"get_param": "description"},
                    "enabled": {"get_param": "enabled"},
                },
            },
            "endpoint": {
                "type": "OS::Keystone::Endpoint",
                "properties": {
                    "service": {"get_resource": "service"},
                    "region": {"get_resource": "region"},
                    "interface": {"get_param": "interface"},
                    "url": {"get_param": "url"},
                    "enabled": {"get_param": "enabled"},
                },
            },
        },
        "outputs": {"endpoint_url": {"value": {"get_attr": ["endpoint", "show", "url"]}}},
    }


def test_a_region_service_and_endpoint_are_made_changed_in_place_and_deleted(
    heat: Any, admin: openstack.connection.Connection
) -> None:
    prefix = f"kc-{uuid.uuid4().hex[:8]}"
    template = catalog_template(prefix)
    created = heat.stacks.create(stack_name=prefix, template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(heat, stack_id)
    assert (ids["parent"], ids["region"]) == (f"{prefix}-parent", f"{prefix}-region")
    region = admin.identity.get_region(ids["region"])
    assert (region.parent_region_id, region.description) == (ids["parent"], "made by a stack")
    service = admin.identity.get_service(ids["service"])
    assert (service.name, service.type, service.description, service.is_enabled) == (
        f"{prefix}-service",
        f"{prefix}-type",
        "made by a stack",
        True,
    )
    endpoint = admin.identity.get_endpoint(ids["endpoint"])
    assert (
        endpoint.service_id,
        endpoint.region_id,
        endpoint.interface,
        endpoint.url,
        endpoint.is_enabled,
    ) == (ids["service"], ids["region"], "public", "http://192.0.2.1:9999/v1", True)
    assert heat.stacks.get(stack_id).outputs[0]["output_value"] == "http://192.0.2.1:9999/v1"

    heat.stacks.update(
        stack_id,
        template=template,
        parameters={
            "description": "changed",
            "enabled": False,
            "type": f"{prefix}-other-type",
            "interface": "internal",
            "url": "http://192.0.2.2:9999/v2",
        },
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert physical_ids(heat, stack_id) == ids
    assert admin.identity.get_region(ids["region"]).description == "changed"
    service = admin.identity.get_service(ids["service"])
    assert (service.type, service.description, service.is_enabled) == (
        f"{prefix}-other-type",
        "changed",
        False,
    )
    endpoint = admin.identity.get_endpoint(ids["endpoint"])
    assert (endpoint.interface, endpoint.url, endpoint.is_enabled) == (
        "internal",
        "http://192.0.2.2:9999/v2",
        False,
    )

    heat.stacks.delete(stack_id)
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert admin.identity.find_endpoint(ids["endpoint"]) is None
    assert admin.identity.find_service(ids["service"]) is None
    assert admin.identity.find_region(ids["region"]) is None
    assert admin.identity.find_region(ids["parent"]) is None


def test_keystones_refusal_of_an_endpoint_url_fails_the_create_with_its_bad_request(
    heat: Any, admin: openstack.connection.Connection
) -> None:
    prefix = f"kc-{uuid.uuid4().hex[:8]}"
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "service": {"type": "OS::Keystone::Service", "properties": {"type": f"{prefix}-t"}},
            "endpoint": {
                "type": "OS::Keystone::Endpoint",
                "properties": {
                    "service": {"get_resource": "service"},
                    "interface": "admin",
                    "url": "no url at all",
                },
            },
        },
    }
    created = heat.stacks.create(stack_name=prefix, template=template)
    stack = wait_for_stack(heat, created["stack"]["id"], "CREATE")

    assert stack.stack_status == "CREATE_FAILED"
    reason = stack.stack_status_reason
    assert reason.startswith(
        "Resource CREATE failed: BadRequest: resources.endpoint: Invalid input for "
        "field/attribute url. Value: no url at all. 'no url at all' does not match "
        "'^[a-zA-Z0-9+.-]+:.+' (HTTP 400) (Request-ID: req-"
    ), reason
    service_id = physical_ids(heat, created["stack"]["id"])["service"]
    assert [e for e in admin.identity.endpoints(service_id=service_id)] == []
    heat.stacks.delete(created["stack"]["id"])
    stack = wait_for_stack(heat, created["stack"]["id"], "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert admin.identity.find_service(service_id) is None
