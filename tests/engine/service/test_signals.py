"""resource_signal beyond hooks: which resource a signal reaches and what it answers."""

from __future__ import annotations

import pytest

from keel_app.common import exception
from tests.engine.service.stack_life import create, hot, run_for, signal, update

HANDLE = {"type": "OS::Heat::WaitConditionHandle"}
PLAIN = {"type": "OS::Heat::TestResource"}


def test_a_resource_leaving_the_template_still_takes_signals(
    context, settings, database, queue
) -> None:
    identity = create(context, settings, database, queue, hot({"handle": HANDLE, "plain": PLAIN}))
    queue.run_until_idle()

    # The update has switched the stack to a template without the handle, which is
    # still there until its delete step runs.
    update(context, settings, database, queue, identity, hot({"plain": PLAIN}))
    answer = signal(context, settings, database, identity, "handle", {"id": "late"}, True)

    assert answer == {"late": {"data": None, "reason": "Signal 1 received", "status": "SUCCESS"}}


def test_a_resource_in_no_template_is_not_found(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, hot({"plain": PLAIN}))
    queue.run_until_idle()

    with pytest.raises(exception.ResourceNotFound) as raised:
        signal(context, settings, database, identity, "handle", {})

    assert str(raised.value) == "The Resource (handle) could not be found in Stack life."


def test_a_waited_for_signal_answers_the_metadata(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, hot({"handle": HANDLE}))
    run_for(queue, 1)

    first = signal(context, settings, database, identity, "handle", {"data": "x"}, True)
    second = signal(context, settings, database, identity, "handle", {"status": "FAILURE"}, True)

    assert first == {"1": {"data": "x", "reason": "Signal 1 received", "status": "SUCCESS"}}
    assert second == {
        "1": {"data": "x", "reason": "Signal 1 received", "status": "SUCCESS"},
        "2": {"data": None, "reason": "Signal 2 received", "status": "FAILURE"},
    }


def test_a_signal_to_a_type_without_a_handler_is_refused(
    context, settings, database, queue
) -> None:
    identity = create(context, settings, database, queue, hot({"plain": PLAIN}))
    queue.run_until_idle()

    with pytest.raises(exception.ResourceActionNotSupported) as raised:
        signal(context, settings, database, identity, "plain", {"status": "SUCCESS"})

    assert str(raised.value) == "signal is not supported for resource."
