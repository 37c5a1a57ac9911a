"""OS::Heat::ResourceGroup through the engine: its nested stack created, resized, members
removed by policy, replaced in batches, deleted; its attributes read from the nested
stack's outputs."""

from __future__ import annotations

import copy
from typing import Any

from tests.engine.convergence.nested import NestedEngine


def group_template(
    count: int,
    value: str = "v-%index%",
    update_policy: dict[str, Any] | None = None,
    **properties: Any,
) -> dict[str, Any]:
    group: dict[str, Any] = {
        "type": "OS::Heat::ResourceGroup",
        "properties": {
            "count": count,
            "resource_def": {"type": "OS::Heat::Value", "properties": {"value": value}},
            **properties,
        },
    }
    if update_policy is not None:
        group["update_policy"] = update_policy
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"group": group},
        "outputs": {
            "refs": {"value": {"get_attr": ["group", "refs"]}},
            "refs_map": {"value": {"get_attr": ["group", "refs_map"]}},
            "values": {"value": {"get_attr": ["group", "value"]}},
            "by_name": {"value": {"get_attr": ["group", "attributes", "value"]}},
            "member": {"value": {"get_attr": ["group", "resource.1"]}},
            "member_value": {"value": {"get_attr": ["group", "resource.1.value"]}},
            "removed": {"value": {"get_attr": ["group", "removed_rsrc_list"]}},
        },
    }


def members(nested: NestedEngine, identity: dict[str, str]) -> dict[str, Any]:
    """The child's member rows by name."""
    return nested.resources(nested.child(identity["stack_id"]).id)


def physical_ids(nested: NestedEngine, identity: dict[str, str]) -> dict[str, str]:
    return {name: row.physical_resource_id for name, row in members(nested, identity).items()}


def test_a_group_of_three_members_and_its_attributes(nested: NestedEngine) -> None:
    identity = nested.create(group_template(3))

    child = nested.child(identity["stack_id"])
    assert nested.states(child.id) == {name: ("CREATE", "COMPLETE") for name in ("2", "1", "0")}
    ids = physical_ids(nested, identity)
    assert nested.outputs(identity) == {
        "refs": [ids["0"], ids["1"], ids["2"]],
        "refs_map": ids,
        "values": ["v-0", "v-1", "v-2"],
        "by_name": {"0": "v-0", "1": "v-1", "2": "v-2"},
        "member": ids["1"],
        "member_value": "v-1",
        "removed": [],
    }
    group = nested.resources(identity["stack_id"])["group"]
    assert group.physical_resource_id == child.id


def test_scaling_out_keeps_the_members_and_adds_new_ones(nested: NestedEngine) -> None:
    identity = nested.create(group_template(3))
    before = members(nested, identity)

    nested.update(identity, group_template(5))

    after = members(nested, identity)
    assert sorted(after) == ["0", "1", "2", "3", "4"]
    for name in ("0", "1", "2"):
        assert (after[name].id, after[name].physical_resource_id) == (
            before[name].id,
            before[name].physical_resource_id,
        )
    ids = physical_ids(nested, identity)
    assert nested.outputs(identity)["refs"] == [ids[str(index)] for index in range(5)]
    assert nested.outputs(identity)["values"] == [f"v-{index}" for index in range(5)]
    assert nested.child(identity["stack_id"]).action == "UPDATE"


def test_scaling_in_removes_the_highest_indices(nested: NestedEngine) -> None:
    identity = nested.create(group_template(3))
    nested.update(identity, group_template(5))
    kept = physical_ids(nested, identity)

    nested.update(identity, group_template(2))

    assert physical_ids(nested, identity) == {"0": kept["0"], "1": kept["1"]}
    child = nested.child(identity["stack_id"])
    deleted = [event[0] for event in nested.events(child.id) if event[1:] == ("DELETE", "COMPLETE")]
    assert sorted(deleted) == ["2", "3", "4"]
    assert nested.outputs(identity)["refs"] == [kept["0"], kept["1"]]
    assert nested.outputs(identity)["removed"] == []


def test_a_removal_policy_removes_named_members_for_good(nested: NestedEngine) -> None:
    identity = nested.create(group_template(3))
    kept = physical_ids(nested, identity)

    nested.update(identity, group_template(2, removal_policies=[{"resource_list": ["1"]}]))

    assert physical_ids(nested, identity) == {"0": kept["0"], "2": kept["2"]}
    outputs = nested.outputs(identity)
    assert (outputs["refs"], outputs["removed"]) == ([kept["0"], kept["2"]], ["1"])
    assert outputs["member"] == "Member '1' not found in group resource 'group'."
    group = nested.resources(identity["stack_id"])["group"]
    assert nested.resource_data(group.id) == {"name_blacklist": "1"}

    # Growing again never brings the removed name back.
    nested.update(identity, group_template(3, removal_policies=[{"resource_list": ["1"]}]))

    assert sorted(physical_ids(nested, identity)) == ["0", "2", "3"]
    assert nested.outputs(identity)["values"] == ["v-0", "v-2", "v-3"]


def test_a_removal_policy_may_name_a_member_by_reference(nested: NestedEngine) -> None:
    identity = nested.create(group_template(3))
    kept = physical_ids(nested, identity)

    nested.update(identity, group_template(2, removal_policies=[{"resource_list": [kept["0"]]}]))

    assert physical_ids(nested, identity) == {"1": kept["1"], "2": kept["2"]}
    assert nested.outputs(identity)["removed"] == ["0"]


