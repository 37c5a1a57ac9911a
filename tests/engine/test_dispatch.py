"""The LocalQueue: sends run after the step that sent them, in due order, on a virtual clock."""

from __future__ import annotations

import pytest

from keel_app.common.context import RequestContext
from keel_app.engine.dispatch import (
    CANCEL_CHECK_RESOURCE,
    CHECK_RESOURCE,
    CHECK_RESOURCE_DELETE_SNAPSHOT,
    LocalQueue,
    Message,
)

CONTEXT = RequestContext(project_id="p")


def send(queue: LocalQueue, resource_id: int, countdown: float = 0) -> None:
    queue.send_check_resource(
        CONTEXT,
        resource_id=resource_id,
        current_traversal="t",
        data={"input_data": {}},
        is_update=True,
        adopt_stack_data=None,
        countdown=countdown,
    )


def test_check_resource_carries_heats_argument_names() -> None:
    queue = LocalQueue(start_time=100.0)
    send(queue, 7)

    [message] = queue.pending()
    assert message == Message(
        CHECK_RESOURCE,
        CONTEXT,
        {
            "resource_id": 7,
            "current_traversal": "t",
            "data": {"input_data": {}},
            "is_update": True,
            "adopt_stack_data": None,
            "converge": False,
            "skip_propagate": False,
            "accumulated_failures": None,
            "node_type": "resource",
            "abandon": False,
        },
    )


def test_messages_run_first_in_first_out_and_sends_wait_for_the_step() -> None:
    ran: list[int] = []
    queue = LocalQueue(start_time=0.0)

    def handler(message: Message) -> None:
        resource_id = message.arguments["resource_id"]
        ran.append(resource_id)
        if resource_id == 1:
            send(queue, 10)
            # Not run inside this step: it waits behind what was already queued.
            assert ran == [1]

    queue.handler = handler
    send(queue, 1)
    send(queue, 2)

    assert queue.run_until_idle() == 3
    assert ran == [1, 2, 10]


def test_a_countdown_orders_by_due_time_and_moves_the_clock_without_sleeping() -> None:
    ran: list[tuple[int, float]] = []
    queue = LocalQueue(start_time=1000.0)
    queue.handler = lambda message: ran.append((message.arguments["resource_id"], queue.now()))
    send(queue, 1, countdown=5)
    send(queue, 2, countdown=1)
    send(queue, 3)

    queue.run_until_idle()

    assert ran == [(3, 1000.0), (2, 1001.0), (1, 1005.0)]


def test_other_casts_are_queued_with_their_arguments() -> None:
    queue = LocalQueue(start_time=0.0)
    queue.send_check_resource_delete_snapshot(
        CONTEXT, snapshot_id="s", resource_name="r", start_time="2026-01-01T00:00:00"
    )
    queue.send_cancel_check_resource(CONTEXT, stack_id="stack", engine_id="engine")

    assert [
        (message.method, message.arguments, message.engine_id) for message in queue.pending()
    ] == [
        (
            CHECK_RESOURCE_DELETE_SNAPSHOT,
            {
                "snapshot_id": "s",
                "resource_name": "r",
                "start_time": "2026-01-01T00:00:00",
                "is_stack_delete": False,
                "current_traversal": None,
            },
            None,
        ),
        (CANCEL_CHECK_RESOURCE, {"stack_id": "stack"}, "engine"),
    ]


def test_running_without_a_handler_is_an_error() -> None:
    queue = LocalQueue()
    send(queue, 1)

    with pytest.raises(RuntimeError, match="no handler"):
        queue.run_one()


def test_a_queue_that_never_empties_is_stopped() -> None:
    queue = LocalQueue(start_time=0.0)
    queue.handler = lambda message: send(queue, 1)
    send(queue, 1)

    with pytest.raises(RuntimeError, match="still busy after 5 messages"):
        queue.run_until_idle(limit=5)
