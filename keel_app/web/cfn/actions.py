"""heat-api-cfn's routes: the query actions on ``/``, the stack resource URLs, the signals.

``/`` serves every method; its ``Action`` parameter names the action, and a missing or
unknown one is ``InvalidAction``. The RESTful ``/stacks`` URLs Heat's router also
connects (with an optional ``.<format>`` suffix) lead to the same controller:
``POST /stacks`` creates a stack, the other reads name no action. The answer is XML
unless the parameter ``ContentType`` is ``JSON``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flask
from werkzeug.wrappers import Response

from keel_app.web import plain_errors
from keel_app.web.cfn import errors, resources, serialization, signal, stacks
from keel_app.web.cfn.parameters import request_parameters
from keel_app.web.routing import DeclaredMethodsRule

ACTIONS: dict[str, Callable[[], Any]] = {
    "ListStacks": stacks.list_stacks,
    "CreateStack": stacks.create_stack,
    "DescribeStacks": stacks.describe_stacks,
    "DeleteStack": stacks.delete_stack,
    "UpdateStack": stacks.update_stack,
    "CancelUpdateStack": stacks.cancel_update_stack,
    "DescribeStackEvents": resources.describe_stack_events,
    "ValidateTemplate": stacks.validate_template,
    "GetTemplate": stacks.get_template,
    "EstimateTemplateCost": stacks.estimate_template_cost,
    "DescribeStackResource": resources.describe_stack_resource,
    "DescribeStackResources": resources.describe_stack_resources,
    "ListStackResources": resources.list_stack_resources,
}

JSON_FORMAT = "JSON"


def no_action(**_url_values: Any) -> Any:
    raise errors.HeatInvalidActionError()


def malformed(**_url_values: Any) -> Response:
    # Heat's controller has no method for these URLs' arguments: a malformed request.
    return plain_errors.bad_request(flask.request.headers.get("Accept", ""))


def answer(result: Any) -> Response:
    """A view's result as Heat's serializers write it."""
    if isinstance(result, Response):
        return result
    as_json = request_parameters().get("ContentType") == JSON_FORMAT
    if isinstance(result, errors.CfnError):
        if as_json:
            # Heat's JSON serializer writes a returned error as its text, with a 200.
            return serialization.json_response(str(result))
        return serialization.xml_response(result.body(), result.code)
    if as_json:
        return serialization.json_response(result)
    if result is None:
        # Heat's XML serializer fails on nothing, and webob answers its empty default.
        return Response(b"", status=200, headers={"Content-Type": "text/html; charset=UTF-8"})
    return serialization.xml_response(result)


def answering(view: Callable[..., Any]) -> Callable[..., Response]:
    def serve(**url_values: Any) -> Response:
        # A ".<format>" suffix of the URL (Heat's router allows one) changes nothing.
        url_values.pop("format", None)
        return answer(view(**url_values))

    serve.__name__ = view.__name__
    return serve


def dispatch_action() -> Any:
    action = ACTIONS.get(request_parameters().get("Action"))
    if action is None:
        raise errors.HeatInvalidActionError()
    return action()


# (rule, endpoint, view, methods); None serves every method.
ROUTES: list[tuple[str, str, Callable[..., Any], list[str] | None]] = [
    ("/stacks/detail", "stacks_detail", no_action, ["GET"]),
    ("/stacks", "stacks_create", stacks.create_stack, ["POST"]),
    ("/stacks.<format>", "stacks_create_format", stacks.create_stack, ["POST"]),
    ("/stacks", "stacks_index", no_action, ["GET"]),
    ("/stacks.<format>", "stacks_index_format", no_action, ["GET"]),
    ("/stacks/new", "stacks_new", no_action, ["GET"]),
    ("/stacks/<stack_id>/edit", "stacks_edit", no_action, ["GET"]),
    ("/stacks/<stack_id>/edit.<format>", "stacks_edit_format", no_action, ["GET"]),
    ("/stacks/<stack_id>", "stacks_show", no_action, ["GET"]),
    ("/stacks/<stack_id>", "stacks_member", malformed, ["PUT", "DELETE"]),
    ("/", "action", dispatch_action, None),
    ("/waitcondition/<path:arn>", "waitcondition", signal.update_waitcondition, ["PUT"]),
    ("/signal/<path:arn>", "signal", signal.signal, ["POST"]),
]


def install(app: flask.Flask) -> None:
    for url, endpoint, view, methods in ROUTES:
        # Declared methods only: heat-api-cfn's router does not answer HEAD for GET.
        app.url_map.add(DeclaredMethodsRule(url, endpoint=endpoint, methods=methods))
        app.view_functions[endpoint] = answering(view)
