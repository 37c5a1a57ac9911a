"""The reply both transports carry: JSON values, and failures that re-raise."""

from __future__ import annotations

import datetime

import pytest

from keel_app.common import exception
from keel_app.common.exception_wire import RemoteError
from keel_app.rpc import reply


def test_result_is_what_json_gives_back() -> None:
    value = {
        "when": datetime.datetime(2026, 10, 29, 12, 30, 1, 250),
        "pair": ("a", 1),
        "ids": {3: "three"},
    }

    assert reply.outcome(reply.result_reply(value)) == {
        "when": "2026-10-29T12:30:01.000250",
        "pair": ["a", 1],
        "ids": {"3": "three"},
    }


def test_none_result() -> None:
    assert reply.outcome(reply.result_reply(None)) is None


def test_failure_names_heats_class_and_module() -> None:
    failure = reply.failure_reply(exception.EntityNotFound(entity="Stack", name="web"))["failure"]

    assert (failure["class"], failure["module"], failure["message"], failure["kwargs"]) == (
        "EntityNotFound",
        "heat.common.exception",
        "The Stack (web) could not be found.",
        {"entity": "Stack", "name": "web"},
    )


def test_heat_error_its_class_cannot_rebuild_is_a_remote_error() -> None:
    # ResourceFailure's constructor takes no formatted keywords: oslo's client gives up
    # rebuilding it and answers a RemoteError, so does ours.
    error = exception.ResourceFailure(ValueError("bad value"), None, action="CREATE")

    with pytest.raises(RemoteError) as raised:
        reply.outcome(reply.failure_reply(error))

    assert (raised.value.exc_type, raised.value.value) == (
        "ResourceFailure",
        "ValueError: bad value",
    )


def test_error_with_a_path_prints_the_sent_text_and_reformats_its_message() -> None:
    sent = exception.StackValidationFailed(
        error="Property error", path=["resources", "v", "properties"], message="bad"
    )

    with pytest.raises(exception.StackValidationFailed) as raised:
        reply.outcome(reply.failure_reply(sent))

    assert str(raised.value) == "Property error: resources.v.properties: bad"
    assert raised.value.message == "Property error: : resources.v.properties: : bad"
