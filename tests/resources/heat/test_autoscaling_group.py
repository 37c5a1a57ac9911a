"""OS::Heat::AutoScalingGroup through the engine: created at its desired size, resized by
its scaling policies' signals within its bounds and cooldown, its members replaced in
batches on update, deleted; its attributes read from the nested stack's outputs."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest

from keel_app.engine import notification
from keel_app.engine.service import resource_state, resources, signals
from keel_app.models.base import utcnow
from tests.engine.convergence.nested import NestedEngine

MEMBER = {"type": "OS::Heat::Value", "properties": {"value": "one"}}


def group_template(
    member: dict[str, Any] | None = None,
    policy: dict[str, Any] | None = None,
    **properties: Any,
) -> dict[str, Any]:
    group_properties: dict[str, Any] = {"min_size": 1, "max_size": 5, "resource": MEMBER}
    group_properties.update(properties)
    if member is not None:
        group_properties["resource"] = member
    resources: dict[str, Any] = {
        "group": {"type": "OS::Heat::AutoScalingGroup", "properties": group_properties}
    }
    if policy is not None:
        resources["policy"] = {
            "type": "OS::Heat::ScalingPolicy",
            "properties": {"auto_scaling_group_id": {"get_resource": "group"}, **policy},
        }
    return {
        "heat_template_version": "2018-08-31",
        "resources": resources,
        "outputs": {
            "size": {"value": {"get_attr": ["group", "current_size"]}},
            "refs": {"value": {"get_attr": ["group", "refs"]}},
            "refs_map": {"value": {"get_attr": ["group", "refs_map"]}},
            "values": {"value": {"get_attr": ["group", "outputs_list", "value"]}},
            "by_name": {"value": {"get_attr": ["group", "outputs", "value"]}},
            "first": {"value": {"get_attr": ["group", "resource.0"]}},
            "first_value": {"value": {"get_attr": ["group", "resource.0.value"]}},
        },
    }


def members(nested: NestedEngine, identity: dict[str, str]) -> dict[str, Any]:
    return nested.resources(nested.child(identity["stack_id"]).id)


def group_row(nested: NestedEngine, identity: dict[str, str]) -> Any:
    return nested.resources(identity["stack_id"])["group"]


def signal(
    nested: NestedEngine, identity: dict[str, str], name: str = "policy", run: bool = True
) -> None:
    signals.resource_signal(
        nested.context,
        nested.settings,
        nested.database,
        nested.queue,
        stack_identity=identity,
        resource_name=name,
        details=None,
    )
    if run:
        nested.queue.run_until_idle()


def shown_metadata(nested: NestedEngine, identity: dict[str, str]) -> Any:
    shown = resources.describe_stack_resource(
        nested.context,
        nested.settings,
        nested.database,
        nested.queue,
        stack_identity=identity,
        resource_name="group",
    )
    return shown["metadata"]


def cooldown_end(metadata: dict[str, Any]) -> tuple[datetime.datetime, str]:
    ((end, reason),) = metadata["cooldown_end"].items()
    return datetime.datetime.fromisoformat(end), reason


def test_the_group_starts_at_its_desired_size(nested: NestedEngine) -> None:
    before = utcnow()

    identity = nested.create(group_template(desired_capacity=3, cooldown=60))

    rows = members(nested, identity)
    assert len(rows) == 3
    assert all(len(name) == 12 and name.islower() for name in rows)
    assert {(row.action, row.status) for row in rows.values()} == {("CREATE", "COMPLETE")}
    group = group_row(nested, identity)
    assert (group.action, group.status) == ("CREATE", "COMPLETE")
    end, reason = cooldown_end(group.rsrc_metadata)
    assert reason == "ExactCapacity : 3"
    assert before + datetime.timedelta(seconds=60) <= end <= utcnow() + datetime.timedelta(60)
    assert group.rsrc_metadata["scaling_in_progress"] is False


def test_without_a_desired_size_the_group_starts_at_its_minimum(nested: NestedEngine) -> None:
    identity = nested.create(group_template(min_size=2))

    assert len(members(nested, identity)) == 2
    assert nested.outputs(identity)["size"] == 2


def test_the_attributes_come_from_the_members(nested: NestedEngine) -> None:
    member = {"type": "OS::Heat::RandomString", "properties": {"length": 8}}
    template = group_template(member, desired_capacity=2)
    template["outputs"]["values"] = {"value": {"get_attr": ["group", "outputs_list", "value"]}}

    identity = nested.create(template)

    rows = members(nested, identity)
    outputs = nested.outputs(identity)
    assert outputs["size"] == 2
    assert set(outputs["by_name"]) == set(rows)
    assert all(len(value) == 8 for value in outputs["by_name"].values())
    # A random string's reference is its value.
    assert outputs["refs_map"] == outputs["by_name"]
    assert (
        sorted(outputs["refs"]) == sorted(outputs["values"]) == sorted(outputs["by_name"].values())
    )
    assert outputs["first"] in outputs["refs"]
    assert outputs["first_value"] == outputs["first"]


def test_the_nested_stack_maps_scaled_resources_to_instances(nested: NestedEngine) -> None:
    identity = nested.create(group_template())

    environment = nested.environment(nested.child(identity["stack_id"]).id)
    assert environment["resource_registry"] == {
        "OS::Heat::ScaledResource": "AWS::EC2::Instance",
        "resources": {},
    }


@pytest.mark.parametrize(
    ("properties", "reason"),
    [
        ({"min_size": 3, "max_size": 2}, "MinSize can not be greater than MaxSize"),
        ({"desired_capacity": 9}, "DesiredCapacity must be between MinSize and MaxSize"),
        ({"desired_capacity": 0}, "DesiredCapacity must be between MinSize and MaxSize"),
    ],
)
def test_sizes_out_of_bounds_are_refused(
    nested: NestedEngine, properties: dict[str, Any], reason: str
) -> None:
    from keel_app.common.exception import StackValidationFailed

    with pytest.raises(StackValidationFailed) as raised:
        nested.create(group_template(**properties))

    assert str(raised.value) == reason


def test_a_signal_grows_the_group_and_starts_the_cooldown(nested: NestedEngine) -> None:
    policy = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 2, "cooldown": 600}
    identity = nested.create(group_template(policy=policy, desired_capacity=1))
    first = set(members(nested, identity))

    signal(nested, identity)

    after = members(nested, identity)
    assert len(after) == 3 and first < set(after)
    assert nested.outputs(identity)["size"] == 3
    child = nested.stack(nested.child(identity["stack_id"]).id)
    assert (child.action, child.status) == ("UPDATE", "COMPLETE")
    group = group_row(nested, identity)
    # The resize is recorded as done when the group is next looked at for scaling.
    assert group.rsrc_metadata["scaling_in_progress"] is True
    assert nested.reasons(identity["stack_id"], "policy")[-1] == "No signal details provided"

    # A second signal finds the group in its cooldown: nothing changes, no event.
    events_before = nested.events(identity["stack_id"])
    signal(nested, identity)

    assert len(members(nested, identity)) == 3
    assert nested.events(identity["stack_id"]) == events_before
    group = group_row(nested, identity)
    end, reason = cooldown_end(group.rsrc_metadata)
    assert reason == "change_in_capacity : 2"
    assert end > utcnow() + datetime.timedelta(seconds=590)
    assert group.rsrc_metadata["scaling_in_progress"] is False


def test_the_api_shows_the_end_of_a_resize_as_heat_records_it(nested: NestedEngine) -> None:
    policy = {"adjustment_type": "exact_capacity", "scaling_adjustment": 4, "cooldown": 60}
    identity = nested.create(group_template(policy=policy))
    signal(nested, identity)

    before = utcnow()
    metadata = shown_metadata(nested, identity)

    end, reason = cooldown_end(metadata)
    assert (reason, metadata["scaling_in_progress"]) == ("exact_capacity : 4", False)
    # The cooldown runs from when the nested stack finished, not from when it was read.
    assert end <= before + datetime.timedelta(seconds=60)
    assert group_row(nested, identity).rsrc_metadata == metadata


def test_a_refused_signal_gives_heats_reason(nested: NestedEngine, caplog: Any) -> None:
    policy = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 1, "cooldown": 600}
    identity = nested.create(group_template(policy=policy))
    signal(nested, identity)

    with caplog.at_level("INFO"):
        signal(nested, identity)

    assert "Can not perform scaling action: resource group is in cooldown (600)." in (
        caplog.messages
    )


def test_a_signal_during_a_resize_is_refused(nested: NestedEngine, caplog: Any) -> None:
    policy = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 1}
    identity = nested.create(group_template(policy=policy))

    signal(nested, identity, run=False)
    with caplog.at_level("INFO"):
        signal(nested, identity, run=False)
    nested.queue.run_until_idle()

    assert len(members(nested, identity)) == 2
    assert "Can not perform scaling action: resource group is already in scaling." in (
        caplog.messages
    )
    assert nested.reasons(identity["stack_id"], "policy") == [
        "state changed",
        "state changed",
        "No signal details provided",
    ]


def test_marking_the_group_healthy_ends_a_stuck_scaling(nested: NestedEngine) -> None:
    policy = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 1}
    identity = nested.create(group_template(policy=policy))
    signal(nested, identity, run=False)

    for unhealthy in (True, False):
        resource_state.resource_mark_unhealthy(
            nested.context,
            nested.settings,
            nested.database,
            nested.queue,
            stack_identity=identity,
            resource_name="group",
            mark_unhealthy=unhealthy,
        )

    group = group_row(nested, identity)
    assert (group.action, group.status) == ("CHECK", "COMPLETE")
    assert group.rsrc_metadata["scaling_in_progress"] is False


def test_without_cooldown_signals_follow_each_other(nested: NestedEngine) -> None:
    policy = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 1}
    identity = nested.create(group_template(policy=policy))

    signal(nested, identity)
    signal(nested, identity)
    signal(nested, identity)

    assert len(members(nested, identity)) == 4
    metadata = group_row(nested, identity).rsrc_metadata
    assert metadata["scaling_in_progress"] is True
    assert cooldown_end(metadata)[1] == "change_in_capacity : 1"


def test_the_group_never_grows_past_its_maximum(nested: NestedEngine) -> None:
    policy = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 10}
    identity = nested.create(group_template(policy=policy, max_size=4))

    signal(nested, identity)

    assert len(members(nested, identity)) == 4
    # At the maximum a further signal changes nothing and is not recorded.
    events_before = nested.events(identity["stack_id"])
    signal(nested, identity)
    assert nested.events(identity["stack_id"]) == events_before


def test_shrinking_removes_the_oldest_members(nested: NestedEngine) -> None:
    grow = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 2}
    identity = nested.create(group_template(policy=grow, desired_capacity=1, min_size=1))
    signal(nested, identity)
    rows = members(nested, identity).values()
    # Heat orders members by their creation time as the API shows it (whole seconds),
    # then by name.
    by_age = sorted(rows, key=lambda row: (row.created_at.replace(microsecond=0), row.name))

    shrink = {"adjustment_type": "exact_capacity", "scaling_adjustment": 2}
    nested.update(identity, group_template(policy=shrink, min_size=1))
    signal(nested, identity)

    assert set(members(nested, identity)) == {row.name for row in by_age[1:]}


def test_exact_capacity_is_kept_within_the_minimum(nested: NestedEngine) -> None:
    policy = {"adjustment_type": "exact_capacity", "scaling_adjustment": 0}
    identity = nested.create(group_template(policy=policy, desired_capacity=3, min_size=2))

    signal(nested, identity)

    assert len(members(nested, identity)) == 2


def test_percent_change_with_a_minimum_step(nested: NestedEngine) -> None:
    policy = {
        "adjustment_type": "percent_change_in_capacity",
        "scaling_adjustment": 10,
        "min_adjustment_step": 2,
    }
    identity = nested.create(group_template(policy=policy, desired_capacity=2))

    signal(nested, identity)

    assert len(members(nested, identity)) == 4


def test_an_update_resizes_to_the_new_desired_size(nested: NestedEngine) -> None:
    identity = nested.create(group_template(desired_capacity=2))
    kept = set(members(nested, identity))

    nested.update(identity, group_template(desired_capacity=4))

    after = members(nested, identity)
    assert len(after) == 4 and kept < set(after)
    group = group_row(nested, identity)
    assert (group.action, group.status) == ("UPDATE", "COMPLETE")
    assert cooldown_end(group.rsrc_metadata)[1] == "ExactCapacity : 4"


def test_an_update_without_desired_size_keeps_the_size_within_bounds(
    nested: NestedEngine,
) -> None:
    identity = nested.create(group_template(desired_capacity=4))

    nested.update(identity, group_template(max_size=3))

    assert len(members(nested, identity)) == 3


def test_a_new_member_definition_replaces_members_in_batches(nested: NestedEngine) -> None:
    rolling = {"max_batch_size": 2, "pause_time": 30}
    identity = nested.create(group_template(desired_capacity=3, rolling_updates=rolling))
    child_id = nested.child(identity["stack_id"]).id
    names = set(members(nested, identity))
    since = len(nested.events(child_id))
    started = nested.queue.now()

    member = {"type": "OS::Heat::Value", "properties": {"value": "two"}}
    nested.update(identity, group_template(member, desired_capacity=3, rolling_updates=rolling))

    assert set(members(nested, identity)) == names
    assert sorted(nested.outputs(identity)["values"]) == ["two", "two", "two"]
    child_name = nested.stack(child_id).name
    child_updates = [event for event in nested.events(child_id)[since:] if event[0] == child_name]
    # Two batches (two members, then one), then the resize to the desired size.
    assert len(child_updates) == 6
    batches = []
    for name, action, status in nested.events(child_id)[since:]:
        if name == child_name and status == "IN_PROGRESS":
            batches.append(set())
        elif name in names and (action, status) == ("UPDATE", "COMPLETE"):
            batches[-1].add(name)
    assert [len(batch) for batch in batches] == [2, 1, 0]
    assert nested.queue.now() - started >= 30


def test_an_update_keeps_the_minimum_in_service(nested: NestedEngine) -> None:
    rolling = {"max_batch_size": 1, "min_in_service": 2}
    identity = nested.create(group_template(desired_capacity=2, rolling_updates=rolling))
    child_id = nested.child(identity["stack_id"]).id
    names = set(members(nested, identity))
    since = len(nested.events(child_id))

    member = {"type": "OS::Heat::Value", "properties": {"value": "two"}}
    nested.update(identity, group_template(member, desired_capacity=2, rolling_updates=rolling))

    created = [
        name
        for name, action, status in nested.events(child_id)[since:]
        if (action, status) == ("CREATE", "COMPLETE") and name not in names
    ]
    # A third member comes with the new definition first, then the oldest is given it,
    # and then the oldest goes: Heat's InstanceGroup counts the third member as one of
    # the updated ones, so one member keeps the old definition.
    assert len(created) == 1
    assert len(members(nested, identity)) == 2
    assert sorted(nested.outputs(identity)["values"]) == ["one", "two"]


def test_a_rolling_update_longer_than_the_timeout_fails(nested: NestedEngine) -> None:
    rolling = {"max_batch_size": 1, "pause_time": 2000}
    identity = nested.create(group_template(desired_capacity=3, rolling_updates=rolling))

    member = {"type": "OS::Heat::Value", "properties": {"value": "two"}}
    nested.update(identity, group_template(member, desired_capacity=3, rolling_updates=rolling))

    group = group_row(nested, identity)
    assert (group.action, group.status, group.status_reason) == (
        "UPDATE",
        "FAILED",
        "ValueError: resources.group: The current update policy will result in stack update "
        "timeout.",
    )


def test_deleting_the_stack_deletes_the_members(nested: NestedEngine) -> None:
    policy = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 1}
    identity = nested.create(group_template(policy=policy, desired_capacity=2))
    child_id = nested.child(identity["stack_id"]).id

    nested.delete(identity)

    child = nested.stack(child_id)
    assert (child.action, child.status, child.deleted_at is not None) == (
        "DELETE",
        "COMPLETE",
        True,
    )
    assert nested.resources(child_id) == {}


def test_the_member_definition_is_stored_as_given(nested: NestedEngine) -> None:
    member = {
        "type": "OS::Heat::Value",
        "properties": {"value": {"get_param": "OS::stack_name"}},
        "metadata": {"role": "web"},
    }
    identity = nested.create(group_template(member))

    child = nested.child(identity["stack_id"])
    (row,) = members(nested, identity).values()
    assert row.rsrc_metadata == {"role": "web"}
    assert nested.outputs(identity)["values"] == ["web"]
    assert json.dumps(nested.environment(child.id)["parameters"]) == "{}"


def test_members_may_be_template_resources(nested: NestedEngine) -> None:
    member_template = {
        "heat_template_version": "2018-08-31",
        "parameters": {"greeting": {"type": "string"}},
        "resources": {"word": {"type": "OS::Heat::Value", "properties": {"value": "x"}}},
        "outputs": {"value": {"value": {"get_param": "greeting"}}},
    }
    member = {"type": "member.yaml", "properties": {"greeting": "hello"}}
    policy = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 1}
    files = {"member.yaml": json.dumps(member_template)}
    identity = nested.create(group_template(member, policy=policy), files=files)

    signal(nested, identity)

    assert nested.outputs(identity)["values"] == ["hello", "hello"]
    rows = members(nested, identity)
    # As in Heat, a nested stack member is updated with every change of the group.
    assert sorted((row.action, row.status) for row in rows.values()) == [
        ("CREATE", "COMPLETE"),
        ("UPDATE", "COMPLETE"),
    ]
    # Each member is a stack of the template's resources.
    assert all(len(nested.children(row.physical_resource_id)) == 0 for row in rows.values())
    assert {
        name for row in rows.values() for name in nested.resources(row.physical_resource_id)
    } == {"word"}


class RecordingNotifier:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], bool]] = []

    def notify(self, context: Any, event_type: str, payload: dict[str, Any], error: bool) -> None:
        self.sent.append((event_type, payload, error))


@pytest.fixture
def notifier() -> Any:
    recording = RecordingNotifier()
    notification.install(recording)
    yield recording
    notification.install(None)


def test_a_resize_is_notified_as_heat_notifies_it(nested: NestedEngine, notifier: Any) -> None:
    policy = {"adjustment_type": "change_in_capacity", "scaling_adjustment": 2}
    identity = nested.create(group_template(policy=policy))
    group_reference = group_row(nested, identity).physical_resource_id
    notifier.sent.clear()

    signal(nested, identity)
    shown_metadata(nested, identity)

    scaling = [
        (event_type, error, {key: payload[key] for key in list(payload)[-5:]})
        for event_type, payload, error in notifier.sent
        if event_type.startswith("autoscaling.")
    ]
    figures = {"adjustment_type": "change_in_capacity", "adjustment": 2}
    assert scaling == [
        (
            "autoscaling.start",
            False,
            {
                **figures,
                "capacity": 1,
                "groupname": group_reference,
                "message": f"Start resizing the group {group_reference}",
            },
        ),
        (
            "autoscaling.end",
            False,
            {
                **figures,
                "capacity": 3,
                "groupname": group_reference,
                "message": f"End resizing the group {group_reference}",
            },
        ),
    ]
    start_payload = next(
        payload for kind, payload, _ in notifier.sent if kind == "autoscaling.start"
    )
    assert (start_payload["stack_name"], start_payload["stack_identity"]) == (
        "web",
        identity["stack_id"],
    )
