"""Convergence steps are casts: the sender does not wait for results, workers store none."""

from __future__ import annotations

import kombu

from keel_app.engine.settings import EngineSettings
from keel_app.tasks import convergence
from keel_app.tasks.app import app
from keel_app.tasks.dispatcher import WORKER_QUEUE, CeleryDispatcher
from tests import fleet


def _queued_message(queue_name: str) -> kombu.Message:
    with app.connection_for_read() as connection:
        message = kombu.Queue(queue_name, channel=connection.default_channel).get(no_ack=True)
    assert message is not None
    return message


def test_a_sent_step_asks_for_no_result(vhost_url, context) -> None:
    settings = EngineSettings(auth_encryption_key=fleet.ENCRYPTION_KEY, engine_id="api-process")
    CeleryDispatcher(settings, None).send_check_resource(  # type: ignore[arg-type]
        context,
        resource_id=7,
        current_traversal="traversal-1",
        data={"input_data": {}},
        is_update=True,
        adopt_stack_data=None,
    )

    message = _queued_message(WORKER_QUEUE)
    assert (message.headers["task"], message.headers["ignore_result"]) == (
        "keel.check_resource",
        True,
    )


def test_workers_store_no_result_of_a_cast() -> None:
    casts = [
        convergence.check_resource,
        convergence.check_resource_delete_snapshot,
        convergence.cancel_check_resource,
    ]
    assert {task.name: task.ignore_result for task in casts} == {
        "keel.check_resource": True,
        "keel.check_resource_delete_snapshot": True,
        "keel.cancel_check_resource": True,
    }
