"""OS::Heat::SoftwareDeployment, its groups and StructuredDeployment against the test
cloud, driven by alice, with the test playing the agent on the servers: it reads the
deployment's derived config from the software deployments API (what os-collect-config
polls) and signals the outputs back over the deployment's own transport, the pre-signed
CFN URL, the native API as the deployment's stack user, or the Swift TempURL. The
outputs are the deployment's attributes; an update deploys again (``deploy_action``
UPDATE); a non-zero status code fails the stack with Heat's text; and after the delete
there is no deployment, stack user or container left.

The servers (two, booted by Nova's fake driver with the default user data) are made by a
stack of their own and named to the deployments by id: the deployment needs nothing of
its server but its id and, for the metadata push, its resource row.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import openstack.connection
import pytest
from heatclient import client as heat_client
from heatclient.exc import HTTPBadRequest, HTTPNotFound
from keystoneauth1 import exceptions as keystone_errors
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from tests.cloud_scenarios import boot_material
from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    stacks_deleted_after,
    unique,
    wait_for_stack,
)

AGENT_TIMEOUT = 120.0

SCRIPT_CONFIG = {
    "type": "OS::Heat::SoftwareConfig",
    "properties": {
        "group": "script",
        "inputs": [{"name": "greeting"}],
        "outputs": [{"name": "result"}],
        "config": '#!/bin/sh\necho "$greeting" > "$heat_outputs_path.result"\n',
    },
}


def deployment_template(actions: list[str] | None = None) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "config": {"get_resource": "config"},
        "server": {"get_param": "server"},
        "input_values": {"greeting": {"get_param": "greeting"}, "extra": 42},
        "signal_transport": {"get_param": "transport"},
    }
    if actions is not None:
        properties["actions"] = actions
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "server": {"type": "string"},
            "transport": {"type": "string"},
            "greeting": {"type": "string"},
        },
        "resources": {
            "config": SCRIPT_CONFIG,
            "deployment": {"type": "OS::Heat::SoftwareDeployment", "properties": properties},
        },
        "outputs": {
            "result": {"value": {"get_attr": ["deployment", "result"]}},
            "stdout": {"value": {"get_attr": ["deployment", "deploy_stdout"]}},
            "status_code": {"value": {"get_attr": ["deployment", "deploy_status_code"]}},
        },
    }


# The cloud: an image, a flavor, a network and two servers


@pytest.fixture(scope="module")
def boot(
    admin: openstack.connection.Connection, member: openstack.connection.Connection
) -> Iterator[dict[str, str]]:
    with boot_material.server_kit(admin, member, "deploy") as made:
        yield made


@pytest.fixture(scope="module")
def servers(heat: Any, boot: dict[str, str]) -> Iterator[dict[str, str]]:
    """Two servers of a stack of their own: their names and ids."""
    server = {
        "type": "OS::Nova::Server",
        "properties": {
            "image": boot["image"],
            "flavor": boot["flavor"],
            "networks": [{"network": boot["network"]}],
        },
    }
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"first": server, "second": server},
    }
    created = heat.stacks.create(stack_name=unique("deploy-servers"), template=template)
    stack_id = created["stack"]["id"]
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    yield {
        resource.resource_name: resource.physical_resource_id
        for resource in heat.resources.list(stack_id)
    } | {"stack_id": stack_id}
    delete_stack(heat, stack_id)


@pytest.fixture
def stacks(heat: Any) -> Iterator[list[str]]:
    """The stacks a test makes, deleted after it whatever became of them."""
    with stacks_deleted_after(heat) as made:
        yield made


# The agent on the server


def inputs_of(config: dict[str, Any]) -> dict[str, Any]:
    return {item["name"]: item.get("value") for item in config["inputs"]}


def deployed_config(
    heat: Any, server_id: str, stack: str, action: str, name: str | None = None
) -> dict[str, Any]:
    """The server's derived config for ``action`` of a deployment (named ``name``) of a
    stack whose path has ``stack`` in it, once there (what the agent polls)."""
    deadline = time.monotonic() + AGENT_TIMEOUT
    while True:
        for config in heat.software_deployments.metadata(server_id):
            values = inputs_of(config)
            if (
                stack in values.get("deploy_stack_id", "")
                and values.get("deploy_action") == action
                and name in (None, values.get("deploy_resource_name"))
            ):
                return dict(config)
        assert time.monotonic() < deadline, f"no {action} deployment for {server_id}"
        time.sleep(0.5)


def send(url: str, method: str, body: Any, headers: dict[str, str] | None = None) -> int:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), method=method, headers=headers or {}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return int(response.status)


def stack_user_heat(heat: Any, values: dict[str, Any]) -> Any:
    """A heatclient logged in as the deployment's stack user, in its stack-user project."""
    auth = v3.Password(
        auth_url=values["deploy_auth_url"],
        user_id=values["deploy_user_id"],
        password=values["deploy_password"],
        project_id=values["deploy_project_id"],
    )
    base = heat.http_client.endpoint_override.rsplit("/", 1)[0]
    return heat_client.Client(
        "1",
        session=ks_session.Session(auth=auth),
        endpoint_override=f"{base}/{values['deploy_project_id']}",
    )


