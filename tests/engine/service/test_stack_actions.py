"""stack_suspend, stack_resume and stack_check: traversals of the stack's own template."""

from __future__ import annotations

from typing import Any

from keel_app.engine.service.stack_actions import stack_check, stack_resume, stack_suspend
from keel_app.models import Event, SyncPoint
from keel_app.models import Resource as ResourceRow
from tests.engine.service.rows import all_rows, set_state, stack_events, stack_row, states
from tests.engine.service.stack_life import create, hot, resource_events, stack_state

# b needs a; a test resource and a random string.
TEMPLATE = hot(
    {
        "a": {"type": "OS::Heat::TestResource", "properties": {"value": "x"}},
        "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
        "c": {"type": "OS::Heat::RandomString"},
    }
)


def _created(context, settings, database, queue, template: dict[str, Any] = TEMPLATE):
    identity = create(context, settings, database, queue, template)
    queue.run_until_idle()
    assert stack_state(database, identity)[:2] == ("CREATE", "COMPLETE")
    return identity


def _run(function, context, settings, database, queue, identity) -> None:
    assert function(context, settings, database, queue, stack_identity=identity) is None
    queue.run_until_idle()


def _resource_action_order(database, identity, action: str) -> list[str]:
    """The resources in the order their action completed."""
    return [
        event.resource_name
        for event in all_rows(database, Event, stack_id=identity["stack_id"])
        if (event.resource_action, event.resource_status) == (action, "COMPLETE")
        and event.resource_type != "OS::Heat::Stack"
    ]


def test_suspend_suspends_every_resource_dependents_first(
    context, settings, database, queue
) -> None:
    identity = _created(context, settings, database, queue)
    template_id = stack_row(database, identity["stack_id"]).raw_template_id

    _run(stack_suspend, context, settings, database, queue, identity)

    assert stack_state(database, identity) == (
        "SUSPEND",
        "COMPLETE",
        "Stack SUSPEND completed successfully",
    )
    assert states(database, identity["stack_id"]) == {
        name: ("SUSPEND", "COMPLETE") for name in "abc"
    }
    order = _resource_action_order(database, identity, "SUSPEND")
    assert order.index("b") < order.index("a")
    assert resource_events(database, "a", resource_action="SUSPEND") == [
        ("SUSPEND", "IN_PROGRESS", "state changed"),
        ("SUSPEND", "COMPLETE", "state changed"),
    ]
    assert stack_events(database, identity["stack_id"])[-2:] == [
        ("SUSPEND", "IN_PROGRESS", "Stack SUSPEND started"),
        ("SUSPEND", "COMPLETE", "Stack SUSPEND completed successfully"),
    ]
    row = stack_row(database, identity["stack_id"])
    # The template stays, nothing to roll back to, no sync point left.
    assert (row.raw_template_id, row.prev_raw_template_id) == (template_id, None)
    assert row.updated_at is not None
    assert all_rows(database, SyncPoint, stack_id=identity["stack_id"]) == []


