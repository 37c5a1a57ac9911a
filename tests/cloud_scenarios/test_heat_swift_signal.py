"""OS::Heat::SwiftSignalHandle and OS::Heat::SwiftSignal against the real Swift: the
handle's container and object, the signals the test PUTs to its TempURL (as a server
would with curl_cli), the signal waiting for ``count`` of them (the test cloud's Swift
has no versioned_writes, so only the latest signal is kept, as Heat would see too),
Heat's failure and timeout texts, the data attribute, and nothing left in Swift after delete."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import openstack.connection

from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)


def signal_template(count: int, timeout: int = 300) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "handle": {"type": "OS::Heat::SwiftSignalHandle"},
            "signal": {
                "type": "OS::Heat::SwiftSignal",
                "properties": {
                    "handle": {"get_resource": "handle"},
                    "timeout": timeout,
                    "count": count,
                },
            },
        },
        "outputs": {
            "endpoint": {"value": {"get_attr": ["handle", "endpoint"]}},
            "curl_cli": {"value": {"get_attr": ["handle", "curl_cli"]}},
            "token": {"value": {"get_attr": ["handle", "token"]}},
            "data": {"value": {"get_attr": ["signal", "data"]}},
        },
    }


def handle_endpoint(heat: Any, stack_id: str) -> str:
    """The handle's TempURL, once the handle is made (while the signal waits)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        handle = heat.resources.get(stack_id, "handle")
        if handle.resource_status == "CREATE_COMPLETE":
            return str(handle.attributes["endpoint"])
        time.sleep(1)
    raise AssertionError("the handle was not made")


def put_signal(url: str, body: bytes) -> int:
    request = urllib.request.Request(url, data=body, method="PUT")
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(response.status)


def container_listing(member: openstack.connection.Connection, container: str) -> Any:
    response = member.object_store.request(f"/{container}?format=json", "GET", raise_exc=False)
    return response.status_code, response.json() if response.status_code == 200 else None


def test_a_signal_waits_for_a_signal_put_to_the_handle_temp_url(
    heat: Any, member: openstack.connection.Connection, stacks_left_behind: None
) -> None:
    stack_id = heat.stacks.create(stack_name=unique("swift-signal"), template=signal_template(1))[
        "stack"
    ]["id"]
    endpoint = handle_endpoint(heat, stack_id)
    handle_name = physical_ids(heat, stack_id)["handle"]
    assert f"/{stack_id}/{handle_name}?temp_url_sig=" in endpoint
    # The handle's object is made, holding Heat's "in progress" placeholder: no signal.
    status, listing = container_listing(member, stack_id)
    assert status == 200 and [item["name"] for item in listing] == [handle_name]
    time.sleep(3)
    assert heat.stacks.get(stack_id).stack_status == "CREATE_IN_PROGRESS"

    assert put_signal(endpoint, json.dumps({"data": "first", "id": "a"}).encode()) == 201
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    shown = outputs(stack)
    assert shown["endpoint"] == endpoint
    assert shown["curl_cli"] == f"curl -i -X PUT '{endpoint}'"
    assert shown["token"] == ""
    assert json.loads(shown["data"]) == {"a": "first"}

    delete_stack(heat, stack_id)
    assert container_listing(member, stack_id)[0] == 404


def test_a_failure_signal_fails_the_signal_with_its_reason(
    heat: Any, member: openstack.connection.Connection, stacks_left_behind: None
) -> None:
    stack_id = heat.stacks.create(
        stack_name=unique("swift-signal-failure"),
        template=signal_template(2),
        disable_rollback=True,
    )["stack"]["id"]
    endpoint = handle_endpoint(heat, stack_id)
    put_signal(endpoint, json.dumps({"status": "FAILURE", "reason": "disk full"}).encode())
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: SwiftSignalFailure: resources.signal: disk full"
    )
    delete_stack(heat, stack_id)
    assert container_listing(member, stack_id)[0] == 404


def test_too_few_signals_in_time_fail_with_how_many_arrived(
    heat: Any, stacks_left_behind: None
) -> None:
    stack_id = heat.stacks.create(
        stack_name=unique("swift-signal-timeout"),
        template=signal_template(2, timeout=5),
        disable_rollback=True,
    )["stack"]["id"]
    endpoint = handle_endpoint(heat, stack_id)
    put_signal(endpoint, json.dumps({"reason": "booted"}).encode())
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: SwiftSignalTimeout: resources.signal: 1 of 2 received - booted"
    )
    delete_stack(heat, stack_id)


def test_a_handle_url_of_another_container_is_refused(heat: Any, stacks_left_behind: None) -> None:
    template = signal_template(1)
    template["resources"]["signal"]["properties"]["handle"] = (
        "http://127.0.0.1:8080/v1/AUTH_x/other/object?temp_url_sig=x&temp_url_expires=1"
    )
    del template["outputs"]["data"]
    stack_id = heat.stacks.create(
        stack_name=unique("swift-signal-bad"), template=template, disable_rollback=True
    )["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        'Resource CREATE failed: ValueError: resources.signal: "/v1/AUTH_x/other/object" is '
        "not a valid SwiftSignalHandle.  The Swift TempURL path is invalid"
    )
    delete_stack(heat, stack_id)
