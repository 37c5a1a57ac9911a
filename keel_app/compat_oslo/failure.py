"""Exceptions across oslo.messaging: ``serialize_remote_exception`` and its inverse.

A failure travels as the JSON text of the failure dictionary of
``keel_app.common.exception_wire``, which decides how an exception is named for a peer
and which classes a caller rebuilds.
"""

from __future__ import annotations

from collections.abc import Collection

from keel_app.common import jsonwire
from keel_app.common.exception import HEAT_MODULE
from keel_app.common.exception_wire import RemoteError, error_from_failure, failure_data

__all__ = ["RemoteError", "deserialize_failure", "failure_data", "serialize_failure"]


def serialize_failure(error: BaseException) -> str:
    """The failure text oslo's server puts in a reply for ``error``."""
    return jsonwire.dumps(failure_data(error))


def deserialize_failure(
    failure: str, allowed_modules: Collection[str] = (HEAT_MODULE,)
) -> BaseException:
    """The exception a failure text stands for, as an oslo client rebuilds it."""
    return error_from_failure(jsonwire.loads(failure), allowed_modules)
