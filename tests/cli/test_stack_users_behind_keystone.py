"""Stack-domain users at work in the distributed form behind the real Keystone.

``keel-api`` (native and CFN APIs) and a ``keel-worker`` give a scaling policy and a wait
condition handle users of their own in the stack-user domain: the policy's ``alarm_url``
is a CFN URL signed with its user's EC2 keypair, which an alarm POSTs to with no token
(the signature is the authentication) to grow the group; the handle's ``curl_cli`` holds
its user's token and endpoint, which complete the wait condition. After the stack's
delete its project and users are gone from Keystone.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.cli import distributed
from tests.keystone import ADMIN, ALICE, Keystone

HOST = distributed.HOST
TIMEOUT = 120.0

SCALING_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "group": {
            "type": "OS::Heat::AutoScalingGroup",
            "properties": {"min_size": 1, "max_size": 3, "resource": {"type": "OS::Heat::None"}},
        },
        "scale_up": {
            "type": "OS::Heat::ScalingPolicy",
            "properties": {
                "auto_scaling_group_id": {"get_resource": "group"},
                "adjustment_type": "change_in_capacity",
                "scaling_adjustment": 1,
                "cooldown": 0,
            },
        },
    },
    "outputs": {
        "alarm_url": {"value": {"get_attr": ["scale_up", "alarm_url"]}},
        "signal_url": {"value": {"get_attr": ["scale_up", "signal_url"]}},
    },
}

WAIT_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "handle": {"type": "OS::Heat::WaitConditionHandle"},
        "wait": {
            "type": "OS::Heat::WaitCondition",
            "properties": {"handle": {"get_resource": "handle"}, "timeout": 300},
        },
    },
}


class Api:
    """Alice's calls to the native API with her token."""

    def __init__(self, keystone: Keystone, port: int) -> None:
        self.keystone = keystone
        self.project_id = keystone.project_id(ALICE)
        self.base = f"http://{HOST}:{port}/v1/{self.project_id}"

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            headers={
                "X-Auth-Token": self.keystone.token(ALICE),
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
            method=method,
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                content = response.read()
                return response.status, json.loads(content) if content else None
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.read().decode()

    def create(self, name: str, template: dict[str, Any]) -> str:
        status, body = self.call("POST", "/stacks", {"stack_name": name, "template": template})
        assert status == 201, body
        return f"/stacks/{name}/{body['stack']['id']}"

    def wait_for(self, path: str, statuses: set[str]) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            status, body = self.call("GET", path)
            if status == 404 and "DELETE_COMPLETE" in statuses:
                return {"stack_status": "DELETE_COMPLETE"}
            assert status == 200, body
            if body["stack"]["stack_status"] in statuses:
                return dict(body["stack"])
            assert time.monotonic() < deadline, body["stack"]
            time.sleep(0.5)

    def members(self, path: str) -> int:
        status, body = self.call("GET", f"{path}/resources?nested_depth=1")
        assert status == 200, body
        return sum(1 for item in body["resources"] if item["resource_type"] == "OS::Heat::None")


@pytest.fixture(scope="module")
def deployment(
    keystone_service: Keystone, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Api]:
    directory = tmp_path_factory.mktemp("stack-users")
    with distributed.behind_keystone(directory, keystone_service):
        yield Api(keystone_service, distributed.api_port(directory / "heat.conf"))


def send(request: urllib.request.Request) -> int:
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        with error:
            raise AssertionError(f"{error.code}: {error.read().decode()}") from None


def keystone_get(keystone: Keystone, path: str) -> tuple[int, Any]:
    return keystone.request("GET", path, keystone.token(ADMIN))


def gone(keystone: Keystone, path: str) -> bool:
    """Whether Keystone soon answers 404: the stack's credentials go right after the
    stack reads DELETE_COMPLETE, as Heat's purge follows the stack's state."""
    deadline = time.monotonic() + 30
    while keystone_get(keystone, path)[0] != 404:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


def stack_users(keystone: Keystone, project_id: str) -> list[dict[str, Any]]:
    status, body = keystone_get(
        keystone, f"/role_assignments?scope.project.id={project_id}&include_names=true"
    )
    assert status == 200, body
    return [entry for entry in body["role_assignments"] if "user" in entry]


def test_an_alarm_posting_to_the_signed_alarm_url_grows_the_group(
    deployment: Api, keystone_service: Keystone
) -> None:
    path = deployment.create("scaled", SCALING_TEMPLATE)
    stack = deployment.wait_for(path, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status"] == "CREATE_COMPLETE", stack["stack_status_reason"]
    outputs = {item["output_key"]: item["output_value"] for item in stack["outputs"]}
    project_id = stack["stack_user_project_id"]

    # The stack's project is in the stack-user domain, named after the owner and stack.
    status, found = keystone_get(keystone_service, f"/projects/{project_id}")
    assert status == 200
    assert (found["project"]["name"], found["project"]["domain_id"]) == (
        f"{deployment.project_id}-{stack['id']}"[:64],
        keystone_service.stack_user_domain_id,
    )
    users = stack_users(keystone_service, project_id)
    assert [entry["role"]["name"] for entry in users] == ["heat_stack_user"]
    assert users[0]["user"]["name"].startswith("scaled-scale_up-")

    alarm_url = urlparse(outputs["alarm_url"])
    assert (alarm_url.scheme, alarm_url.path) == (
        "http",
        f"/v1/signal/arn%3Aopenstack%3Aheat%3A%3A{deployment.project_id}%3Astacks/scaled/"
        f"{stack['id']}/resources/scale_up",
    )
    assert sorted(part.split("=")[0] for part in alarm_url.query.split("&")) == [
        "AWSAccessKeyId",
        "Signature",
        "SignatureMethod",
        "SignatureVersion",
    ]
    assert outputs["signal_url"] == (
        f"{deployment.base}/stacks/scaled/{stack['id']}/resources/scale_up/signal"
    )
    assert deployment.members(path) == 1

    # The alarm: a plain POST, no token.
    request = urllib.request.Request(outputs["alarm_url"], data=b"{}", method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 200

    deadline = time.monotonic() + TIMEOUT
    while deployment.members(path) != 2:
        assert time.monotonic() < deadline, "the group did not grow"
        time.sleep(0.5)

    # A URL signed with another secret is refused.
    forged = outputs["alarm_url"].replace("Signature=", "Signature=x")
    request = urllib.request.Request(forged, data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=60)
    refused.value.close()
    assert refused.value.code == 403

    # Suspending the stack disables the policy's user; resuming enables it again.
    user_id = users[0]["user"]["id"]
    for action, enabled in (("suspend", False), ("resume", True)):
        status, body = deployment.call("POST", f"{path}/actions", {action: None})
        assert status == 200, body
        done = deployment.wait_for(path, {f"{action.upper()}_COMPLETE", f"{action.upper()}_FAILED"})
        assert done["stack_status"] == f"{action.upper()}_COMPLETE", done["stack_status_reason"]
        assert keystone_get(keystone_service, f"/users/{user_id}")[1]["user"]["enabled"] is enabled

    status, _ = deployment.call("DELETE", path)
    assert status == 204
    assert deployment.wait_for(path, {"DELETE_COMPLETE"})["stack_status"] == "DELETE_COMPLETE"
    assert gone(keystone_service, f"/projects/{project_id}")
    assert gone(keystone_service, f"/users/{user_id}")


def test_a_wait_condition_completes_with_the_handles_token(
    deployment: Api, keystone_service: Keystone
) -> None:
    path = deployment.create("waiting", WAIT_TEMPLATE)
    deadline = time.monotonic() + TIMEOUT
    while True:
        status, body = deployment.call("GET", f"{path}/resources/handle")
        assert status == 200, body
        attributes = body["resource"]["attributes"]
        if attributes.get("curl_cli"):
            break
        assert time.monotonic() < deadline, attributes
        time.sleep(0.5)
    token, endpoint = attributes["token"], attributes["endpoint"]
    stack = deployment.wait_for(path, {"CREATE_IN_PROGRESS"})
    project_id = stack["stack_user_project_id"]
    assert endpoint == (
        f"http://{HOST}:{urlparse(deployment.base).port}/v1/{project_id}/stacks/waiting/"
        f"{stack['id']}/resources/handle/signal"
    )
    assert attributes["curl_cli"] == (
        f"curl -i -X POST -H 'X-Auth-Token: {token}' -H 'Content-Type: application/json' "
        f"-H 'Accept: application/json' {endpoint}"
    )

    # What curl_cli runs, with --data-binary '{"status": "SUCCESS", "data": "ok"}'.
    request = urllib.request.Request(
        endpoint,
        data=json.dumps({"status": "SUCCESS", "data": "ok"}).encode(),
        headers={
            "X-Auth-Token": token,
            "Content-Type": "application/json",
            "Accept": "application/json",
        },
        method="POST",
    )
    assert send(request) == 200

    stack = deployment.wait_for(path, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status"] == "CREATE_COMPLETE", stack["stack_status_reason"]
    status, body = deployment.call("GET", f"{path}/resources/wait")
    assert json.loads(body["resource"]["attributes"]["data"]) == {"1": "ok"}

    user_id = stack_users(keystone_service, project_id)[0]["user"]["id"]
    status, _ = deployment.call("DELETE", path)
    assert status == 204
    deployment.wait_for(path, {"DELETE_COMPLETE"})
    assert gone(keystone_service, f"/projects/{project_id}")
    assert gone(keystone_service, f"/users/{user_id}")


CFN_WAIT_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "handle": {"type": "AWS::CloudFormation::WaitConditionHandle"},
        # Shows the handle's reference (its URL) while the stack waits.
        "url": {"type": "OS::Heat::Value", "properties": {"value": {"get_resource": "handle"}}},
        "wait": {
            "type": "AWS::CloudFormation::WaitCondition",
            "properties": {"Handle": {"get_resource": "handle"}, "Timeout": 300},
        },
    },
}


def test_cfn_signal_puts_to_the_handles_presigned_url(
    deployment: Api, keystone_service: Keystone
) -> None:
    path = deployment.create("cfn-waiting", CFN_WAIT_TEMPLATE)
    deadline = time.monotonic() + TIMEOUT
    while True:
        status, body = deployment.call("GET", f"{path}/resources/url")
        assert status in (200, 404), body
        if status == 200 and body["resource"]["resource_status"] == "CREATE_COMPLETE":
            url = body["resource"]["attributes"]["value"]
            break
        assert time.monotonic() < deadline, body["resource"]
        time.sleep(0.5)
    parsed = urlparse(url)
    assert parsed.path.startswith("/v1/waitcondition/arn%3Aopenstack%3Aheat%3A%3A")
    assert "Timestamp=" in parsed.query

    # What cfn-signal sends: a PUT of the signal document, no token.
    signal = {"Status": "SUCCESS", "Reason": "configured", "UniqueId": "i-1", "Data": "done"}
    request = urllib.request.Request(
        url,
        data=json.dumps(signal).encode(),
        headers={"Content-Type": "application/json"},
        method="PUT",
    )
    assert send(request) == 200

    stack = deployment.wait_for(path, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status"] == "CREATE_COMPLETE", stack["stack_status_reason"]
    project_id = stack["stack_user_project_id"]
    status, _ = deployment.call("DELETE", path)
    assert status == 204
    deployment.wait_for(path, {"DELETE_COMPLETE"})
    assert gone(keystone_service, f"/projects/{project_id}")
