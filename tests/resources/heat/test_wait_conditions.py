"""OS::Heat::WaitCondition and its handles, run on the LocalQueue: signals through
``resource_signal``, waiting by re-sending, and Heat's messages on failure."""

from __future__ import annotations

import json

from keel_app.engine.service import resources as resource_service
from keel_app.engine.service import stacks as service
from keel_app.models import ResourceData
from tests.engine.service.stack_life import (
    create,
    hot,
    resource_events,
    resource_row,
    rows,
    run_for,
    signal,
    stack_state,
    states,
    update,
)


def waiting(count: int = 1, timeout: int = 60, handle_type: str = "OS::Heat::WaitConditionHandle"):
    return hot(
        {
            "handle": {"type": handle_type},
            "wait": {
                "type": "OS::Heat::WaitCondition",
                "properties": {
                    "handle": {"get_resource": "handle"},
                    "count": count,
                    "timeout": timeout,
                },
            },
        },
        outputs={"data": {"value": {"get_attr": ["wait", "data"]}}},
    )


def test_completes_once_count_signals_are_in(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, waiting(count=2))
    run_for(queue, 3)
    assert states(database, identity) == {
        "handle": ("CREATE", "COMPLETE"),
        "wait": ("CREATE", "IN_PROGRESS"),
    }

    signal(context, settings, database, identity, "handle", {"data": "a"})
    run_for(queue, 3)
    assert states(database, identity)["wait"] == ("CREATE", "IN_PROGRESS")
    signal(context, settings, database, identity, "handle", {"id": "x", "data": {"b": 2}})
    queue.run_until_idle()

    assert stack_state(database, identity)[:2] == ("CREATE", "COMPLETE")
    assert resource_row(database, identity, "handle").rsrc_metadata == {
        "1": {"data": "a", "reason": "Signal 1 received", "status": "SUCCESS"},
        "x": {"data": {"b": 2}, "reason": "Signal 2 received", "status": "SUCCESS"},
    }
    shown = service.show_output(
        context, settings, database, None, stack_identity=identity, output_key="data"
    )
    assert json.loads(shown["output_value"]) == {"1": "a", "x": {"b": 2}}


def test_signals_are_events_of_the_handle(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, waiting())
    run_for(queue, 1)

    signal(context, settings, database, identity, "handle", {"reason": "booted"})
    queue.run_until_idle()

    assert resource_events(database, "handle") == [
        ("CREATE", "IN_PROGRESS", "state changed"),
        ("CREATE", "COMPLETE", "state changed"),
        ("SIGNAL", "COMPLETE", "Signal: status:SUCCESS reason:booted"),
    ]


def test_times_out_with_heats_message(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, waiting(count=2, timeout=5))
    run_for(queue, 2)
    signal(context, settings, database, identity, "handle", None)

    queue.run_until_idle()

    reason = "WaitConditionTimeout: resources.wait: 1 of 2 received - Signal 1 received"
    assert stack_state(database, identity) == (
        "CREATE",
        "FAILED",
        f"Resource CREATE failed: {reason}",
    )
    wait = resource_row(database, identity, "wait")
    assert (wait.action, wait.status, wait.status_reason) == ("CREATE", "FAILED", reason)


def test_times_out_without_any_signal(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, waiting(timeout=3))
    started = queue.now()

    queue.run_until_idle()

    assert resource_row(database, identity, "wait").status_reason == (
        "WaitConditionTimeout: resources.wait: 0 of 1 received"
    )
    # Never slept: the clock jumped over the re-sends, one a second past the timeout.
    assert queue.now() - started == 4.0


def test_fails_on_a_failure_signal(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, waiting(count=3))
    run_for(queue, 1)
    signal(context, settings, database, identity, "handle", {"status": "SUCCESS"})
    signal(context, settings, database, identity, "handle", {"status": "FAILURE", "reason": "disk"})
    signal(context, settings, database, identity, "handle", {"status": "FAILURE", "reason": "net"})

    queue.run_until_idle()

    assert resource_row(database, identity, "wait").status_reason == (
        "WaitConditionFailure: resources.wait: disk;net"
    )
    assert stack_state(database, identity)[:2] == ("CREATE", "FAILED")


def test_a_no_signal_handle_signals_itself(context, settings, database, queue) -> None:
    template = waiting()
    template["resources"]["handle"]["properties"] = {"signal_transport": "NO_SIGNAL"}
    identity = create(context, settings, database, queue, template)

    queue.run_until_idle()

    assert stack_state(database, identity)[:2] == ("CREATE", "COMPLETE")
    assert resource_events(database, "handle")[-1] == (
        "SIGNAL",
        "COMPLETE",
        "Signal: status:SUCCESS reason:Signal 1 received",
    )


