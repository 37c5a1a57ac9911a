"""A traversal's many leaves travel several to a ``keel.check_resource_batch`` message."""

from __future__ import annotations

from typing import Any

import kombu
import pytest

from keel_app.engine.settings import EngineSettings
from keel_app.tasks.app import app
from keel_app.tasks.dispatcher import WORKER_QUEUE, CeleryDispatcher, steps_per_message
from tests import fleet


def _queued_messages(queue_name: str) -> list[kombu.Message]:
    messages = []
    with app.connection_for_read() as connection:
        queue = kombu.Queue(queue_name, channel=connection.default_channel)
        while (message := queue.get(no_ack=True)) is not None:
            messages.append(message)
    return messages


def _leaf(resource_id: int) -> dict[str, Any]:
    return {
        "resource_id": resource_id,
        "current_traversal": "traversal-1",
        "data": {"input_data": {}},
        "is_update": True,
        "adopt_stack_data": None,
    }


@pytest.mark.parametrize(
    ("leaves", "per_message"), [(1, 1), (32, 1), (33, 2), (100, 4), (500, 16), (10_000, 50)]
)
def test_leaves_are_spread_over_at_least_32_messages_of_at_most_50(
    leaves: int, per_message: int
) -> None:
    assert steps_per_message(leaves) == per_message


def test_few_leaves_go_one_step_a_message(vhost_url, context) -> None:
    settings = EngineSettings(auth_encryption_key=fleet.ENCRYPTION_KEY, engine_id="api-process")
    CeleryDispatcher(settings, None).send_check_resources(  # type: ignore[arg-type]
        context, [_leaf(number) for number in range(3)]
    )

    messages = _queued_messages(WORKER_QUEUE)
    assert [message.headers["task"] for message in messages] == ["keel.check_resource"] * 3
    assert [message.decode()[1]["resource_id"] for message in messages] == [0, 1, 2]


def test_many_leaves_go_in_batches_in_their_order(vhost_url, context) -> None:
    settings = EngineSettings(auth_encryption_key=fleet.ENCRYPTION_KEY, engine_id="api-process")
    CeleryDispatcher(settings, None).send_check_resources(  # type: ignore[arg-type]
        context, [_leaf(number) for number in range(100)]
    )

    messages = _queued_messages(WORKER_QUEUE)
    assert {message.headers["task"] for message in messages} == {"keel.check_resource_batch"}
    batches = [message.decode()[1]["steps"] for message in messages]
    assert [len(steps) for steps in batches] == [4] * 25
    assert [step for steps in batches for step in steps] == [_leaf(n) for n in range(100)]
    # The credentials travel sealed, never in clear text.
    assert all(context.auth_token not in str(message.body) for message in messages)