def signal(heat: Any, config: dict[str, Any], outputs_sent: dict[str, Any]) -> None:
    """Signal the outputs the way the deployment's transport says."""
    values = inputs_of(config)
    transport = values["deploy_signal_transport"]
    if transport == "CFN_SIGNAL":
        # The URL is pre-signed: no credentials.
        assert values["deploy_signal_verb"] == "POST"
        headers = {"Content-Type": "application/json"}
        assert send(values["deploy_signal_id"], "POST", outputs_sent, headers) == 200
    elif transport == "TEMP_URL_SIGNAL":
        assert values["deploy_signal_verb"] == "PUT"
        assert send(values["deploy_signal_id"], "PUT", outputs_sent) == 201
    elif transport == "HEAT_SIGNAL":
        stack_user_heat(heat, values).resources.signal(
            stack_id=values["deploy_stack_id"],
            resource_name=values["deploy_resource_name"],
            data=outputs_sent,
        )
    else:
        raise AssertionError(transport)


def agent_output(greeting: str, status_code: int = 0) -> dict[str, Any]:
    return {
        "deploy_stdout": f"said {greeting}",
        "deploy_stderr": "",
        "deploy_status_code": status_code,
        "result": greeting.upper(),
    }


def create(heat: Any, stacks: list[str], template: dict[str, Any], **parameters: Any) -> str:
    created = heat.stacks.create(
        stack_name=unique("deploy"), template=template, parameters=parameters
    )
    stacks.append(created["stack"]["id"])
    return str(created["stack"]["id"])


