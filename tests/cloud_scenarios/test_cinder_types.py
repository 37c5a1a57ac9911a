"""The admin's Cinder types against the real Cinder: OS::Cinder::VolumeType,
OS::Cinder::QoSSpecs, OS::Cinder::QoSAssociation and OS::Cinder::EncryptedVolumeType made,
changed in place and deleted, and a volume retyped in place to a type of the stack."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openstack.connection
import openstack.exceptions
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat as heat_as_admin
from tests.cloud_scenarios.conftest import physical_ids, unique, wait_for_stack
from tests.keystone import ALICE, BOB


@pytest.fixture(scope="module")
def admin_heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """python-heatclient as the cloud's admin (the Cinder admin types need one)."""
    with heat_as_admin(cloud, tmp_path_factory.mktemp("cinder-types")) as client:
        yield client


def types_template(names: dict[str, str], specs: dict[str, str], volume_type: str) -> Any:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "fast": {
                "type": "OS::Cinder::VolumeType",
                "properties": {
                    "name": names["fast"],
                    "description": "fast disks",
                    "metadata": {"volume_backend_name": "fake"},
                },
            },
            "slow": {
                "type": "OS::Cinder::VolumeType",
                "properties": {
                    "name": names["slow"],
                    "metadata": {"volume_backend_name": "fake", "keel:speed": "low"},
                },
            },
            "qos": {"type": "OS::Cinder::QoSSpecs", "properties": {"specs": specs}},
            "qos_on_fast": {
                "type": "OS::Cinder::QoSAssociation",
                "properties": {
                    "qos_specs": {"get_resource": "qos"},
                    "volume_types": [{"get_resource": "fast"}],
                },
            },
            "encryption": {
                "type": "OS::Cinder::EncryptedVolumeType",
                "properties": {
                    "volume_type": {"get_resource": "slow"},
                    "provider": "luks",
                    "cipher": "aes-xts-plain64",
                    "key_size": 256,
                },
            },
            "volume": {
                "type": "OS::Cinder::Volume",
                "properties": {"size": 1, "volume_type": {"get_resource": volume_type}},
            },
        },
        "outputs": {"volume_type": {"value": {"get_attr": ["volume", "volume_type"]}}},
    }


def type_is_gone(admin: openstack.connection.Connection, type_id: str) -> bool:
    try:
        admin.block_storage.get_type(type_id)
    except openstack.exceptions.NotFoundException:
        return True
    return False


def test_volume_types_and_qos_specs_are_made_changed_and_deleted(
    admin_heat: Any, admin: openstack.connection.Connection
) -> None:
    names = {"fast": unique("fast"), "slow": unique("slow")}
    template = types_template(names, {"read_iops_sec": "100"}, "fast")
    stack_id = admin_heat.stacks.create(stack_name=unique("cinder-types"), template=template)[
        "stack"
    ]["id"]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason

    ids = physical_ids(admin_heat, stack_id)
    fast = admin.block_storage.get_type(ids["fast"])
    assert (fast.name, fast.description, fast.extra_specs, fast.is_public) == (
        names["fast"],
        "fast disks",
        {"volume_backend_name": "fake"},
        True,
    )
    qos = admin.block_storage.request(f"/qos-specs/{ids['qos']}", "GET").json()["qos_specs"]
    assert qos["specs"] == {"read_iops_sec": "100"}
    assert qos["name"].startswith("cinder-types-") and "-qos-" in qos["name"]
    associated = admin.block_storage.request(f"/qos-specs/{ids['qos']}/associations", "GET")
    assert [found["id"] for found in associated.json()["qos_associations"]] == [ids["fast"]]
    encryption = admin.block_storage.request(f"/types/{ids['slow']}/encryption", "GET").json()
    assert (encryption["provider"], encryption["cipher"], encryption["key_size"]) == (
        "luks",
        "aes-xts-plain64",
        256,
    )
    assert ids["encryption"] == ids["slow"]
    volume = admin.block_storage.get_volume(ids["volume"])
    assert volume.volume_type == names["fast"]

    # Renamed types, new QoS keys, and the volume retyped to the other type, in place.
    names = {"fast": unique("faster"), "slow": names["slow"]}
    template = types_template(names, {"write_iops_sec": "50"}, "slow")
    template["resources"]["encryption"]["properties"]["key_size"] = 512
    del template["resources"]["encryption"]
    admin_heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(admin_heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    after = physical_ids(admin_heat, stack_id)
    assert {name: after[name] for name in ("fast", "slow", "qos", "volume")} == {
        name: ids[name] for name in ("fast", "slow", "qos", "volume")
    }
    assert admin.block_storage.get_type(ids["fast"]).name == names["fast"]
    qos = admin.block_storage.request(f"/qos-specs/{ids['qos']}", "GET").json()["qos_specs"]
    assert qos["specs"] == {"write_iops_sec": "50"}
    encryption = admin.block_storage.request(f"/types/{ids['slow']}/encryption", "GET").json()
    assert encryption == {}
    volume = admin.block_storage.get_volume(ids["volume"])
    assert (volume.volume_type, volume.status) == (names["slow"], "available")
    assert {o["output_key"]: o["output_value"] for o in stack.outputs} == {
        "volume_type": names["slow"]
    }

    admin_heat.stacks.delete(stack_id)
    stack = wait_for_stack(admin_heat, stack_id, "DELETE")
    assert stack is None or stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    assert type_is_gone(admin, ids["fast"]) and type_is_gone(admin, ids["slow"])
    gone = admin.block_storage.request(f"/qos-specs/{ids['qos']}", "GET", raise_exc=False)
    assert gone.status_code == 404


def test_a_private_type_is_shared_with_the_projects_named(
    admin_heat: Any, admin: openstack.connection.Connection, cloud: Cloud
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "private": {
                "type": "OS::Cinder::VolumeType",
                "properties": {
                    "name": unique("private"),
                    "is_public": False,
                    "projects": ["project-a"],
                },
            }
        },
    }
    stack_id = admin_heat.stacks.create(stack_name=unique("cinder-private"), template=template)[
        "stack"
    ]["id"]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    type_id = physical_ids(admin_heat, stack_id)["private"]
    access = admin.block_storage.request(f"/types/{type_id}/os-volume-type-access", "GET")
    assert [found["project_id"] for found in access.json()["volume_type_access"]] == [
        cloud.project_id(ALICE)
    ]

    template["resources"]["private"]["properties"]["projects"] = ["project-b"]
    admin_heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(admin_heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    access = admin.block_storage.request(f"/types/{type_id}/os-volume-type-access", "GET")
    assert [found["project_id"] for found in access.json()["volume_type_access"]] == [
        cloud.project_id(BOB)
    ]

    admin_heat.stacks.delete(stack_id)
    wait_for_stack(admin_heat, stack_id, "DELETE")
    assert type_is_gone(admin, type_id)


def test_qos_specs_cinder_does_not_know_are_refused_with_cinderclients_message(
    admin_heat: Any,
) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "association": {
                "type": "OS::Cinder::QoSAssociation",
                "properties": {"qos_specs": "no-such-qos", "volume_types": ["__DEFAULT__"]},
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        admin_heat.stacks.create(stack_name=unique("qos-missing"), template=template)
    assert refused.value.error["error"]["message"] == (
        "Property error: : resources.association.properties.qos_specs: : Error validating "
        "value 'no-such-qos': No QoSSpecs matching {'name': 'no-such-qos'}. (HTTP 404)"
    )
