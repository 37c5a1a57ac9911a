"""A call's reply as both transports carry it: ``{"result": value}`` or ``{"failure": f}``.

Values are JSON primitives (``keel_app.common.jsonwire``), the failure is the dictionary
of ``keel_app.common.exception_wire``, so the local transport answers exactly what a
reply that crossed the broker answers: tuples as lists, datetimes as text, Heat's
exceptions rebuilt as the same class with the same message, others as RemoteError.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common import jsonwire
from keel_app.common.exception_wire import error_from_failure, failure_data

RESULT = "result"
FAILURE = "failure"


def result_reply(value: Any) -> dict[str, Any]:
    return {RESULT: jsonwire.to_primitive(value)}


def failure_reply(error: BaseException) -> dict[str, Any]:
    return {FAILURE: jsonwire.to_primitive(failure_data(error))}


def outcome(reply: Mapping[str, Any]) -> Any:
    """The reply's result, or its failure raised as the exception it stands for."""
    failure = reply.get(FAILURE)
    if failure:
        raise error_from_failure(failure)
    return reply.get(RESULT)
