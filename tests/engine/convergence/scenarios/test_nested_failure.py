"""Scenario: a nested stack fails; its reason becomes the owning resource's and the
parent's, with the resource's path prefixed, as Heat words it. And the limits Heat puts
on nesting: depth, and resources per stack."""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import pytest

from keel_app.common.exception import StackValidationFailed
from tests import oracle
from tests.engine.convergence.nested import NestedEngine, nested_engine

FAILING_GROUP: dict[str, Any] = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "first": {"type": "OS::Heat::None"},
        "group": {
            "type": "OS::Heat::ResourceGroup",
            "depends_on": ["first"],
            "properties": {
                "count": 1,
                "resource_def": {"type": "OS::Heat::TestResource", "properties": {"fail": True}},
            },
        },
    },
}
CHILD_REASON = "ValueError: resources[0]: Test Resource failed 0"
REASON = "ValueError: resources.group.resources[0]: Test Resource failed 0"


@pytest.fixture
def nested(empty_database_url: str) -> Iterator[NestedEngine]:
    yield from nested_engine(empty_database_url, max_nested_stack_depth=2)


def test_a_failed_child_fails_the_resource_and_the_stack(nested: NestedEngine) -> None:
    identity = nested.create(FAILING_GROUP, disable_rollback=True)

    parent = nested.stack(identity["stack_id"])
    child = nested.child(parent.id)
    assert (child.action, child.status, child.status_reason) == (
        "CREATE",
        "FAILED",
        f"Resource CREATE failed: {CHILD_REASON}",
    )
    group = nested.resources(parent.id)["group"]
    assert (group.action, group.status, group.status_reason) == ("CREATE", "FAILED", REASON)
    assert (parent.action, parent.status, parent.status_reason) == (
        "CREATE",
        "FAILED",
        f"Resource CREATE failed: {REASON}",
    )


def test_with_rollback_the_child_is_deleted(nested: NestedEngine) -> None:
    identity = nested.create(FAILING_GROUP, disable_rollback=False)

    parent = nested.stack(identity["stack_id"])
    child = nested.child(parent.id)
    assert (parent.action, parent.status) == ("ROLLBACK", "COMPLETE")
    assert (child.action, child.status, child.deleted_at is not None) == (
        "DELETE",
        "COMPLETE",
        True,
    )
    assert nested.resources(parent.id) == {}


def test_a_failed_update_of_the_child_fails_the_update(nested: NestedEngine) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": 1, "resource_def": {"type": "OS::Heat::None"}},
            }
        },
    }
    identity = nested.create(template)
    template["resources"]["group"]["properties"]["count"] = 2
    template["resources"]["group"]["properties"]["resource_def"] = {
        "type": "OS::Heat::TestResource",
        "properties": {"fail": True},
    }

    nested.update(identity, template)

    parent = nested.stack(identity["stack_id"])
    child = nested.child(parent.id)
    # The member is replaced: its replacement fails on create within the child's update.
    assert (child.action, child.status) == ("UPDATE", "FAILED")
    assert child.status_reason.startswith("Resource CREATE failed: ValueError: resources[")
    group = nested.resources(parent.id)["group"]
    assert (group.action, group.status) == ("UPDATE", "FAILED")
    assert group.status_reason == f"resources.group: {child.status_reason}"
    assert parent.status_reason == f"Resource UPDATE failed: {group.status_reason}"


LEVEL = "heat_template_version: 2018-08-31\nresources:\n  down: {type: level%d.yaml}\n"
DEEP_FILES = {
    "level1.yaml": LEVEL % 2,
    "level2.yaml": LEVEL % 3,
    "level3.yaml": "heat_template_version: 2018-08-31\n",
}
DEEP_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"top": {"type": "level1.yaml"}},
}
HEAT_DEPTH_CHECK = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.common import config, context
from heat.engine import environment, resources, stack, template
cfg.CONF.set_override("max_nested_stack_depth", 2)
resources.initialise()
request = json.loads(sys.argv[1])
tmpl = template.Template(
    request["template"], files=request["files"], env=environment.Environment({})
)
try:
    stack.Stack(context.RequestContext(project_id="p", is_admin=True), "web", tmpl).validate()
except Exception as error:
    print(json.dumps([type(error).__name__, str(error)]))
"""


@functools.cache
def _heats_depth_error() -> list[str]:
    request = json.dumps({"template": DEEP_TEMPLATE, "files": DEEP_FILES})
    return oracle.run_json(HEAT_DEPTH_CHECK, request)  # type: ignore[no-any-return]


def test_nesting_deeper_than_the_limit_fails_validation(nested: NestedEngine) -> None:
    with pytest.raises(StackValidationFailed) as raised:
        nested.create(DEEP_TEMPLATE, files=DEEP_FILES)

    assert str(raised.value) == (
        "RequestLimitExceeded: resources.top<level1.yaml>.resources.down<level2.yaml>"
        ".resources.down<level3.yaml>: Request limit exceeded: Recursion depth exceeds 2."
    )
    assert nested.stack_names() == []


@pytest.mark.oracle
def test_the_depth_error_is_heats(nested: NestedEngine) -> None:
    with pytest.raises(StackValidationFailed) as raised:
        nested.create(DEEP_TEMPLATE, files=DEEP_FILES)

    assert [type(raised.value).__name__, str(raised.value)] == _heats_depth_error()


@pytest.fixture
def limited(empty_database_url: str) -> Iterator[NestedEngine]:
    yield from nested_engine(empty_database_url, max_resources_per_stack=3)


def test_a_group_larger_than_the_resource_limit_fails(limited: NestedEngine) -> None:
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": 4, "resource_def": {"type": "OS::Heat::None"}},
            }
        },
    }

    identity = limited.create(template, disable_rollback=True)

    group = limited.resources(identity["stack_id"])["group"]
    assert (group.action, group.status, group.status_reason) == (
        "CREATE",
        "FAILED",
        "resources.group: Request limit exceeded: Maximum resources per stack exceeded.",
    )
    assert limited.children(identity["stack_id"]) == []


def test_a_rollback_takes_the_child_back_to_its_old_template(nested: NestedEngine) -> None:
    def group(count: int, member: dict[str, Any]) -> dict[str, Any]:
        properties = {"count": count, "resource_def": member}
        return {
            "heat_template_version": "2018-08-31",
            "resources": {"group": {"type": "OS::Heat::ResourceGroup", "properties": properties}},
        }

    value = {"type": "OS::Heat::Value", "properties": {"value": "a"}}
    identity = nested.create(group(1, value), disable_rollback=False)
    child_id = nested.child(identity["stack_id"]).id
    kept = nested.resources(child_id)["0"]

    failing = {"type": "OS::Heat::TestResource", "properties": {"fail": True}}
    nested.update(identity, group(2, failing))

    parent = nested.stack(identity["stack_id"])
    assert (parent.action, parent.status) == ("ROLLBACK", "COMPLETE")
    child = nested.stack(child_id)
    assert (child.action, child.status) == ("UPDATE", "COMPLETE")
    members = nested.resources(child_id)
    assert {name: (row.id, row.action, row.status) for name, row in members.items()} == {
        "0": (kept.id, "CREATE", "COMPLETE")
    }
    assert nested.states(parent.id) == {"group": ("UPDATE", "COMPLETE")}
