"""The golden frames captured from Heat 27.0.1 by fixtures/make_golden.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"

CALLS = ("call_list_stacks", "call_show_stack", "call_create_stack", "cast_check_resource")
REPLIES = (
    "reply_list_stacks",
    "reply_entity_not_found",
    "reply_remote_error",
    "reply_builtin_error",
    "reply_unsupported_version",
    "reply_unsupported_major",
)


def load(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def body(name: str) -> bytes:
    return load(name)["body"].encode("utf-8")


def inner(frame_body: str | bytes) -> dict[str, Any]:
    """The message inside a frame's envelope."""
    return json.loads(json.loads(frame_body)["oslo.message"])


def reply_frame(name: str) -> dict[str, Any]:
    (frame,) = load(name)["replies"]
    return frame


def failure_of(name: str) -> dict[str, Any]:
    return json.loads(inner(reply_frame(name)["body"])["failure"])
