"""Replies to calls, as oslo.messaging's rabbit driver sends them to ``_reply_q``.

A reply is ``{"result", "failure", "ending", "_msg_id", "_unique_id"}`` in a 2.0
envelope. oslo.messaging 18 answers a call with one message (``ending`` true);
releases before it sent the result first and an ending-only message after, and a
long call may be preceded by heartbeats (no result, ``ending`` false). A waiting
client keeps the last non-null result until a message says ``ending``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from keel_app.common.exception import HEAT_MODULE
from keel_app.compat_oslo.envelope import MSG_ID_KEY, UNIQUE_ID_KEY, new_id, unwrap, wrap
from keel_app.compat_oslo.failure import deserialize_failure, serialize_failure


@dataclass
class Reply:
    msg_id: str | None
    result: Any = None
    # The serialised failure text, or None on success.
    failure: str | None = None
    ending: bool = True
    unique_id: str | None = None

    def outcome(self, allowed_modules: Collection[str] = (HEAT_MODULE,)) -> Any:
        """The result, or the exception the failure stands for (returned, not raised)."""
        if self.failure:
            return deserialize_failure(self.failure, allowed_modules)
        return self.result


def result_reply(msg_id: str, result: Any) -> Reply:
    return Reply(msg_id=msg_id, result=result, unique_id=new_id())


def failure_reply(msg_id: str, error: BaseException) -> Reply:
    return Reply(msg_id=msg_id, failure=serialize_failure(error), unique_id=new_id())


def heartbeat(msg_id: str) -> Reply:
    """The keep-alive a server sends while a call with ``_timeout`` still runs."""
    return Reply(msg_id=msg_id, ending=False, unique_id=new_id())


def reply_message(reply: Reply) -> dict[str, Any]:
    return {
        "result": reply.result,
        "failure": reply.failure,
        "ending": reply.ending,
        MSG_ID_KEY: reply.msg_id,
        UNIQUE_ID_KEY: reply.unique_id or new_id(),
    }


def encode_reply(reply: Reply) -> bytes:
    return wrap(reply_message(reply))


def decode_reply(body: bytes | str | Mapping[str, Any]) -> Reply:
    message = unwrap(body)
    return Reply(
        msg_id=message.get(MSG_ID_KEY),
        result=message.get("result"),
        failure=message.get("failure"),
        ending=bool(message.get("ending", False)),
        unique_id=message.get(UNIQUE_ID_KEY),
    )


def final_outcome(
    replies: Iterable[Reply], allowed_modules: Collection[str] = (HEAT_MODULE,)
) -> tuple[bool, Any]:
    """(ended, outcome) of the replies to one call, read as oslo's reply waiter reads
    them; the outcome is an exception instance when the call failed."""
    outcome: Any = None
    for reply in replies:
        value = reply.outcome(allowed_modules)
        if value is not None:
            outcome = value
        if reply.ending:
            return True, outcome
    return False, outcome
