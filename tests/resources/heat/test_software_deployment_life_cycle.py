"""Software deployments through the engine on the LocalQueue, with NO_SIGNAL (the one
transport that needs no cloud): the deployment rows and derived configs each action
leaves, updates and replacements, the actions a deployment is triggered by, structured
configs' substitution, and the groups over a map of servers."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.engine.service import software_configs, software_deployments, stack_actions
from keel_app.models.software import SoftwareConfig, SoftwareDeployment
from tests.engine.convergence.nested import NestedEngine
from tests.engine.service.stack_life import rows

SERVER = "6a4b9e16-2a7e-4d33-9c55-0e7a1c2b3d4f"


def template(
    deployment_properties: dict[str, Any] | None = None,
    config: dict[str, Any] | None = None,
    deployment_type: str = "OS::Heat::SoftwareDeployment",
) -> dict[str, Any]:
    properties = {
        "config": {"get_resource": "config"},
        "server": SERVER,
        "input_values": {"greeting": "hello", "extra": [1, 2]},
        "signal_transport": "NO_SIGNAL",
        **(deployment_properties or {}),
    }
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "config": config
            or {
                "type": "OS::Heat::SoftwareConfig",
                "properties": {
                    "group": "script",
                    "config": "echo $greeting",
                    "inputs": [{"name": "greeting"}, {"name": "unset", "default": "d"}],
                    "outputs": [{"name": "result"}],
                },
            },
            "deployment": {"type": deployment_type, "properties": properties},
        },
        "outputs": {
            "result": {"value": {"get_attr": ["deployment", "result"]}},
            "stdout": {"value": {"get_attr": ["deployment", "deploy_stdout"]}},
        },
    }


def deployments(nested: NestedEngine) -> list[dict[str, Any]]:
    return software_deployments.list_software_deployments(
        nested.context, nested.settings, nested.database, None
    )


def config_of(nested: NestedEngine, deployment: dict[str, Any]) -> dict[str, Any]:
    return software_configs.show_software_config(
        nested.context, nested.settings, nested.database, None, config_id=deployment["config_id"]
    )


def input_values(config: dict[str, Any]) -> dict[str, Any]:
    return {item["name"]: item.get("value") for item in config["inputs"]}


def test_a_no_signal_deployment_is_complete_with_its_derived_config(nested: NestedEngine) -> None:
    identity = nested.create(template())
    assert nested.states(identity["stack_id"])["deployment"] == ("CREATE", "COMPLETE")
    (deployment,) = deployments(nested)
    assert (
        deployment["id"]
        == nested.resources(identity["stack_id"])["deployment"].physical_resource_id
    )
    assert (deployment["server_id"], deployment["action"], deployment["status"]) == (
        SERVER,
        "CREATE",
        "COMPLETE",
    )
    assert deployment["status_reason"] == "Not waiting for outputs signal"
    assert deployment["input_values"] == {"greeting": "hello", "extra": [1, 2]}
    derived = config_of(nested, deployment)
    source = nested.resources(identity["stack_id"])["config"]
    assert derived["name"].startswith("web-config-")
    assert derived["id"] != source.physical_resource_id
    assert derived["group"] == "script"
    assert derived["config"] == "echo $greeting"
    assert derived["inputs"] == [
        {"name": "greeting", "description": "", "type": "String", "default": "", "value": "hello"},
        {"name": "unset", "description": "", "type": "String", "default": "d", "value": "d"},
        {"name": "extra", "type": "String", "value": [1, 2]},
        {
            "name": "deploy_server_id",
            "description": "ID of the server being deployed to",
            "type": "String",
            "value": SERVER,
        },
        {
            "name": "deploy_action",
            "description": "Name of the current action being deployed",
            "type": "String",
            "value": "CREATE",
        },
        {
            "name": "deploy_stack_id",
            "description": "ID of the stack this deployment belongs to",
            "type": "String",
            "value": f"web/{identity['stack_id']}",
        },
        {
            "name": "deploy_resource_name",
            "description": "Name of this deployment resource in the stack",
            "type": "String",
            "value": "deployment",
        },
        {
            "name": "deploy_signal_transport",
            "description": "How the server should signal to heat with the deployment output "
            "values.",
            "type": "String",
            "value": "NO_SIGNAL",
        },
    ]
    assert derived["outputs"] == [
        {"name": "result", "description": "", "type": "String", "error_output": False}
    ]
    # No outputs yet: the config's declared ones and the standard ones read None.
    assert nested.outputs(identity) == {"result": None, "stdout": None}


def test_an_update_moves_the_deployment_to_a_new_derived_config(nested: NestedEngine) -> None:
    identity = nested.create(template())
    (before,) = deployments(nested)
    nested.update(identity, template({"input_values": {"greeting": "bye"}, "name": "z-last"}))
    assert nested.states(identity["stack_id"])["deployment"] == ("UPDATE", "COMPLETE")
    (after,) = deployments(nested)
    assert (after["id"], after["action"]) == (before["id"], "UPDATE")
    derived = config_of(nested, after)
    assert derived["name"] == "z-last"
    assert input_values(derived)["greeting"] == "bye"
    assert input_values(derived)["deploy_action"] == "UPDATE"
    # The CREATE's derived config is gone: the source config and the new one are left.
    assert len(rows(nested.database, SoftwareConfig)) == 2


def test_a_changed_replace_on_change_input_replaces_the_deployment(nested: NestedEngine) -> None:
    config = {
        "type": "OS::Heat::SoftwareConfig",
        "properties": {"inputs": [{"name": "greeting", "replace_on_change": True}]},
    }
    identity = nested.create(template(config=config))
    (before,) = deployments(nested)
    nested.update(identity, template({"input_values": {"greeting": "bye"}}, config=config))
    (after,) = deployments(nested)
    assert after["id"] != before["id"]
    assert nested.states(identity["stack_id"])["deployment"] == ("CREATE", "COMPLETE")


def test_deleting_the_stack_leaves_no_deployment_nor_config(nested: NestedEngine) -> None:
    identity = nested.create(template())
    nested.delete(identity)
    assert rows(nested.database, SoftwareDeployment) == []
    assert rows(nested.database, SoftwareConfig) == []


@pytest.mark.parametrize(
    ("actions", "expected"),
    [
        (["CREATE", "UPDATE"], ["CREATE", "CREATE"]),
        (["CREATE", "SUSPEND", "RESUME"], ["SUSPEND", "RESUME"]),
    ],
)
def test_suspend_and_resume_deploy_when_the_actions_say_so(
    nested: NestedEngine, actions: list[str], expected: list[str]
) -> None:
    identity = nested.create(template({"actions": actions}))
    seen = []
    for call in (stack_actions.stack_suspend, stack_actions.stack_resume):
        call(
            nested.context, nested.settings, nested.database, nested.queue, stack_identity=identity
        )
        nested.queue.run_until_idle()
        (deployment,) = deployments(nested)
        seen.append(deployment["action"])
    assert seen == expected
    assert nested.states(identity["stack_id"])["deployment"] == ("RESUME", "COMPLETE")


def test_a_component_deploys_only_for_the_actions_of_its_configs(nested: NestedEngine) -> None:
    component = {
        "type": "OS::Heat::SoftwareComponent",
        "properties": {"configs": [{"tool": "script", "config": "a", "actions": ["CREATE"]}]},
    }
    identity = nested.create(template(config=component))
    (created,) = deployments(nested)
    nested.update(identity, template({"input_values": {"greeting": "bye"}}, config=component))
    (after,) = deployments(nested)
    assert (after["action"], after["config_id"]) == ("CREATE", created["config_id"])


STRUCTURED = {
    "type": "OS::Heat::StructuredConfig",
    "properties": {
        "config": {
            "say": {"get_input": "greeting"},
            "list": [{"get_input": "deploy_action"}, {"get_input": "nothing"}],
            "kept": {"get_input": "greeting", "other": 1},
        }
    },
}


def test_a_structured_deployment_substitutes_its_inputs(nested: NestedEngine) -> None:
    nested.create(template(config=STRUCTURED, deployment_type="OS::Heat::StructuredDeployment"))
    (deployment,) = deployments(nested)
    assert config_of(nested, deployment)["config"] == {
        "say": "hello",
        "list": ["CREATE", None],
        "kept": {"get_input": "greeting", "other": 1},
    }


def test_a_structured_deployment_may_use_another_input_key(nested: NestedEngine) -> None:
    config = {
        "type": "OS::Heat::StructuredConfig",
        "properties": {"config": {"a": {"get_input": "greeting"}, "b": {"my_input": "greeting"}}},
    }
    nested.create(
        template(
            {"input_key": "my_input"},
            config=config,
            deployment_type="OS::Heat::StructuredDeployment",
        )
    )
    (deployment,) = deployments(nested)
    assert config_of(nested, deployment)["config"] == {
        "a": {"get_input": "greeting"},
        "b": "hello",
    }


def test_a_strict_structured_deployment_refuses_a_missing_input(nested: NestedEngine) -> None:
    identity = nested.create(
        template(
            {"input_values_validate": "STRICT"},
            config=STRUCTURED,
            deployment_type="OS::Heat::StructuredDeployment",
        )
    )
    assert nested.stack(identity["stack_id"]).status_reason == (
        "Resource CREATE failed: UserParameterMissing: resources.deployment: "
        "The Parameter (nothing) was not provided."
    )


@pytest.mark.parametrize(
    ("group_type", "say"),
    [
        ("OS::Heat::SoftwareDeploymentGroup", {"get_input": "greeting"}),
        ("OS::Heat::StructuredDeploymentGroup", "hi"),
    ],
)
def test_a_group_deploys_to_each_server_of_its_map(
    nested: NestedEngine, group_type: str, say: Any
) -> None:
    group = {
        "type": group_type,
        "properties": {
            "servers": {"web": "server-a", "db": "server-b"},
            "config": {"get_resource": "config"},
            "input_values": {"greeting": "hi"},
            "signal_transport": "NO_SIGNAL",
        },
    }
    identity = nested.create(
        {
            "heat_template_version": "2018-08-31",
            "resources": {"config": STRUCTURED, "group": group},
            "outputs": {
                "stdouts": {"value": {"get_attr": ["group", "deploy_stdouts"]}},
                "codes": {"value": {"get_attr": ["group", "deploy_status_codes"]}},
            },
        }
    )
    assert nested.stack(identity["stack_id"]).status == "COMPLETE"
    # A member a server, named by the map's keys.
    members = nested.resources(nested.child(identity["stack_id"]).id)
    by_server = {item["server_id"]: item for item in deployments(nested)}
    assert {name: row.physical_resource_id for name, row in members.items()} == {
        "web": by_server["server-a"]["id"],
        "db": by_server["server-b"]["id"],
    }
    for deployment in by_server.values():
        assert config_of(nested, deployment)["config"]["say"] == say
    assert nested.outputs(identity) == {
        "stdouts": {"web": None, "db": None},
        "codes": {"web": None, "db": None},
    }
