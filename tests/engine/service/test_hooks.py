"""Hooks (Heat's breakpoints): a step stops at a hook the environment sets on a
resource, waits (sent again, never sleeping) and goes on once a signal clears it."""

from __future__ import annotations

from typing import Any

from keel_app.engine.service import stacks as service
from keel_app.models import ResourceData
from tests.engine.service.stack_life import (
    create,
    hot,
    resource_events,
    resource_row,
    rows,
    settle,
    signal,
    stack_state,
    states,
    update,
)

RESOURCES: dict[str, Any] = {
    "first": {"type": "OS::Heat::TestResource", "properties": {"value": "one"}},
    "second": {"type": "OS::Heat::TestResource", "depends_on": ["first"]},
}
TEMPLATE = hot(RESOURCES)


def environment(hooks: Any, name: str = "first") -> dict[str, Any]:
    return {"resource_registry": {"resources": {name: {"hooks": hooks}}}}


def hook_data(database) -> list[tuple[str, str]]:
    return [(data.key, data.value) for data in rows(database, ResourceData)]


def test_pre_create_holds_the_resource_until_cleared(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, TEMPLATE, environment("pre-create"))

    settle(queue)

    assert states(database, identity) == {
        "first": ("INIT", "COMPLETE"),
        "second": ("INIT", "COMPLETE"),
    }
    assert hook_data(database) == [("pre-create", "True")]
    assert resource_events(database, "first") == [
        ("INIT", "COMPLETE", "CREATE paused until Hook pre-create is cleared")
    ]

    signal(context, settings, database, identity, "first", {"unset_hook": "pre-create"})
    queue.run_until_idle()

    assert states(database, identity) == {
        "first": ("CREATE", "COMPLETE"),
        "second": ("CREATE", "COMPLETE"),
    }
    assert resource_events(database, "first") == [
        ("INIT", "COMPLETE", "CREATE paused until Hook pre-create is cleared"),
        ("INIT", "COMPLETE", "Hook pre-create is cleared"),
        ("CREATE", "IN_PROGRESS", "state changed"),
        ("CREATE", "COMPLETE", "state changed"),
    ]
    assert hook_data(database) == [("value", "one"), ("value", "test_string")]
    assert stack_state(database, identity)[:2] == ("CREATE", "COMPLETE")


def test_a_waiting_hook_is_polled_by_resending(context, settings, database, queue) -> None:
    create(context, settings, database, queue, TEMPLATE, environment("pre-create"))
    settle(queue)
    started = queue.now()

    for _ in range(3):
        queue.run_one()

    (waiting,) = queue.pending()
    assert waiting.countdown == 1.0
    assert waiting.arguments["data"]["keel_progress"] == {"hook": "pre-create", "action": "CREATE"}
    assert queue.now() - started == 3.0


def test_post_create_holds_what_depends_on_the_resource(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, TEMPLATE, environment("post-create"))

    settle(queue)

    assert states(database, identity) == {
        "first": ("CREATE", "COMPLETE"),
        "second": ("INIT", "COMPLETE"),
    }
    assert resource_events(database, "first")[-1] == (
        "CREATE",
        "COMPLETE",
        "CREATE paused until Hook post-create is cleared",
    )
    assert resource_row(database, identity, "first").engine_id is None

    signal(context, settings, database, identity, "first", {"unset_hook": "post-create"})
    queue.run_until_idle()

    assert states(database, identity)["second"] == ("CREATE", "COMPLETE")
    assert stack_state(database, identity)[:2] == ("CREATE", "COMPLETE")


def test_hooks_match_resource_names_by_pattern(context, settings, database, queue) -> None:
    params = {"resource_registry": {"resources": {"sec*": {"hooks": ["pre-create"]}}}}
    identity = create(context, settings, database, queue, TEMPLATE, params)

    settle(queue)

    assert states(database, identity) == {
        "first": ("CREATE", "COMPLETE"),
        "second": ("INIT", "COMPLETE"),
    }
    assert resource_events(database, "second") == [
        ("INIT", "COMPLETE", "CREATE paused until Hook pre-create is cleared")
    ]


def test_the_stack_times_out_at_a_hook(context, settings, database, queue) -> None:
    identity = create(
        context, settings, database, queue, TEMPLATE, environment("pre-create"), timeout_mins=1
    )

    queue.run_until_idle()

    assert stack_state(database, identity) == ("CREATE", "FAILED", "Timed out")
    assert states(database, identity)["first"] == ("INIT", "COMPLETE")
    assert resource_events(database, "first") == [
        ("INIT", "COMPLETE", "CREATE paused until Hook pre-create is cleared"),
        ("INIT", "COMPLETE", "Failure occurred while waiting."),
    ]
    assert hook_data(database) == []


