"""oslo.messaging's message envelope (2.0) around an RPC call or cast.

On the wire a request is ``{"oslo.version": "2.0", "oslo.message": "<JSON text>"}``;
peers from before the envelope send the message dictionary itself, and both are
accepted. Inside, beside ``method``/``args``/``namespace``/``version``, the rabbit
driver adds ``_msg_id``, ``_reply_q`` and ``_timeout`` to a call, ``_unique_id`` to
every message, and the context as ``_context_*`` entries.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from keel_app.common import jsonwire
from keel_app.common.context import RequestContext
from keel_app.compat_oslo.context import pack_context, split_context, to_request_context
from keel_app.compat_oslo.versions import version_is_compatible

ENVELOPE_VERSION = "2.0"
VERSION_KEY = "oslo.version"
MESSAGE_KEY = "oslo.message"

MSG_ID_KEY = "_msg_id"
REPLY_QUEUE_KEY = "_reply_q"
TIMEOUT_KEY = "_timeout"
UNIQUE_ID_KEY = "_unique_id"


class UnsupportedEnvelopeVersion(ValueError):
    def __init__(self, version: str) -> None:
        super().__init__(
            f"Specified RPC envelope version, {version}, not supported by this endpoint."
        )
        self.version = version


class NotACall(ValueError):
    """A message that names no method: nothing to dispatch."""


@dataclass
class Call:
    """One RPC request: a call when it names a reply queue, a cast otherwise."""

    method: str
    args: dict[str, Any] = field(default_factory=dict)
    # None when the sender gave none; the dispatcher then assumes "1.0".
    version: str | None = None
    namespace: str | None = None
    context: dict[str, Any] = field(default_factory=dict)
    msg_id: str | None = None
    reply_queue: str | None = None
    # The caller's call-monitor timeout: heartbeats are due when it is set.
    timeout: float | None = None
    unique_id: str | None = None

    @property
    def is_call(self) -> bool:
        return self.msg_id is not None

    def request_context(self) -> RequestContext:
        return to_request_context(self.context)


def new_id() -> str:
    return uuid.uuid4().hex


def unwrap(body: bytes | str | Mapping[str, Any]) -> Any:
    """The message inside a frame body: the envelope opened, or the body as it came."""
    message = jsonwire.loads(body) if isinstance(body, bytes | str) else body
    if not isinstance(message, Mapping) or not (VERSION_KEY in message and MESSAGE_KEY in message):
        return message
    if not _envelope_version_supported(str(message[VERSION_KEY])):
        raise UnsupportedEnvelopeVersion(str(message[VERSION_KEY]))
    return jsonwire.loads(message[MESSAGE_KEY])


def wrap(message: Mapping[str, Any]) -> bytes:
    """A frame body holding ``message`` in a 2.0 envelope."""
    envelope = {VERSION_KEY: ENVELOPE_VERSION, MESSAGE_KEY: jsonwire.dumps(message)}
    return jsonwire.dumps(envelope).encode("utf-8")


def _envelope_version_supported(version: str) -> bool:
    try:
        return version_is_compatible(ENVELOPE_VERSION, version)
    except (ValueError, IndexError):
        return False


def decode_call(body: bytes | str | Mapping[str, Any]) -> Call:
    message = unwrap(body)
    if not isinstance(message, Mapping) or "method" not in message:
        raise NotACall("the message names no method")
    context, rest = split_context(message)
    return Call(
        method=rest["method"],
        args=dict(rest.get("args") or {}),
        version=rest.get("version"),
        namespace=rest.get("namespace"),
        context=context,
        msg_id=rest.get(MSG_ID_KEY),
        reply_queue=rest.get(REPLY_QUEUE_KEY),
        timeout=rest.get(TIMEOUT_KEY),
        unique_id=rest.get(UNIQUE_ID_KEY),
    )


def call_message(call: Call) -> dict[str, Any]:
    """The message dictionary oslo's RPCClient builds, keys in its order."""
    message: dict[str, Any] = {"method": call.method, "args": call.args}
    if call.namespace is not None:
        message["namespace"] = call.namespace
    if call.version is not None:
        message["version"] = call.version
    if call.is_call:
        message[MSG_ID_KEY] = call.msg_id
        message[REPLY_QUEUE_KEY] = call.reply_queue
        message[TIMEOUT_KEY] = call.timeout
    message[UNIQUE_ID_KEY] = call.unique_id or new_id()
    message.update(pack_context(call.context))
    return message


def encode_call(call: Call) -> bytes:
    return wrap(call_message(call))


def make_call(
    context: RequestContext | Mapping[str, Any],
    method: str,
    args: Mapping[str, Any],
    *,
    version: str | None = None,
    reply_queue: str | None = None,
    timeout: float | None = None,
) -> Call:
    """A new request as a client sends it: a call when a reply queue is given."""
    values = context.to_dict() if isinstance(context, RequestContext) else dict(context)
    return Call(
        method=method,
        args=dict(args),
        version=version,
        context=values,
        msg_id=new_id() if reply_queue else None,
        reply_queue=reply_queue,
        timeout=timeout,
        unique_id=new_id(),
    )


def frame_properties(timeout: float | None = None) -> dict[str, Any]:
    """The AMQP properties oslo's rabbit driver publishes with (kombu's defaults).

    A call or cast sent with a timeout expires from the queue after it, in ms.
    """
    properties: dict[str, Any] = {
        "content_type": "application/json",
        "content_encoding": "utf-8",
        "delivery_mode": 2,
        "priority": 0,
    }
    if timeout is not None:
        properties["expiration"] = str(int(timeout * 1000))
    return properties


def topic_routing_key(topic: str, server: str | None = None) -> str:
    """The routing key on the control exchange: the topic, or ``<topic>.<server>``."""
    return f"{topic}.{server}" if server else topic