def gone(check: Any) -> bool:
    """Whether ``check()`` soon raises not found (the stack's users and project go right
    after the stack reads DELETE_COMPLETE)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            check()
        except (keystone_errors.NotFound, openstack.exceptions.NotFoundException):
            return True
        time.sleep(0.5)
    return False


# The tests


@pytest.mark.parametrize("transport", ["CFN_SIGNAL", "HEAT_SIGNAL", "TEMP_URL_SIGNAL"])
def test_the_servers_signal_gives_the_outputs_and_an_update_deploys_again(
    heat: Any, stacks: list[str], servers: dict[str, str], transport: str
) -> None:
    server_id = servers["first"]
    template = deployment_template()
    stack_id = create(heat, stacks, template, server=server_id, transport=transport, greeting="hi")

    config = deployed_config(heat, server_id, stack_id, "CREATE")
    values = inputs_of(config)
    assert config["group"] == "script"
    assert config["config"] == SCRIPT_CONFIG["properties"]["config"]
    assert config["outputs"] == [
        {"name": "result", "description": "", "type": "String", "error_output": False}
    ]
    assert values["greeting"] == "hi"
    assert values["extra"] == 42
    assert values["deploy_server_id"] == server_id
    assert values["deploy_resource_name"] == "deployment"
    assert values["deploy_signal_transport"] == transport
    signal(heat, config, agent_output("hi"))
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert outputs(stack) == {"result": "HI", "stdout": "said hi", "status_code": 0}
    # The server's resource has the deployment in its metadata too.
    metadata = heat.resources.metadata(servers["stack_id"], "first")
    assert [item["id"] for item in metadata["deployments"]] == [config["id"]]

    heat.stacks.update(stack_id, template=template, existing=True, parameters={"greeting": "yo"})
    config = deployed_config(heat, server_id, stack_id, "UPDATE")
    assert inputs_of(config)["greeting"] == "yo"
    signal(heat, config, agent_output("yo"))
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert outputs(stack) == {"result": "YO", "stdout": "said yo", "status_code": 0}
    # The CREATE's derived config made way for the UPDATE's.
    assert [item["id"] for item in heat.software_deployments.metadata(server_id)] == [config["id"]]

    delete_stack(heat, stack_id)
    assert heat.software_deployments.list(server_id=server_id) == []
    assert heat.software_deployments.metadata(server_id) == []
    with pytest.raises(HTTPNotFound):
        heat.software_configs.get(config["id"])


def test_a_heat_signal_deployments_user_goes_with_it(
    heat: Any, stacks: list[str], servers: dict[str, str], admin: Any
) -> None:
    server_id = servers["first"]
    stack_id = create(
        heat,
        stacks,
        deployment_template(),
        server=server_id,
        transport="HEAT_SIGNAL",
        greeting="hi",
    )
    values = inputs_of(deployed_config(heat, server_id, stack_id, "CREATE"))
    user = admin.identity.get_user(values["deploy_user_id"])
    assert user.name == values["deploy_username"]
    assert values["deploy_project_id"] == heat.stacks.get(stack_id).stack_user_project_id
    signal(heat, deployed_config(heat, server_id, stack_id, "CREATE"), agent_output("hi"))
    assert wait_for_stack(heat, stack_id, "CREATE").stack_status == "CREATE_COMPLETE"

    delete_stack(heat, stack_id)
    assert gone(lambda: admin.identity.get_user(values["deploy_user_id"]))
    assert gone(lambda: admin.identity.get_project(values["deploy_project_id"]))


def test_a_temp_url_deployments_container_goes_with_it(
    heat: Any, stacks: list[str], servers: dict[str, str], member: Any
) -> None:
    server_id = servers["first"]
    stack_id = create(
        heat,
        stacks,
        deployment_template(),
        server=server_id,
        transport="TEMP_URL_SIGNAL",
        greeting="hi",
    )
    config = deployed_config(heat, server_id, stack_id, "CREATE")
    # The TempURL names an object of a container named after the stack.
    container, _ = inputs_of(config)["deploy_signal_id"].split("?")[0].split("/")[-2:]
    assert container == stack_id
    assert stack_id in [found.name for found in member.object_store.containers()]
    signal(heat, config, agent_output("hi"))
    assert wait_for_stack(heat, stack_id, "CREATE").stack_status == "CREATE_COMPLETE"

    delete_stack(heat, stack_id)
    assert stack_id not in [found.name for found in member.object_store.containers()]


def test_a_no_signal_deployment_completes_without_a_signal(
    heat: Any, stacks: list[str], servers: dict[str, str]
) -> None:
    server_id = servers["second"]
    stack_id = create(
        heat, stacks, deployment_template(), server=server_id, transport="NO_SIGNAL", greeting="hi"
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert outputs(stack) == {"result": None, "stdout": None, "status_code": None}
    (deployment,) = heat.software_deployments.list(server_id=server_id)
    assert (deployment.action, deployment.status, deployment.status_reason) == (
        "CREATE",
        "COMPLETE",
        "Not waiting for outputs signal",
    )
    assert "deploy_signal_id" not in inputs_of(deployed_config(heat, server_id, stack_id, "CREATE"))
    delete_stack(heat, stack_id)
    assert heat.software_deployments.list(server_id=server_id) == []


def test_a_non_zero_status_code_fails_the_deployment_as_in_heat(
    heat: Any, stacks: list[str], servers: dict[str, str]
) -> None:
    server_id = servers["second"]
    stack_id = create(
        heat, stacks, deployment_template(), server=server_id, transport="CFN_SIGNAL", greeting="x"
    )
    signal(heat, deployed_config(heat, server_id, stack_id, "CREATE"), agent_output("x", 1))
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: Error: resources.deployment: Deployment to server failed: "
        "deploy_status_code : Deployment exited with non-zero status code: 1"
    )
    (deployment,) = heat.software_deployments.list(server_id=server_id)
    assert deployment.status == "FAILED"
    assert deployment.output_values["deploy_stdout"] == "said x"
    delete_stack(heat, stack_id)
    assert heat.software_deployments.list(server_id=server_id) == []


def test_a_zaqar_signal_deployment_fails_as_in_heat_without_zaqar(
    heat: Any, stacks: list[str], servers: dict[str, str]
) -> None:
    stack_id = create(
        heat,
        stacks,
        deployment_template(),
        server=servers["second"],
        transport="ZAQAR_SIGNAL",
        greeting="x",
    )
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: EndpointNotFound: resources.deployment: "
        "Could not find requested endpoint in Service Catalog."
    )
    delete_stack(heat, stack_id)
    assert heat.software_deployments.list(server_id=servers["second"]) == []


def test_a_delete_action_deploys_before_the_deployment_goes(
    heat: Any, stacks: list[str], servers: dict[str, str]
) -> None:
    server_id = servers["second"]
    stack_id = create(
        heat,
        stacks,
        deployment_template(["CREATE", "DELETE"]),
        server=server_id,
        transport="CFN_SIGNAL",
        greeting="hi",
    )
    signal(heat, deployed_config(heat, server_id, stack_id, "CREATE"), agent_output("hi"))
    assert wait_for_stack(heat, stack_id, "CREATE").stack_status == "CREATE_COMPLETE"

    heat.stacks.delete(stack_id)
    config = deployed_config(heat, server_id, stack_id, "DELETE")
    assert heat.stacks.get(stack_id).stack_status == "DELETE_IN_PROGRESS"
    signal(heat, config, agent_output("bye"))
    stack = wait_for_stack(heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE"
    assert heat.software_deployments.list(server_id=server_id) == []


def group_template(group_type: str = "OS::Heat::SoftwareDeploymentGroup") -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {
            "servers": {"type": "json"},
            "greeting": {"type": "string"},
        },
        "resources": {
            "config": SCRIPT_CONFIG,
            "group": {
                "type": group_type,
                "properties": {
                    "config": {"get_resource": "config"},
                    "servers": {"get_param": "servers"},
                    "input_values": {"greeting": {"get_param": "greeting"}},
                },
                "update_policy": {"rolling_update": {"max_batch_size": 1}},
            },
        },
        "outputs": {
            "stdouts": {"value": {"get_attr": ["group", "deploy_stdouts"]}},
            "status_codes": {"value": {"get_attr": ["group", "deploy_status_codes"]}},
            "results": {"value": {"get_attr": ["group", "result"]}},
        },
    }


def deployed_actions(heat: Any, members: dict[str, str]) -> dict[str, str]:
    """The action each member's server has a deployment for now (one each)."""
    return {
        name: inputs_of(config)["deploy_action"]
        for name, server_id in members.items()
        for config in heat.software_deployments.metadata(server_id)
    }


