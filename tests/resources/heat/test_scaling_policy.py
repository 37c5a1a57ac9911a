"""Scaling policies through the engine: what a signal does to the group they name, their
attributes without Keystone, their checks, and the CloudFormation policy."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.common import exception
from keel_app.engine.service import signals
from tests.engine.convergence.nested import NestedEngine

MEMBER = {"type": "OS::Heat::None"}


def template(policy: dict[str, Any], policy_type: str = "OS::Heat::ScalingPolicy") -> dict:
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {
                "type": "OS::Heat::AutoScalingGroup",
                "properties": {"min_size": 1, "max_size": 6, "resource": MEMBER},
            },
            "policy": {"type": policy_type, "properties": policy},
        },
        "outputs": {
            "alarm_url": {"value": {"get_attr": ["policy", "alarm_url"]}},
            "signal_url": {"value": {"get_attr": ["policy", "signal_url"]}},
            "reference": {"value": {"get_resource": "policy"}},
        },
    }


def scale_by(adjustment: Any, **properties: Any) -> dict[str, Any]:
    return {
        "auto_scaling_group_id": {"get_resource": "group"},
        "adjustment_type": "change_in_capacity",
        "scaling_adjustment": adjustment,
        **properties,
    }


def signal(
    nested: NestedEngine, identity: dict[str, str], details: Any = None, sync: bool = False
) -> None:
    signals.resource_signal(
        nested.context,
        nested.settings,
        nested.database,
        nested.queue,
        stack_identity=identity,
        resource_name="policy",
        details=details,
        sync_call=sync,
    )
    nested.queue.run_until_idle()


def size(nested: NestedEngine, identity: dict[str, str]) -> int:
    return len(nested.resources(nested.child(identity["stack_id"]).id))


def test_without_keystone_the_urls_are_none(nested: NestedEngine) -> None:
    identity = nested.create(template(scale_by(1)))

    assert nested.outputs(identity) == {
        "alarm_url": None,
        "signal_url": None,
        "reference": "policy",
    }
    policy = nested.resources(identity["stack_id"])["policy"]
    assert (policy.action, policy.status, policy.physical_resource_id) == (
        "CREATE",
        "COMPLETE",
        None,
    )


def test_an_alarm_adjusts_the_group_and_is_recorded(nested: NestedEngine) -> None:
    identity = nested.create(template(scale_by(2)))
    alarm = {"previous": "ok", "current": "alarm", "reason": "cpu high"}

    signal(nested, identity, alarm)

    assert size(nested, identity) == 3
    assert nested.reasons(identity["stack_id"], "policy")[-1] == (
        "alarm state changed from ok to alarm (cpu high)"
    )


def test_a_negative_adjustment_stops_at_the_minimum(nested: NestedEngine) -> None:
    identity = nested.create(template(scale_by(-3)))

    # Already at the minimum: nothing to do, nothing recorded.
    events_before = nested.events(identity["stack_id"])
    signal(nested, identity)

    assert size(nested, identity) == 1
    assert nested.events(identity["stack_id"]) == events_before


def test_the_policys_cooldown_wins_over_the_groups(nested: NestedEngine) -> None:
    identity = nested.create(template(scale_by(1, cooldown=600)))

    signal(nested, identity)
    signal(nested, identity)

    assert size(nested, identity) == 2
    group = nested.resources(identity["stack_id"])["group"]
    ((_end, reason),) = group.rsrc_metadata["cooldown_end"].items()
    assert reason == "change_in_capacity : 1"


def test_an_updated_adjustment_is_used_by_later_signals(nested: NestedEngine) -> None:
    identity = nested.create(template(scale_by(1)))
    policy_id = nested.resources(identity["stack_id"])["policy"].id

    nested.update(identity, template(scale_by(3)))
    signal(nested, identity)

    policy = nested.resources(identity["stack_id"])["policy"]
    assert (policy.id, policy.action, policy.status) == (policy_id, "UPDATE", "COMPLETE")
    assert size(nested, identity) == 4


def test_a_policy_whose_group_is_gone_fails_the_signal(nested: NestedEngine) -> None:
    policy = scale_by(1)
    policy["auto_scaling_group_id"] = "nope"
    identity = nested.create(template(policy))

    with pytest.raises(exception.ResourceFailure) as raised:
        signal(nested, identity, sync=True)

    assert str(raised.value) == (
        'NotFound: resources.policy: Alarm policy could not find scaling group named "nope"'
    )


def test_a_minimum_step_needs_a_percentage(nested: NestedEngine) -> None:
    with pytest.raises(exception.ResourcePropertyValueDependency) as raised:
        nested.create(template(scale_by(1, min_adjustment_step=1)))

    assert str(raised.value) == (
        "min_adjustment_step property should only be specified for adjustment_type with "
        "value percent_change_in_capacity."
    )


def test_an_unknown_adjustment_type_is_refused(nested: NestedEngine) -> None:
    policy = scale_by(1)
    policy["adjustment_type"] = "double"

    with pytest.raises(exception.StackValidationFailed) as raised:
        nested.create(template(policy))

    assert str(raised.value) == (
        'Property error: resources.policy.properties.adjustment_type: "double" is not an '
        'allowed value ["change_in_capacity", "exact_capacity", "percent_change_in_capacity"]'
    )


def test_the_cloudformation_policy_adjusts_the_group_too(nested: NestedEngine) -> None:
    policy = {
        "AutoScalingGroupName": {"get_resource": "group"},
        "AdjustmentType": "ExactCapacity",
        "ScalingAdjustment": 5,
    }
    heat_template = template(policy, "AWS::AutoScaling::ScalingPolicy")
    heat_template["outputs"] = {
        "alarm_url": {"value": {"get_attr": ["policy", "AlarmUrl"]}},
        "reference": {"value": {"get_resource": "policy"}},
    }
    identity = nested.create(heat_template)

    signal(nested, identity)

    assert size(nested, identity) == 5
    assert nested.outputs(identity) == {"alarm_url": None, "reference": "policy"}
    group = nested.resources(identity["stack_id"])["group"]
    assert group.rsrc_metadata["scaling_in_progress"] is True
