"""OS::Neutron::Quota, OS::Neutron::MeteringLabel and OS::Neutron::MeteringRule against the
real Neutron, as the cloud's admin (Neutron's policy keeps quotas and metering to admins).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openstack
import openstack.connection
import pytest
from heatclient.exc import HTTPBadRequest

from tests.cloud import Cloud
from tests.cloud_scenarios.admin import admin_heat as heat_as_admin
from tests.cloud_scenarios.conftest import (
    delete_stack,
    outputs,
    physical_ids,
    unique,
    wait_for_stack,
)
from tests.keystone import ADMIN

NEUTRON_LIMITS = (
    "floatingip", "network", "port", "rbac_policy", "router", "security_group",
    "security_group_rule", "subnet", "subnetpool",
)  # fmt: skip


@pytest.fixture(scope="module")
def admin_heat(cloud: Cloud, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with heat_as_admin(cloud, tmp_path_factory.mktemp("neutron-admin")) as client:
        yield client


@pytest.fixture
def project(admin: openstack.connection.Connection) -> Iterator[Any]:
    made = admin.identity.create_project(name=unique("neutron-quota"), domain_id="default")
    try:
        yield made
    finally:
        for network in admin.network.networks(project_id=made.id):
            admin.network.delete_network(network)
        admin.network.delete(f"/quotas/{made.id}")
        admin.identity.delete_project(made)


def quotas(admin: openstack.connection.Connection, project_id: str) -> dict[str, int]:
    answer = admin.network.get(f"/quotas/{project_id}").json()["quota"]
    return {key: answer[key] for key in NEUTRON_LIMITS}


def quota_template(project: str, **limits: int) -> dict[str, Any]:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "quota": {"type": "OS::Neutron::Quota", "properties": {"project": project, **limits}}
        },
    }


def test_a_projects_neutron_quotas_are_set_changed_in_place_and_given_back(
    admin_heat: Any, admin: openstack.connection.Connection, project: Any
) -> None:
    defaults = quotas(admin, project.id)
    template = quota_template(project.name, network=5, port=20, subnetpool=2)
    stack_id = admin_heat.stacks.create(stack_name=unique("neutron-quota"), template=template)[
        "stack"
    ]["id"]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert quotas(admin, project.id) == {**defaults, "network": 5, "port": 20, "subnetpool": 2}

    template = quota_template(project.id, network=-1, router=3)
    admin_heat.stacks.update(stack_id, template=template)
    stack = wait_for_stack(admin_heat, stack_id, "UPDATE")
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    # What the template no longer names keeps the value it was given.
    assert quotas(admin, project.id) == {
        **defaults,
        "network": -1,
        "port": 20,
        "subnetpool": 2,
        "router": 3,
    }

    # The project's own quota goes (Heat deletes its physical name's, and the limits stay:
    # docs/divergences.md).
    delete_stack(admin_heat, stack_id)
    assert quotas(admin, project.id) == defaults


def test_a_neutron_quota_below_the_usage_fails_the_create(
    admin_heat: Any, admin: openstack.connection.Connection, project: Any
) -> None:
    admin.network.create_network(name=unique("used"), project_id=project.id)
    defaults = quotas(admin, project.id)

    template = quota_template(project.id, network=0)
    stack_id = admin_heat.stacks.create(stack_name=unique("neutron-quota-low"), template=template)[
        "stack"
    ]["id"]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_FAILED"
    # Neutron's own refusal, as neutronclient's BadRequest words it (with its request id).
    assert stack.stack_status_reason.startswith(
        "Resource CREATE failed: BadRequest: resources.quota: Quota limit 0 for network must "
        "be greater than or equal to already used 1\n"
        "Neutron server returns request_ids: ['req-"
    )
    assert quotas(admin, project.id) == defaults
    delete_stack(admin_heat, stack_id)


def test_a_neutron_quota_without_a_limit_is_refused(admin_heat: Any) -> None:
    with pytest.raises(HTTPBadRequest) as refused:
        admin_heat.stacks.create(
            stack_name=unique("neutron-quota-empty"), template=quota_template(ADMIN.project_name)
        )
    assert refused.value.error["error"]["message"] == (
        "At least one of the following properties must be specified: floatingip, network, "
        "port, rbac_policy, router, security_group, security_group_rule, subnet, subnetpool."
    )


def label_rules(admin: openstack.connection.Connection, label_id: str) -> list[dict[str, Any]]:
    # Neutron's own answer: openstacksdk warns of remote_ip_prefix, which Heat still sets.
    answer = admin.network.get(
        "/metering/metering-label-rules", params={"metering_label_id": label_id}
    )
    return list(answer.json()["metering_label_rules"])


METERING_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "parameters": {"name": {"type": "string"}},
    "resources": {
        "label": {
            "type": "OS::Neutron::MeteringLabel",
            "properties": {
                "name": {"get_param": "name"},
                "description": "traffic to the outside",
                "shared": True,
            },
        },
        "rule": {
            "type": "OS::Neutron::MeteringRule",
            "properties": {
                "metering_label_id": {"get_resource": "label"},
                "remote_ip_prefix": "203.0.113.0/24",
                "direction": "egress",
                "excluded": True,
            },
        },
        "default_rule": {
            "type": "OS::Neutron::MeteringRule",
            "properties": {
                "metering_label_id": {"get_resource": "label"},
                "remote_ip_prefix": "192.0.2.0/24",
            },
        },
    },
    "outputs": {
        "label": {
            "value": {
                "name": {"get_attr": ["label", "name"]},
                "description": {"get_attr": ["label", "description"]},
                "shared": {"get_attr": ["label", "shared"]},
            }
        },
        "rule": {
            "value": {
                "direction": {"get_attr": ["rule", "direction"]},
                "excluded": {"get_attr": ["rule", "excluded"]},
                "metering_label_id": {"get_attr": ["rule", "metering_label_id"]},
                "remote_ip_prefix": {"get_attr": ["rule", "remote_ip_prefix"]},
            }
        },
    },
}


def test_a_metering_label_counts_under_its_rules_and_goes_with_them(
    admin_heat: Any, admin: openstack.connection.Connection
) -> None:
    name = unique("metering")
    stack_id = admin_heat.stacks.create(
        stack_name=name, template=METERING_TEMPLATE, parameters={"name": name}
    )["stack"]["id"]
    stack = wait_for_stack(admin_heat, stack_id, "CREATE")
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    made = physical_ids(admin_heat, stack_id)

    label = admin.network.get_metering_label(made["label"])
    assert (label.name, label.description, label.is_shared) == (
        name,
        "traffic to the outside",
        True,
    )
    rules = {
        rule["id"]: (rule["direction"], rule["excluded"], rule["remote_ip_prefix"])
        for rule in label_rules(admin, label.id)
    }
    assert rules == {
        made["rule"]: ("egress", True, "203.0.113.0/24"),
        made["default_rule"]: ("ingress", False, "192.0.2.0/24"),
    }
    assert outputs(stack) == {
        "label": {"name": name, "description": "traffic to the outside", "shared": True},
        "rule": {
            "direction": "egress",
            "excluded": True,
            "metering_label_id": label.id,
            "remote_ip_prefix": "203.0.113.0/24",
        },
    }

    delete_stack(admin_heat, stack_id)
    assert admin.network.find_metering_label(label.id) is None
    assert label_rules(admin, label.id) == []


def test_a_metering_rule_in_no_known_direction_is_refused(admin_heat: Any) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "rule": {
                "type": "OS::Neutron::MeteringRule",
                "properties": {
                    "metering_label_id": "anything",
                    "remote_ip_prefix": "192.0.2.0/24",
                    "direction": "sideways",
                },
            }
        },
    }
    with pytest.raises(HTTPBadRequest) as refused:
        admin_heat.stacks.create(stack_name=unique("metering-refused"), template=template)
    assert refused.value.error["error"]["message"] == (
        "Property error: : resources.rule.properties.direction: : "
        '"sideways" is not an allowed value ["ingress", "egress"]'
    )
