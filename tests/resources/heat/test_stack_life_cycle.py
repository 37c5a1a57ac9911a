"""OS::Heat::Stack (a stack of its own, made by this engine in its own region) and
AWS::CloudFormation::Stack (a nested stack of the template at a URL) through the engine."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.common.exception import StackValidationFailed
from tests.engine.convergence.nested import NestedEngine

CHILD_HOT = """\
heat_template_version: 2018-08-31
parameters:
  greeting: {type: string}
resources:
  said: {type: OS::Heat::Value, properties: {value: {get_param: greeting}}}
outputs:
  said: {value: {get_attr: [said, value]}}
"""


def heat_stack(template: str = CHILD_HOT, **properties: Any) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "other": {
                "type": "OS::Heat::Stack",
                "properties": {
                    "template": template,
                    "parameters": {"greeting": "hello"},
                    "timeout": 7,
                    **properties,
                },
            }
        },
        "outputs": {
            "outputs": {"value": {"get_attr": ["other", "outputs"]}},
            "name": {"value": {"get_attr": ["other", "stack_name"]}},
            "reference": {"value": {"get_resource": "other"}},
        },
    }


def _stack_named(nested: NestedEngine, prefix: str) -> Any:
    (name,) = [name for name in nested.stack_names() if name.startswith(prefix)]
    return name


def test_os_heat_stack_makes_a_stack_of_its_own(nested: NestedEngine) -> None:
    identity = nested.create(heat_stack())

    other = nested.resources(identity["stack_id"])["other"]
    made = nested.stack(other.physical_resource_id)
    parent = nested.stack(identity["stack_id"])
    assert made.name == _stack_named(nested, "web-other-")
    assert (made.action, made.status) == ("CREATE", "COMPLETE")
    # Not nested: no owner, its own credentials, a top-level stack's depth.
    assert (made.owner_id, made.nested_depth, made.parent_resource_name) == (None, 0, None)
    assert made.user_creds_id not in (None, parent.user_creds_id)
    assert (made.timeout, made.disable_rollback) == (7, True)
    assert nested.outputs(identity) == {
        "outputs": {"said": "hello"},
        "name": made.name,
        "reference": made.id,
    }


def test_os_heat_stack_updates_its_stack(nested: NestedEngine) -> None:
    identity = nested.create(heat_stack())
    template = heat_stack(parameters={"greeting": "bye"})

    nested.update(identity, template)

    made = nested.stack(nested.resources(identity["stack_id"])["other"].physical_resource_id)
    assert (made.action, made.status) == ("UPDATE", "COMPLETE")
    assert nested.outputs(identity)["outputs"] == {"said": "bye"}


def test_os_heat_stack_deletes_its_stack(nested: NestedEngine) -> None:
    identity = nested.create(heat_stack())
    made_id = nested.resources(identity["stack_id"])["other"].physical_resource_id

    nested.delete(identity)

    made = nested.stack(made_id)
    assert (made.action, made.status, made.deleted_at is not None) == ("DELETE", "COMPLETE", True)


def test_os_heat_stack_failure_reads_as_heatclients(nested: NestedEngine) -> None:
    failing = (
        "heat_template_version: 2018-08-31\n"
        "resources:\n"
        "  bad: {type: OS::Heat::TestResource, properties: {fail: true}}\n"
    )

    identity = nested.create(heat_stack(failing, parameters={}), disable_rollback=True)

    other = nested.resources(identity["stack_id"])["other"]
    assert (other.action, other.status, other.status_reason) == (
        "CREATE",
        "FAILED",
        'ResourceInError: resources.other: Went to status CREATE_FAILED due to "Resource CREATE '
        'failed: ValueError: resources.bad: Test Resource failed bad"',
    )


def test_os_heat_stack_in_another_region_fails_validation(nested: NestedEngine) -> None:
    with pytest.raises(StackValidationFailed) as raised:
        nested.create(heat_stack(context={"region_name": "RegionTwo"}))

    assert str(raised.value) == (
        'Cannot establish connection to Heat endpoint at region "RegionTwo" due to '
        '"public endpoint for orchestration service in RegionTwo region not found"'
    )
    assert nested.stack_names() == []


def test_os_heat_stack_in_its_own_region_is_made(nested: NestedEngine) -> None:
    identity = nested.create(heat_stack(context={"region_name": "RegionOne"}))

    assert nested.outputs(identity)["outputs"] == {"said": "hello"}


def test_os_heat_stack_with_a_bad_template_fails_validation(nested: NestedEngine) -> None:
    with pytest.raises(StackValidationFailed) as raised:
        nested.create(heat_stack("heat_template_version: 2018-08-31\nresources: {x: {}}\n"))

    # What the Heat API's validate answers, as heatclient words it.
    assert str(raised.value) == (
        'Failed validating stack template using Heat endpoint at region "None" due to '
        '"ERROR: Each resource must contain a type key."'
    )


# AWS::CloudFormation::Stack

CHILD_CFN = b"""\
AWSTemplateFormatVersion: 2010-09-09
Parameters:
  Greeting: {Type: String}