def test_the_update_mode_starts_the_removed_names_afresh(nested: NestedEngine) -> None:
    identity = nested.create(group_template(3, removal_policies=[{"resource_list": ["0"]}]))
    assert sorted(physical_ids(nested, identity)) == ["1", "2", "3"]

    nested.update(
        identity,
        group_template(
            3, removal_policies=[{"resource_list": ["2"]}], removal_policies_mode="update"
        ),
    )

    assert sorted(physical_ids(nested, identity)) == ["0", "1", "3"]
    assert nested.outputs(identity)["removed"] == ["2"]


def test_the_index_variable_can_be_renamed(nested: NestedEngine) -> None:
    identity = nested.create(group_template(2, value="item-__n__-%index%", index_var="__n__"))

    assert nested.outputs(identity)["values"] == ["item-0-%index%", "item-1-%index%"]


def test_batch_create_creates_the_members_in_batches(nested: NestedEngine) -> None:
    policy = {"batch_create": {"max_batch_size": 2, "pause_time": 30}}
    started = nested.queue.now()

    identity = nested.create(group_template(5, update_policy=policy))

    child = nested.child(identity["stack_id"])
    assert (child.action, child.status) == ("UPDATE", "COMPLETE")
    # As in Heat: an empty nested stack, then one update a batch.
    completed = [
        name if name != child.name else (action, status)
        for name, action, status in nested.events(child.id)
        if status == "COMPLETE"
    ]
    assert [set(completed[1:3]), set(completed[4:6]), completed[7]] == [{"0", "1"}, {"2", "3"}, "4"]
    assert completed[::3] == [
        ("CREATE", "COMPLETE"),
        ("UPDATE", "COMPLETE"),
        ("UPDATE", "COMPLETE"),
    ]
    assert completed[-1] == ("UPDATE", "COMPLETE")
    assert nested.queue.now() - started >= 60
    assert nested.states(identity["stack_id"]) == {"group": ("CREATE", "COMPLETE")}


def _updated_order(nested: NestedEngine, child_id: str, since: int) -> list[str]:
    return [
        name
        for name, action, status in nested.events(child_id)[since:]
        if (action, status) == ("UPDATE", "IN_PROGRESS") and name.isdigit()
    ]


def test_a_rolling_update_changes_the_highest_indices_first(nested: NestedEngine) -> None:
    policy = {"rolling_update": {"max_batch_size": 1, "pause_time": 20}}
    identity = nested.create(group_template(3, update_policy=policy))
    child_id = nested.child(identity["stack_id"]).id
    since = len(nested.events(child_id))
    started = nested.queue.now()

    nested.update(identity, group_template(3, value="w-%index%", update_policy=policy))

    assert _updated_order(nested, child_id, since) == ["2", "1", "0"]
    child_updates = [
        event
        for event in nested.events(child_id)[since:]
        if event[0] == nested.stack(child_id).name
    ]
    assert len(child_updates) == 6
    assert nested.queue.now() - started >= 40
    assert nested.outputs(identity)["values"] == ["w-0", "w-1", "w-2"]


def test_a_rolling_update_keeps_the_minimum_in_service(nested: NestedEngine) -> None:
    policy = {"rolling_update": {"max_batch_size": 1, "min_in_service": 2}}
    identity = nested.create(group_template(2, update_policy=policy))
    child_id = nested.child(identity["stack_id"]).id
    since = len(nested.events(child_id))

    nested.update(identity, group_template(2, value="w-%index%", update_policy=policy))

    # A third member comes first with the new definition, and goes last.
    member_events = [event for event in nested.events(child_id)[since:] if event[0].isdigit()]
    assert member_events[:2] == [("2", "CREATE", "IN_PROGRESS"), ("2", "CREATE", "COMPLETE")]
    assert member_events[-2:] == [("2", "DELETE", "IN_PROGRESS"), ("2", "DELETE", "COMPLETE")]
    assert _updated_order(nested, child_id, since) == ["1", "0"]
    assert nested.outputs(identity)["values"] == ["w-0", "w-1"]


def test_a_rolling_update_longer_than_the_timeout_fails(nested: NestedEngine) -> None:
    policy = {"rolling_update": {"max_batch_size": 1, "pause_time": 2000}}
    identity = nested.create(group_template(3, update_policy=policy))

    nested.update(identity, group_template(3, value="w-%index%", update_policy=policy))

    group = nested.resources(identity["stack_id"])["group"]
    assert (group.action, group.status, group.status_reason) == (
        "UPDATE",
        "FAILED",
        "ValueError: resources.group: The current update policy will result in stack update "
        "timeout.",
    )


def test_a_resize_without_rolling_policy_is_one_update(nested: NestedEngine) -> None:
    identity = nested.create(group_template(2))
    child_id = nested.child(identity["stack_id"]).id
    template = copy.deepcopy(group_template(2, value="w-%index%"))

    nested.update(identity, template)

    child = nested.stack(child_id)
    updates = [event for event in nested.events(child_id) if event[0] == child.name]
    assert updates[-2:] == [
        (child.name, "UPDATE", "IN_PROGRESS"),
        (child.name, "UPDATE", "COMPLETE"),
    ]
    assert len(updates) == 4
    assert nested.outputs(identity)["values"] == ["w-0", "w-1"]


def test_deleting_the_stack_deletes_the_group_stack(nested: NestedEngine) -> None:
    identity = nested.create(group_template(2))
    child_id = nested.child(identity["stack_id"]).id

    nested.delete(identity)

    child = nested.stack(child_id)
    assert (child.action, child.status, child.deleted_at is not None) == (
        "DELETE",
        "COMPLETE",
        True,
    )
    assert nested.resources(child_id) == {}
