"""The request context in oslo messages: ``_context_<key>`` entries beside the call.

The dictionary form itself is keel_app.common.context's (Heat's ``to_dict``); this
module only packs it into, and unpacks it from, a message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common.context import ENVELOPE_CONTEXT_PREFIX, RequestContext


def split_context(message: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The context dictionary of a message (keys unprefixed, order kept) and the rest."""
    context: dict[str, Any] = {}
    rest: dict[str, Any] = {}
    for key, value in message.items():
        if key.startswith(ENVELOPE_CONTEXT_PREFIX):
            context[key[len(ENVELOPE_CONTEXT_PREFIX) :]] = value
        else:
            rest[key] = value
    return context, rest


def pack_context(context: Mapping[str, Any] | RequestContext | None) -> dict[str, Any]:
    """The ``_context_*`` entries for a context (a RequestContext or its dictionary)."""
    if context is None:
        return {}
    values = context.to_dict() if isinstance(context, RequestContext) else context
    return {f"{ENVELOPE_CONTEXT_PREFIX}{key}": value for key, value in values.items()}


def to_request_context(context: Mapping[str, Any]) -> RequestContext:
    """Heat's RequestContext.from_dict, the way Heat's RPC server deserialises it."""
    values = dict(context)
    # Heat's serialiser carries the osprofiler trace beside the context; it is not
    # part of the context itself.
    values.pop("trace_info", None)
    return RequestContext.from_dict(values)


def notification_context(context: RequestContext) -> RequestContext:
    """The context a notification carries: oslo's ``redacted_copy`` of the caller's.

    oslo.messaging rebuilds the context from the identity fields only, so credentials
    and everything Heat adds to oslo.context (trust, auth URL, region) are dropped,
    and ``username`` falls back to ``user_name`` as in a fresh Heat context.
    """
    return RequestContext(
        user_id=context.user_id,
        project_id=context.project_id,
        domain_id=context.domain_id,
        user_domain_id=context.user_domain_id,
        project_domain_id=context.project_domain_id,
        request_id=context.request_id,
        roles=list(context.roles),
        user_name=context.user_name,
        project_name=context.project_name,
        domain_name=context.domain_name,
        user_domain_name=context.user_domain_name,
        project_domain_name=context.project_domain_name,
        global_request_id=context.global_request_id,
        system_scope=context.system_scope,
        is_admin=context.is_admin,
    )