Resources:
  Said: {Type: OS::Heat::Value, Properties: {value: {Ref: Greeting}}}
Outputs:
  Said: {Value: {"Fn::GetAtt": [Said, value]}}
"""


class _TemplateServer(http.server.BaseHTTPRequestHandler):
    body = CHILD_CFN

    def do_GET(self) -> None:  # noqa: N802 - the handler's name in http.server
        if self.path != "/child.yaml":
            self.send_error(404)
            return
        self.send_response(200)
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: Any) -> None:
        return None


@pytest.fixture
def template_url() -> Iterator[str]:
    """A URL on loopback serving the nested template."""
    server = http.server.HTTPServer(("127.0.0.1", 0), _TemplateServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/child.yaml"
    server.shutdown()
    server.server_close()


def cfn_stack(url: str, greeting: str = "hi") -> dict[str, Any]:
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "Child": {
                "Type": "AWS::CloudFormation::Stack",
                "Properties": {
                    "TemplateURL": url,
                    "Parameters": {"Greeting": greeting},
                    "TimeoutInMinutes": 9,
                },
            }
        },
        "Outputs": {
            "Said": {"Value": {"Fn::GetAtt": ["Child", "Outputs.Said"]}},
            "Reference": {"Value": {"Ref": "Child"}},
        },
    }


def test_cfn_stack_nests_the_template_at_its_url(nested: NestedEngine, template_url: str) -> None:
    identity = nested.create(cfn_stack(template_url))

    child = nested.child(identity["stack_id"])
    assert (child.action, child.status, child.nested_depth, child.timeout) == (
        "CREATE",
        "COMPLETE",
        1,
        9,
    )
    assert nested.outputs(identity) == {
        "Said": "hi",
        "Reference": f"arn:openstack:heat::project-a:stacks/{child.name}/{child.id}",
    }


def test_cfn_stack_update_passes_the_new_parameters(
    nested: NestedEngine, template_url: str
) -> None:
    identity = nested.create(cfn_stack(template_url))

    nested.update(identity, cfn_stack(template_url, greeting="bye"))

    assert nested.outputs(identity)["Said"] == "bye"
    assert nested.child(identity["stack_id"]).action == "UPDATE"


def test_cfn_stack_template_that_cannot_be_fetched(nested: NestedEngine, template_url: str) -> None:
    missing = template_url.replace("child.yaml", "missing.yaml")

    with pytest.raises(StackValidationFailed) as raised:
        nested.create(cfn_stack(missing))

    assert str(raised.value) == (
        "ValueError: Resources.Child<nested_stack>: Could not fetch remote template "
        f"'{missing}': Failed to retrieve template from {missing}"
    )
