"""The all-in-one queue: casts run on its own threads, in real time, countdowns honoured."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from keel_app.common.context import RequestContext
from keel_app.engine.background_queue import BackgroundQueue
from keel_app.engine.dispatch import CHECK_RESOURCE, Message

CALLER = RequestContext(project_id="p", user_id="u")


def send(queue: BackgroundQueue, resource_id: int, countdown: float = 0) -> None:
    queue.send_check_resource(
        CALLER,
        resource_id=resource_id,
        current_traversal="t",
        data={},
        is_update=True,
        adopt_stack_data=None,
        countdown=countdown,
    )


@pytest.fixture
def queue() -> Iterator[BackgroundQueue]:
    queue = BackgroundQueue("engine-1", threads=2)
    yield queue
    queue.stop()


def test_every_cast_runs_with_heats_arguments(queue: BackgroundQueue) -> None:
    seen: list[Message] = []
    queue.start(seen.append)

    send(queue, 7)

    assert queue.wait_until_idle(5)
    assert [(message.method, message.arguments["resource_id"]) for message in seen] == [
        (CHECK_RESOURCE, 7)
    ]


def test_a_countdown_delays_the_step_without_holding_a_thread(queue: BackgroundQueue) -> None:
    ran_at: dict[int, float] = {}
    queue.start(
        lambda message: ran_at.setdefault(message.arguments["resource_id"], time.monotonic())
    )
    sent_at = time.monotonic()

    send(queue, 1, countdown=0.5)
    send(queue, 2, countdown=0.5)
    send(queue, 3)

    assert queue.wait_until_idle(5)
    assert ran_at[3] - sent_at < 0.4
    assert ran_at[1] - sent_at >= 0.5
    assert ran_at[2] - sent_at >= 0.5


def test_steps_run_side_by_side_on_the_threads(queue: BackgroundQueue) -> None:
    both_running = threading.Barrier(2, timeout=5)
    queue.start(lambda message: both_running.wait())

    send(queue, 1)
    send(queue, 2)

    assert queue.wait_until_idle(5)
    assert not both_running.broken


def test_a_failing_step_leaves_the_thread_serving(queue: BackgroundQueue) -> None:
    seen: list[int] = []

    def handle(message: Message) -> None:
        if message.arguments["resource_id"] == 1:
            raise RuntimeError("a broken step")
        seen.append(message.arguments["resource_id"])

    queue.start(handle)
    send(queue, 1)
    send(queue, 2)

    assert queue.wait_until_idle(5)
    assert seen == [2]


def test_only_its_own_engine_is_alive(queue: BackgroundQueue) -> None:
    assert queue.is_engine_alive(CALLER, "engine-1")
    assert not queue.is_engine_alive(CALLER, "engine-of-an-earlier-run")


def test_a_queue_needs_a_thread() -> None:
    with pytest.raises(ValueError, match="at least one thread"):
        BackgroundQueue("engine-1", threads=0)


def test_what_a_step_sends_runs_after_it_on_the_same_thread(queue: BackgroundQueue) -> None:
    ran: dict[int, tuple[str, float, float]] = {}

    def handle(message: Message) -> None:
        began = time.monotonic()
        if message.arguments["resource_id"] == 1:
            send(queue, 2)
            time.sleep(0.1)  # the rest of the step, after its send
        ran[message.arguments["resource_id"]] = (
            threading.current_thread().name,
            began,
            time.monotonic(),
        )

    queue.start(handle)
    send(queue, 1)

    assert queue.wait_until_idle(5)
    first_thread, _, first_ended = ran[1]
    second_thread, second_began, _ = ran[2]
    assert second_thread == first_thread
    assert second_began >= first_ended


def test_a_step_that_sends_several_wakes_the_other_threads_for_them(
    queue: BackgroundQueue,
) -> None:
    both_running = threading.Barrier(2, timeout=5)

    def handle(message: Message) -> None:
        if message.arguments["resource_id"] == 0:
            send(queue, 1)
            send(queue, 2)
        else:
            both_running.wait()

    queue.start(handle)
    send(queue, 0)

    assert queue.wait_until_idle(5)
    assert not both_running.broken


def test_on_idle_runs_once_each_time_the_queue_empties() -> None:
    emptied: list[int] = []
    queue = BackgroundQueue("engine-1", threads=2, on_idle=lambda: emptied.append(len(queue)))
    try:

        def handle(message: Message) -> None:
            if message.arguments["resource_id"] == 1:
                send(queue, 2)  # a chain: the queue is not empty between the two

        queue.start(handle)
        send(queue, 1)
        assert queue.wait_until_idle(5)
        time.sleep(0.1)  # on_idle runs after the idle waiters are woken
        assert emptied == [0]

        send(queue, 3)
        assert queue.wait_until_idle(5)
        time.sleep(0.1)
        assert emptied == [0, 0]
    finally:
        queue.stop()


def test_a_failing_on_idle_leaves_the_thread_serving() -> None:
    def fail() -> None:
        raise RuntimeError("a broken hook")

    seen: list[int] = []
    queue = BackgroundQueue("engine-1", threads=1, on_idle=fail)
    try:
        queue.start(lambda message: seen.append(message.arguments["resource_id"]))
        send(queue, 1)
        assert queue.wait_until_idle(5)
        time.sleep(0.1)
        send(queue, 2)
        assert queue.wait_until_idle(5)
        assert seen == [1, 2]
    finally:
        queue.stop()