def test_a_bad_signal_is_refused_when_the_caller_waits(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, waiting())
    run_for(queue, 1)

    try:
        signal(context, settings, database, identity, "handle", {"status": "BAD"}, sync_call=True)
    except Exception as error:
        refused = str(error)
    assert refused == "ValueError: resources.handle: Metadata format invalid"
    # Not waited for, it fails quietly, as in Heat's signal thread.
    assert signal(context, settings, database, identity, "handle", {"status": "BAD"}) is None
    assert resource_row(database, identity, "handle").rsrc_metadata == {}


def test_a_handle_without_keystone_has_no_credentials(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, waiting())
    run_for(queue, 1)

    handle = resource_row(database, identity, "handle")
    assert handle.physical_resource_id is None
    stored = rows(database, ResourceData, resource_id=handle.id)
    assert [(data.key, data.redact) for data in stored] == [("password", True)]
    described = resource_service.describe_stack_resource(
        context, settings, database, None, stack_identity=identity, resource_name="handle"
    )
    assert described["attributes"] == {
        "token": None,
        "endpoint": None,
        "curl_cli": None,
        "signal": None,
    }
    assert described["physical_resource_id"] == ""


def test_the_handle_must_be_a_handle(context, settings, database, queue) -> None:
    template = waiting()
    template["resources"]["handle"] = {"type": "OS::Heat::TestResource"}
    identity = create(context, settings, database, queue, template)

    queue.run_until_idle()

    assert resource_row(database, identity, "wait").status_reason.endswith(
        "is not a valid wait condition handle."
    )


def test_an_update_of_count_waits_for_the_rest(context, settings, database, queue) -> None:
    identity = create(context, settings, database, queue, waiting(count=1))
    run_for(queue, 1)
    signal(context, settings, database, identity, "handle", {})
    queue.run_until_idle()

    update(context, settings, database, queue, identity, waiting(count=2))
    run_for(queue, 3)
    assert states(database, identity)["wait"] == ("UPDATE", "IN_PROGRESS")
    signal(context, settings, database, identity, "handle", {})
    queue.run_until_idle()

    assert stack_state(database, identity)[:2] == ("UPDATE", "COMPLETE")
    assert states(database, identity)["wait"] == ("UPDATE", "COMPLETE")


def test_an_update_handle_is_replaced_without_its_signals(
    context, settings, database, queue
) -> None:
    template = waiting(handle_type="OS::Heat::UpdateWaitConditionHandle")
    identity = create(context, settings, database, queue, template)
    run_for(queue, 1)
    cfn_signal = {"Status": "SUCCESS", "Reason": "up", "UniqueId": "1", "Data": "d"}
    signal(context, settings, database, identity, "handle", cfn_signal)
    queue.run_until_idle()
    first = resource_row(database, identity, "handle")

    update(context, settings, database, queue, identity, template)
    queue.run_until_idle()

    replacement = resource_row(database, identity, "handle")
    assert replacement.id != first.id
    assert (replacement.action, replacement.status) == ("CREATE", "COMPLETE")
    assert replacement.rsrc_metadata == {}
    assert first.rsrc_metadata == {"1": {"Status": "SUCCESS", "Reason": "up", "Data": "d"}}


def test_deleting_the_condition_clears_the_handles_signals(
    context, settings, database, queue
) -> None:
    identity = create(context, settings, database, queue, waiting())
    run_for(queue, 1)
    signal(context, settings, database, identity, "handle", {})
    queue.run_until_idle()

    update(
        context,
        settings,
        database,
        queue,
        identity,
        hot({"handle": waiting()["resources"]["handle"]}),
    )
    queue.run_until_idle()

    assert states(database, identity) == {"handle": ("CREATE", "COMPLETE")}
    assert resource_row(database, identity, "handle").rsrc_metadata == {}


def test_a_cloudformation_condition_needs_a_signed_url(context, settings, database, queue) -> None:
    template = {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            "handle": {"Type": "AWS::CloudFormation::WaitConditionHandle"},
            "wait": {
                "Type": "AWS::CloudFormation::WaitCondition",
                "Properties": {"Handle": {"Ref": "handle"}, "Timeout": 10},
            },
        },
    }
    identity = create(context, settings, database, queue, template)

    queue.run_until_idle()

    # Without Keystone the handle has no signed URL: its reference is its name.
    assert resource_row(database, identity, "wait").status_reason == (
        'ValueError: resources.wait: "handle" is not a valid URL'
    )
