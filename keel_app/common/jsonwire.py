"""JSON as oslo.messaging writes it on the wire.

oslo serialises the message with ``json.dumps`` defaults (", " and ": " separators,
ASCII escapes) and kombu serialises the envelope the same way, so matching those
defaults makes our frames byte-identical to theirs. Our own RPC (``keel_app.rpc``)
gives its arguments and replies the same shape, whichever transport carries them.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

# oslo_serialization's to_primitive writes datetimes in this form.
DATETIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%f"


def _primitive(value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return value.strftime(DATETIME_FORMAT)
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    # Whatever else reaches the wire (an HTTP error object in validate_template's
    # quirk) travels as its text, as oslo's serialiser sends it.
    return str(value)


def dumps(value: Any) -> str:
    return json.dumps(value, default=_primitive)


def loads(text: str | bytes) -> Any:
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return json.loads(text)


def to_primitive(value: Any) -> Any:
    """``value`` as it comes out of the wire: what a peer's ``loads(dumps(value))`` gives."""
    return loads(dumps(value))
