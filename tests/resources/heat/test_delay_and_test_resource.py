"""OS::Heat::Delay and OS::Heat::TestResource run on the LocalQueue: waits are the
queue's re-sends (the clock jumps), never sleeps; every knob of the test resource."""

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
    stack_state,
    states,
    update,
)


def delay(**properties: Any) -> dict[str, Any]:
    return hot({"pause": {"type": "OS::Heat::Delay", "properties": properties}})


def countdowns(queue) -> list[float]:
    return [message.countdown for message in queue.delivered]


def test_delay_waits_asking_less_often_while_far_from_done(
    context, settings, database, queue
) -> None:
    started = queue.now()
    identity = create(context, settings, database, queue, delay(min_wait=10))

    queue.run_until_idle()

    assert states(database, identity) == {"pause": ("CREATE", "COMPLETE")}
    # Half the time left while four seconds or more are, then a second at a time.
    assert countdowns(queue) == [0, 5.0, 2.0, 1.0, 1.0, 1.0]
    assert queue.now() - started == 10.0


def test_delay_only_in_its_actions(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, delay(min_wait=3, actions=["DELETE"]))
    queue.run_until_idle()
    created_at = queue.now()
    assert states(database, identity) == {"pause": ("CREATE", "COMPLETE")}

    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    assert stack_state(database, identity)[:2] == ("DELETE", "COMPLETE")
    assert queue.now() - created_at == 3.0


def test_delay_adds_jitter_within_its_bounds(context, settings, database, queue) -> None:
    started = queue.now()
    identity = create(
        context, settings, database, queue, delay(min_wait=2, max_jitter=3, jitter_multiplier=2)
    )

    queue.run_until_idle()

    assert states(database, identity) == {"pause": ("CREATE", "COMPLETE")}
    assert 2 <= queue.now() - started <= 2 + 3 * 2 + 1


def test_delay_without_a_wait_completes_at_once(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, delay())

    queue.run_until_idle()

    assert states(database, identity) == {"pause": ("CREATE", "COMPLETE")}
    assert countdowns(queue) == [0]


def holder(**properties: Any) -> dict[str, Any]:
    return hot(
        {"test": {"type": "OS::Heat::TestResource", "properties": properties}},
        outputs={"output": {"value": {"get_attr": ["test", "output"]}}},
    )


def output(context, settings, database, identity: dict[str, str]) -> Any:
    shown = service.show_output(
        context, settings, database, None, stack_identity=identity, output_key="output"
    )
    return shown["output_value"]


def stored_value(database, identity: dict[str, str]) -> list[str]:
    row = resource_row(database, identity, "test")
    return [data.value for data in rows(database, ResourceData, resource_id=row.id)]


def test_test_resource_stores_its_value(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, holder(value="kept"))

    queue.run_until_idle()

    row = resource_row(database, identity, "test")
    assert row.physical_resource_id.startswith("life-test-")
    assert stored_value(database, identity) == ["kept"]
    assert output(context, settings, database, identity) == "kept"


def test_test_resource_fails_when_told(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, holder(fail=True))

    queue.run_until_idle()

    row = resource_row(database, identity, "test")
    assert (row.action, row.status, row.status_reason) == (
        "CREATE",
        "FAILED",
        "ValueError: resources.test: Test Resource failed test",
    )
    assert row.physical_resource_id is None
    assert stack_state(database, identity) == (
        "CREATE",
        "FAILED",
        "Resource CREATE failed: ValueError: resources.test: Test Resource failed test",
    )


def test_test_resource_fails_after_its_wait(context, settings, database, queue) -> None:
    started = queue.now()
    identity = create(context, settings, database, queue, holder(fail=True, wait_secs=3))

    queue.run_until_idle()

    assert states(database, identity) == {"test": ("CREATE", "FAILED")}
    assert queue.now() - started == 4.0


def test_test_resource_is_deleted_even_when_failing(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, holder(value="v"))
    queue.run_until_idle()
    update(context, settings, database, queue, identity, holder(value="v", fail=True))
    queue.run_until_idle()

    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    assert stack_state(database, identity)[:2] == ("DELETE", "COMPLETE")


def test_test_resource_updates_its_value_in_place(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, holder(value="old"))
    queue.run_until_idle()
    first = resource_row(database, identity, "test")

    update(context, settings, database, queue, identity, holder(value="new"))
    queue.run_until_idle()

    row = resource_row(database, identity, "test")
    assert (row.id, row.action, row.status) == (first.id, "UPDATE", "COMPLETE")
    assert stored_value(database, identity) == ["new"]
    assert output(context, settings, database, identity) == "new"


def test_test_resource_is_replaced_when_told(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, holder(value="old"))
    queue.run_until_idle()
    first = resource_row(database, identity, "test")

    update(
        context,
        settings,
        database,
        queue,
        identity,
        holder(value="new", update_replace=True),
    )
    queue.run_until_idle()

    row = resource_row(database, identity, "test")
    assert row.id != first.id
    assert (row.action, row.status) == ("CREATE", "COMPLETE")
    assert output(context, settings, database, identity) == "new"


def test_test_resource_is_replaced_for_a_new_replace_value(
    context, settings, database, queue
) -> None:
    identity = create(context, settings, database, queue, holder(update_replace_value="a"))
    queue.run_until_idle()
    first = resource_row(database, identity, "test")

    update(context, settings, database, queue, identity, holder(update_replace_value="b"))
    queue.run_until_idle()

    assert resource_row(database, identity, "test").id != first.id
    assert stack_state(database, identity)[:2] == ("UPDATE", "COMPLETE")


def test_test_resource_waits_per_action(context, settings, database, queue) -> None:
    waits = {"create": 2, "update": 5, "delete": 1}
    identity = create(context, settings, database, queue, holder(action_wait_secs=waits))
    started = queue.now()
    queue.run_until_idle()
    created = queue.now()
    update(
        context,
        settings,
        database,
        queue,
        identity,
        holder(value="changed", action_wait_secs=waits),
    )
    queue.run_until_idle()
    updated = queue.now()

    assert (created - started, updated - created) == (3.0, 6.0)
    assert resource_events(database, "test")[-1] == ("UPDATE", "COMPLETE", "state changed")


def test_test_resource_polls_a_client_it_does_not_have(context, settings, database, queue) -> None:
    identity = create(
        context,
        settings,
        database,
        queue,
        holder(wait_secs=2, client_name="nova", entity_name="servers"),
    )

    queue.run_until_idle()

    assert states(database, identity) == {"test": ("CREATE", "COMPLETE")}
