"""The software config types run on the LocalQueue: each stores a software_config row
through the software config API's functions, reads it back as its ``config``
attribute, and deletes it with itself."""

from __future__ import annotations

import email
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.common.context import RequestContext
from keel_app.engine.service import stacks as service
from keel_app.models import SoftwareConfig
from tests.engine.resource.keel_side import token
from tests.engine.service.stack_life import create, hot, resource_row, rows, stack_state, update


@pytest.fixture
def context() -> RequestContext:
    """A caller whose catalog has Heat's own API, as these types require."""
    return RequestContext(
        user_id="user-1",
        username="alice",
        project_id="project-a",
        roles=["member"],
        auth_token="token",
        auth_token_info=token(["orchestration"], "RegionOne"),
    )


def configs(database) -> dict[str, SoftwareConfig]:
    return {row.id: row for row in rows(database, SoftwareConfig)}


def output(context, settings, database, identity: dict[str, str], key: str = "config") -> Any:
    shown = service.show_output(
        context, settings, database, None, stack_identity=identity, output_key=key
    )
    return shown["output_value"]


def created(context, settings, database, queue, resource: dict[str, Any]) -> dict[str, str]:
    template = hot(
        {"config": resource}, outputs={"config": {"value": {"get_attr": ["config", "config"]}}}
    )
    identity = create(context, settings, database, queue, template)
    queue.run_until_idle()
    assert stack_state(database, identity)[:2] == ("CREATE", "COMPLETE")
    return identity


def test_software_config_stores_its_config(context, settings, database, queue) -> None:
    resource = {
        "type": "OS::Heat::SoftwareConfig",
        "properties": {
            "group": "script",
            "config": "echo hi",
            "inputs": [{"name": "who", "default": "world"}],
            "options": {"quiet": True},
        },
    }
    identity = created(context, settings, database, queue, resource)

    row = resource_row(database, identity, "config")
    stored = configs(database)[row.physical_resource_id]
    assert (stored.group, stored.tenant) == ("script", "project-a")
    assert stored.name.startswith("life-config-")
    assert len(stored.name) == len("life-config-") + 12
    assert stored.config == {
        # The unset description went through the API as None, which a string makes "".
        "inputs": [{"name": "who", "description": "", "type": "String", "default": "world"}],
        "outputs": [],
        "options": {"quiet": True},
        "config": "echo hi",
    }
    assert output(context, settings, database, identity) == "echo hi"

    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    assert configs(database) == {}


def test_structured_config_stores_a_map(context, settings, database, queue) -> None:
    resource = {
        "type": "OS::Heat::StructuredConfig",
        "properties": {"config": {"packages": ["nginx"], "port": 80}},
    }
    identity = created(context, settings, database, queue, resource)

    (stored,) = configs(database).values()
    assert (stored.group, stored.config["config"]) == (
        "Heat::Ungrouped",
        {"packages": ["nginx"], "port": 80},
    )
    assert output(context, settings, database, identity) == {"packages": ["nginx"], "port": 80}


def test_cloud_config_stores_cloud_init_yaml(context, settings, database, queue) -> None:
    resource = {
        "type": "OS::Heat::CloudConfig",
        "properties": {"cloud_config": {"runcmd": ["ls"], "packages": ["vim"]}},
    }
    identity = created(context, settings, database, queue, resource)

    expected = "#cloud-config\npackages:\n- vim\nruncmd:\n- ls\n"
    (stored,) = configs(database).values()
    assert (stored.group, stored.config["config"]) == ("Heat::Ungrouped", expected)
    assert output(context, settings, database, identity) == expected


def test_software_component_stores_its_configs(context, settings, database, queue) -> None:
    resource = {
        "type": "OS::Heat::SoftwareComponent",
        "properties": {
            "configs": [
                {"tool": "script", "config": "install"},
                {"tool": "script", "config": "remove", "actions": ["DELETE"]},
            ]
        },
    }
    created(context, settings, database, queue, resource)

    (stored,) = configs(database).values()
    assert stored.group == "component"
    assert stored.config["config"] == {
        "configs": [
            {"actions": ["CREATE", "UPDATE"], "config": "install", "tool": "script"},
            {"actions": ["DELETE"], "config": "remove", "tool": "script"},
        ]
    }


def test_multipart_mime_assembles_parts_and_other_configs(
    context, settings, database, queue
) -> None:
    template = hot(
        {
            "script": {"type": "OS::Heat::SoftwareConfig", "properties": {"config": "echo 1"}},
            "mime": {
                "type": "OS::Heat::MultipartMime",
                "properties": {
                    "group": "boot",
                    "parts": [
                        {"config": {"get_resource": "script"}},
                        {"config": "#!/bin/sh\necho 2", "filename": "two.sh"},
                        {"config": "\u00e9t\u00e9", "subtype": "plain"},
                    ],
                },
            },
        }
    )
    identity = create(context, settings, database, queue, template)
    queue.run_until_idle()

    mime = resource_row(database, identity, "mime")
    stored = configs(database)[mime.physical_resource_id]
    assert stored.group == "boot"
    message = email.message_from_string(stored.config["config"])
    parts = [
        (part.get_content_type(), part.get_filename(), part.get_payload(decode=True).decode())
        for part in message.get_payload()
    ]
    assert parts == [
        ("text/plain", None, "echo 1"),
        # Heat names the subtype after the file name without its extension.
        ("text/two", "two.sh", "#!/bin/sh\necho 2"),
        ("text/plain", None, "\u00e9t\u00e9"),
    ]


def test_a_changed_config_is_replaced(context, settings, database, queue) -> None:
    resource = {"type": "OS::Heat::SoftwareConfig", "properties": {"config": "v1"}}
    identity = created(context, settings, database, queue, resource)
    (first,) = configs(database)

    changed = {"type": "OS::Heat::SoftwareConfig", "properties": {"config": "v2"}}
    update(context, settings, database, queue, identity, hot({"config": changed}))
    queue.run_until_idle()

    (second,) = configs(database).values()
    assert second.id != first
    assert second.config["config"] == "v2"
    assert stack_state(database, identity)[:2] == ("UPDATE", "COMPLETE")


def test_without_heats_api_in_the_catalog_the_types_are_unavailable(
    settings, database, queue
) -> None:
    caller = RequestContext(user_id="user-1", project_id="project-a", roles=["member"])
    resource = {"type": "OS::Heat::SoftwareConfig", "properties": {"config": "x"}}

    with pytest.raises(exception.ResourceTypeUnavailable) as raised:
        create(caller, settings, database, queue, hot({"config": resource}))

    assert str(raised.value) == (
        "HEAT-E99001 Service heat is not available for resource type "
        "OS::Heat::SoftwareConfig, reason: heat cloudformation endpoint is not in service "
        "catalog."
    )