def _created(context, settings, database, queue, params: dict[str, Any]) -> dict[str, str]:
    identity = create(context, settings, database, queue, TEMPLATE, params)
    queue.run_until_idle()
    return identity


def test_pre_update_holds_even_a_resource_that_does_not_change(
    context, settings, database, queue
) -> None:
    params = environment("pre-update", name="second")
    identity = _created(context, settings, database, queue, params)
    changed = hot({**RESOURCES, "first": {"type": "OS::Heat::TestResource"}})

    update(context, settings, database, queue, identity, changed, params)
    settle(queue)

    assert states(database, identity) == {
        "first": ("UPDATE", "COMPLETE"),
        "second": ("CREATE", "COMPLETE"),
    }
    assert resource_events(database, "second")[-1] == (
        "CREATE",
        "COMPLETE",
        "UPDATE paused until Hook pre-update is cleared",
    )

    signal(context, settings, database, identity, "second", {"unset_hook": "pre-update"})
    queue.run_until_idle()

    assert stack_state(database, identity) == (
        "UPDATE",
        "COMPLETE",
        "Stack UPDATE completed successfully",
    )
    # Nothing changed for it: it was let through, not updated.
    assert states(database, identity)["second"] == ("CREATE", "COMPLETE")


def test_create_hooks_hold_only_in_the_stacks_create(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue, {})
    added = hot({**RESOURCES, "third": {"type": "OS::Heat::TestResource"}})

    update(context, settings, database, queue, identity, added, environment("pre-create", "third"))
    queue.run_until_idle()

    assert states(database, identity)["third"] == ("CREATE", "COMPLETE")
    assert resource_events(database, "third") == [
        ("CREATE", "IN_PROGRESS", "state changed"),
        ("CREATE", "COMPLETE", "state changed"),
    ]


def test_pre_delete_holds_the_delete(context, settings, database, queue) -> None:
    identity = _created(context, settings, database, queue, environment("pre-delete", "second"))

    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    settle(queue)

    assert states(database, identity) == {
        "first": ("CREATE", "COMPLETE"),
        "second": ("CREATE", "COMPLETE"),
    }
    assert resource_events(database, "second")[-1] == (
        "CREATE",
        "COMPLETE",
        "DELETE paused until Hook pre-delete is cleared",
    )

    signal(context, settings, database, identity, "second", {"unset_hook": "pre-delete"})
    queue.run_until_idle()

    assert stack_state(database, identity)[:2] == ("DELETE", "COMPLETE")
    assert resource_events(database, "second")[-3:] == [
        ("CREATE", "COMPLETE", "Hook pre-delete is cleared"),
        ("DELETE", "IN_PROGRESS", "state changed"),
        ("DELETE", "COMPLETE", "state changed"),
    ]


def test_post_update_holds_after_a_real_update(context, settings, database, queue) -> None:
    params = environment("post-update", name="second")
    identity = _created(context, settings, database, queue, params)
    changed = hot({**RESOURCES, "second": {**RESOURCES["second"], "properties": {"value": "2"}}})

    update(context, settings, database, queue, identity, changed, params)
    settle(queue)

    assert states(database, identity)["second"] == ("UPDATE", "COMPLETE")
    assert resource_events(database, "second")[-1] == (
        "UPDATE",
        "COMPLETE",
        "UPDATE paused until Hook post-update is cleared",
    )
    assert stack_state(database, identity)[:2] == ("UPDATE", "IN_PROGRESS")

    signal(context, settings, database, identity, "second", {"unset_hook": "post-update"})
    queue.run_until_idle()

    assert stack_state(database, identity)[:2] == ("UPDATE", "COMPLETE")


def test_a_resource_acting_locally_created_after_a_cleared_hook_has_only_its_own_data(
    context, settings, database, queue
) -> None:
    template = hot({"first": {"type": "OS::Heat::None"}})
    identity = create(context, settings, database, queue, template, environment("pre-create"))
    settle(queue)
    assert hook_data(database) == [("pre-create", "True")]

    signal(context, settings, database, identity, "first", {"unset_hook": "pre-create"})
    queue.run_until_idle()

    assert states(database, identity) == {"first": ("CREATE", "COMPLETE")}
    assert hook_data(database) == [("is_placeholder", "True")]