def test_a_group_deploys_to_each_server_and_rolls_an_update_one_at_a_time(
    heat: Any, stacks: list[str], servers: dict[str, str]
) -> None:
    members = {"web": servers["first"], "db": servers["second"]}
    stack_id = create(heat, stacks, group_template(), servers=members, greeting="hi")
    # The members are deployments of a nested stack, named after the map's keys.
    nested = f"{heat.stacks.get(stack_id).stack_name}-group-"
    for name, server_id in members.items():
        config = deployed_config(heat, server_id, nested, "CREATE", name)
        assert inputs_of(config)["deploy_server_id"] == server_id
        signal(heat, config, agent_output(f"hi {name}"))
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert outputs(stack) == {
        "stdouts": {"web": "said hi web", "db": "said hi db"},
        "status_codes": {"web": 0, "db": 0},
        "results": {"web": "HI WEB", "db": "HI DB"},
    }

    heat.stacks.update(
        stack_id, template=group_template(), existing=True, parameters={"greeting": "yo"}
    )
    # One member at a time: the other is not redeployed before the first is done.
    deadline = time.monotonic() + AGENT_TIMEOUT
    while "UPDATE" not in (actions := deployed_actions(heat, members)).values():
        assert time.monotonic() < deadline, actions
        time.sleep(0.5)
    first = next(name for name, action in actions.items() if action == "UPDATE")
    (second,) = set(members) - {first}
    assert actions[second] == "CREATE"
    signal(
        heat,
        deployed_config(heat, members[first], nested, "UPDATE", first),
        agent_output("yo " + first),
    )
    signal(
        heat,
        deployed_config(heat, members[second], nested, "UPDATE", second),
        agent_output("yo " + second),
    )
    stack = wait_for_stack(heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert outputs(stack)["results"] == {"web": "YO WEB", "db": "YO DB"}

    delete_stack(heat, stack_id)
    for server_id in members.values():
        assert heat.software_deployments.list(server_id=server_id) == []


STRUCTURED_CONFIG = {
    "type": "OS::Heat::StructuredConfig",
    "properties": {
        "group": "apply-config",
        "config": {
            "greeting": {"get_input": "greeting"},
            "actions": [{"get_input": "deploy_action"}, "fixed"],
            "missing": {"get_input": "nothing"},
            "not_an_input": {"get_input": "greeting", "other": 1},
        },
    },
}


def structured_template(validate: str = "LAX") -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"server": {"type": "string"}},
        "resources": {
            "config": STRUCTURED_CONFIG,
            "deployment": {
                "type": "OS::Heat::StructuredDeployment",
                "properties": {
                    "config": {"get_resource": "config"},
                    "server": {"get_param": "server"},
                    "input_values": {"greeting": "hello"},
                    "input_values_validate": validate,
                    "signal_transport": "NO_SIGNAL",
                },
            },
        },
    }


