"""A stack deleted while one of its resources is still being created: the engine holding
the resource's lock is told to cancel (``cancel_check_resource``), the action is aborted
as Heat aborts it, and the delete goes on to the end."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from keel_app.engine.dispatch import CANCEL_CHECK_RESOURCE
from keel_app.engine.service import stacks as service
from keel_app.models import Event
from keel_app.models import Resource as ResourceRow
from keel_app.models import Stack as StackRow

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "slow": {
            "type": "OS::Heat::TestResource",
            "properties": {"action_wait_secs": {"create": 30}},
        }
    },
}


def _slow_create(context, settings, database, queue) -> dict[str, Any]:
    identity = service.create_stack(
        context,
        settings,
        database,
        queue,
        stack_name="slow",
        template=TEMPLATE,
        params={},
        files={},
        args={},
    )
    queue.run_one()  # the create starts and now waits, holding the lock
    return identity


def test_the_delete_asks_the_lock_holder_to_cancel(context, settings, database, queue) -> None:
    identity = _slow_create(context, settings, database, queue)

    service.delete_stack(context, settings, database, queue, stack_identity=identity)

    cancels = [m for m in queue.pending() if m.method == CANCEL_CHECK_RESOURCE]
    assert [(m.engine_id, m.arguments) for m in cancels] == [
        (settings.engine_id, {"stack_id": identity["stack_id"]})
    ]


def test_the_cancelled_action_is_aborted_and_the_delete_completes(
    context, settings, database, queue
) -> None:
    identity = _slow_create(context, settings, database, queue)

    service.delete_stack(context, settings, database, queue, stack_identity=identity)
    queue.run_until_idle()

    with database.transaction() as session:
        stack = session.get(StackRow, identity["stack_id"])
        assert (stack.action, stack.status) == ("DELETE", "COMPLETE")
        assert session.scalars(sa.select(ResourceRow)).all() == []
        reasons = session.scalars(
            sa.select(Event.resource_status_reason)
            .where(Event.resource_name == "slow")
            .order_by(Event.id)
        ).all()
    assert "CREATE aborted (user triggered cancel)" in reasons
    # Nothing is left waiting: the poll of the aborted create stopped at its first look.
    assert queue.run_until_idle() == 0