def test_a_suspended_stack_is_not_suspended_again(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    _run(stack_suspend, context, settings, database, queue, identity)
    events_before = stack_events(database, identity["stack_id"])

    _run(stack_suspend, context, settings, database, queue, identity)

    assert stack_events(database, identity["stack_id"]) == events_before


def test_resume_resumes_requirements_first(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    _run(stack_suspend, context, settings, database, queue, identity)

    _run(stack_resume, context, settings, database, queue, identity)

    assert stack_state(database, identity) == (
        "RESUME",
        "COMPLETE",
        "Stack RESUME completed successfully",
    )
    assert states(database, identity["stack_id"]) == {
        name: ("RESUME", "COMPLETE") for name in "abc"
    }
    order = _resource_action_order(database, identity, "RESUME")
    assert order.index("a") < order.index("b")


def test_a_resumed_stack_is_not_resumed_again(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)
    _run(stack_suspend, context, settings, database, queue, identity)
    _run(stack_resume, context, settings, database, queue, identity)
    events_before = stack_events(database, identity["stack_id"])

    _run(stack_resume, context, settings, database, queue, identity)

    assert stack_events(database, identity["stack_id"]) == events_before


def test_resuming_a_stack_never_suspended_fails_on_its_resources(
    context, settings, database, queue
) -> None:
    identity = _created(context, settings, database, queue, hot({"a": {"type": "OS::Heat::None"}}))

    _run(stack_resume, context, settings, database, queue, identity)

    assert stack_state(database, identity) == (
        "RESUME",
        "FAILED",
        "Resource RESUME failed: Error: resources.a: State ('CREATE', 'COMPLETE') invalid "
        "for resume",
    )
    # The resource refused before anything changed.
    assert states(database, identity["stack_id"]) == {"a": ("CREATE", "COMPLETE")}


def test_suspending_a_failed_resource_fails_the_stack(context, settings, database, queue) -> None:
    template = hot(
        {"a": {"type": "OS::Heat::TestResource", "properties": {"fail": True}}},
    )
    identity = create(context, settings, database, queue, template, disable_rollback=True)
    queue.run_until_idle()
    assert stack_state(database, identity)[:2] == ("CREATE", "FAILED")

    _run(stack_suspend, context, settings, database, queue, identity)

    assert stack_state(database, identity) == (
        "SUSPEND",
        "FAILED",
        "Resource SUSPEND failed: Error: resources.a: State ('CREATE', 'FAILED') invalid "
        "for suspend",
    )
    assert states(database, identity["stack_id"]) == {"a": ("CREATE", "FAILED")}
    assert all_rows(database, SyncPoint, stack_id=identity["stack_id"]) == []


def test_check_checks_what_can_be_checked(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue)

    _run(stack_check, context, settings, database, queue, identity)

    # OS::Heat::None and RandomString have no check of their own.
    assert stack_state(database, identity) == (
        "CHECK",
        "COMPLETE",
        "Stack CHECK completed successfully. 'CHECK' not fully supported (see resources)",
    )
    assert states(database, identity["stack_id"]) == {name: ("CHECK", "COMPLETE") for name in "abc"}
    assert resource_events(database, "a", resource_action="CHECK") == [
        ("CHECK", "IN_PROGRESS", "state changed"),
        ("CHECK", "COMPLETE", "state changed"),
    ]
    assert resource_events(database, "b", resource_action="CHECK") == [
        ("CHECK", "COMPLETE", "CHECK not supported for OS::Heat::None"),
    ]


def test_check_of_checkable_resources_only_is_fully_supported(
    context, settings, database, queue
) -> None:
    identity = _created(
        context, settings, database, queue, hot({"a": {"type": "OS::Heat::TestResource"}})
    )

    _run(stack_check, context, settings, database, queue, identity)

    assert stack_state(database, identity) == (
        "CHECK",
        "COMPLETE",
        "Stack CHECK completed successfully",
    )


def test_a_failed_check_skips_its_dependents_and_fails_the_stack(
    context, settings, database, queue
) -> None:
    template = hot(
        {
            "a": {"type": "OS::Heat::TestResource"},
            "b": {"type": "OS::Heat::TestResource", "depends_on": ["a"]},
            "c": {"type": "OS::Heat::TestResource"},
        }
    )
    identity = _created(context, settings, database, queue, template)
    # A test resource whose physical resource is gone fails its check.
    with database.transaction() as session:
        for row in session.query(ResourceRow).filter_by(stack_id=identity["stack_id"], name="a"):
            row.physical_resource_id = None

    _run(stack_check, context, settings, database, queue, identity)

    assert stack_state(database, identity) == (
        "CHECK",
        "FAILED",
        "Resource CHECK failed: a: Resource CHECK failed: Exception: resources.a: "
        "Resource not created",
    )
    assert states(database, identity["stack_id"]) == {
        "a": ("CHECK", "FAILED"),
        # Skipped: it depends on a.
        "b": ("CREATE", "COMPLETE"),
        "c": ("CHECK", "COMPLETE"),
    }


def test_check_of_a_resource_never_created(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue, hot({"a": {"type": "OS::Heat::None"}}))
    set_state(database, identity["stack_id"], "CREATE", "COMPLETE")
    with database.transaction() as session:
        for row in session.query(ResourceRow).filter_by(stack_id=identity["stack_id"]):
            row.action, row.status = "INIT", "COMPLETE"

    _run(stack_check, context, settings, database, queue, identity)

    # No check of its own: left INIT rather than claimed checked.
    assert states(database, identity["stack_id"]) == {"a": ("INIT", "COMPLETE")}
    assert stack_state(database, identity)[:2] == ("CHECK", "COMPLETE")


GROUP = hot(
    {
        "group": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {"count": 2, "resource_def": {"type": "OS::Heat::TestResource"}},
        }
    }
)


def _child_states(database, identity) -> dict[str, tuple[str, str]]:
    (group,) = [
        row
        for row in all_rows(database, ResourceRow, stack_id=identity["stack_id"])
        if row.name == "group"
    ]
    return states(database, group.physical_resource_id)


def test_suspend_and_resume_reach_a_nested_stack(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue, GROUP)

    _run(stack_suspend, context, settings, database, queue, identity)

    assert stack_state(database, identity)[:2] == ("SUSPEND", "COMPLETE")
    assert states(database, identity["stack_id"]) == {"group": ("SUSPEND", "COMPLETE")}
    assert _child_states(database, identity) == {
        "0": ("SUSPEND", "COMPLETE"),
        "1": ("SUSPEND", "COMPLETE"),
    }

    _run(stack_resume, context, settings, database, queue, identity)

    assert stack_state(database, identity)[:2] == ("RESUME", "COMPLETE")
    assert _child_states(database, identity) == {
        "0": ("RESUME", "COMPLETE"),
        "1": ("RESUME", "COMPLETE"),
    }


def test_check_of_a_nested_stack_answers_for_its_resources(
    context, settings, database, queue
) -> None:
    identity = _created(context, settings, database, queue, GROUP)

    _run(stack_check, context, settings, database, queue, identity)

    # Every resource at every depth has a check: fully supported.
    assert stack_state(database, identity) == (
        "CHECK",
        "COMPLETE",
        "Stack CHECK completed successfully",
    )
    assert _child_states(database, identity) == {
        "0": ("CHECK", "COMPLETE"),
        "1": ("CHECK", "COMPLETE"),
    }