def test_a_structured_deployment_substitutes_its_inputs_into_the_config(
    heat: Any, stacks: list[str], servers: dict[str, str]
) -> None:
    server_id = servers["second"]
    stack_id = create(heat, stacks, structured_template(), server=server_id)
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    config = deployed_config(heat, server_id, stack_id, "CREATE")
    assert config["group"] == "apply-config"
    assert config["config"] == {
        "greeting": "hello",
        "actions": ["CREATE", "fixed"],
        "missing": None,
        "not_an_input": {"get_input": "greeting", "other": 1},
    }
    delete_stack(heat, stack_id)


def test_a_strict_structured_deployment_refuses_a_missing_input_as_in_heat(
    heat: Any, stacks: list[str], servers: dict[str, str]
) -> None:
    stack_id = create(heat, stacks, structured_template("STRICT"), server=servers["second"])
    stack = wait_for_stack(heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: UserParameterMissing: resources.deployment: "
        "The Parameter (nothing) was not provided."
    )
    delete_stack(heat, stack_id)


def test_a_deployment_to_a_server_of_the_stack_needs_its_software_config_user_data(
    heat: Any, boot: dict[str, str]
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "image": boot["image"],
                    "flavor": boot["flavor"],
                    "networks": [{"network": boot["network"]}],
                },
            },
            "deployment": {
                "type": "OS::Heat::SoftwareDeployment",
                "properties": {"server": {"get_resource": "server"}},
            },
        },
    }
    name = unique("deploy-cfntools")
    with pytest.raises(HTTPBadRequest) as refused:
        heat.stacks.create(stack_name=name, template=template)
    assert (
        "Resource server's property user_data_format should be set to SOFTWARE_CONFIG since "
        "there are software deployments on it."
    ) in str(refused.value)
    assert [stack for stack in heat.stacks.list() if stack.stack_name == name] == []
