"""heat-api v1 route of Heat's ``ActionController``: ``POST .../actions`` with a body of
exactly one action (suspend, resume, check, cancel_update, cancel_without_rollback).

The body is judged before anything else; each action then has its own project check
and policy (``actions:<action>``). Heat answers a performed action with JSON ``null``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.wrappers import Response

from keel_app.common.fault_map import BAD_REQUEST
from keel_app.web import request_body
from keel_app.web.faults import HttpFault
from keel_app.web.routing import Route
from keel_app.web.v1 import util
from keel_app.web.v1.stack_dispatch import call, resource_call
from keel_app.web.v1.stack_responses import json_response

SCOPE = "actions"


def engine_action(action: str, method: str, **arguments: Any) -> Callable[..., Any]:
    @util.identified_stack(SCOPE, action)
    def perform(identity: dict[str, str]) -> None:
        call(method, stack_identity=identity, **arguments)

    perform.__name__ = action
    return perform


ACTIONS: dict[str, Callable[..., Any]] = {
    "suspend": engine_action("suspend", "stack_suspend"),
    "resume": engine_action("resume", "stack_resume"),
    "check": engine_action("check", "stack_check"),
    "cancel_update": engine_action(
        "cancel_update", "stack_cancel_update", cancel_with_rollback=True
    ),
    "cancel_without_rollback": engine_action(
        "cancel_without_rollback", "stack_cancel_update", cancel_with_rollback=False
    ),
}


@resource_call
def action(tenant_id: str, stack_name: str, stack_id: str) -> Response:
    body = request_body.body() or {}
    if len(body) < 1:
        raise HttpFault(BAD_REQUEST, "No action specified")
    if len(body) > 1:
        raise HttpFault(BAD_REQUEST, "Multiple actions specified")
    name = next(iter(body))
    if name not in ACTIONS:
        raise HttpFault(BAD_REQUEST, f"Invalid action {name} specified")
    ACTIONS[name](tenant_id=tenant_id, stack_name=stack_name, stack_id=stack_id)
    return json_response(None)


def routes() -> list[Route]:
    return [
        Route(
            "/<tenant_id>/stacks/<stack_name>/<stack_id>/actions", "action_stack", action, ["POST"]
        )
    ]
