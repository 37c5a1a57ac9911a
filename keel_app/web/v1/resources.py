"""``/<tenant_id>/stacks/<stack_name>/<stack_id>/resources``: a stack's resources (with
nested ones, details and filters), one resource, its metadata, a signal to it, and
marking it (un)healthy."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

import flask
from werkzeug.wrappers import Response

from keel_app.common.fault_map import BAD_REQUEST
from keel_app.common.identifier import HeatIdentifier, ResourceIdentifier
from keel_app.web import request_body
from keel_app.web.faults import HttpFault
from keel_app.web.routing import Route
from keel_app.web.v1 import stack_params, stack_responses, util
from keel_app.web.v1.stack_dispatch import refuse_body, required_body, resource_call

SCOPE = "resource"
FILTERS = dict.fromkeys(
    ("type", "status", "name", "action", "id", "physical_resource_id"), util.MIXED
)
NESTED_DEPTH = "nested_depth"
WITH_DETAIL = "with_detail"
MARK_UNHEALTHY = "mark_unhealthy"
STATUS_REASON = "resource_status_reason"
# Keys of the engine's resource document the API leaves out (the action is folded into
# the status, the identities become links).
HIDDEN_KEYS = ("stack_name", "stack_identity", "resource_action", "nested_stack_id", "metadata")


def format_resource(resource: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's resource document as the API shows it, keys in the engine's order."""

    def transform(key: str, value: Any) -> Iterator[tuple[str, Any]]:
        if key == "resource_identity":
            identity = ResourceIdentifier(**value)
            links = [util.make_link(identity), util.make_link(identity.stack(), "stack")]
            nested = resource.get("nested_stack_id")
            if nested:
                links.append(util.make_link(HeatIdentifier(**nested), "nested"))
            yield "links", links
        elif key in HIDDEN_KEYS:
            return
        elif key == "resource_status" and "resource_action" in resource:
            yield key, f"{resource['resource_action']}_{value}"
        elif key == "resource_name":
            yield "logical_resource_id", value
            yield key, value
        else:
            yield key, value

    return dict(itertools.chain.from_iterable(transform(k, v) for k, v in resource.items()))


@resource_call
@util.identified_stack(SCOPE, "index")
def index(identity: dict[str, Any]) -> dict[str, Any]:
    refuse_body()
    known = {*FILTERS, NESTED_DEPTH, WITH_DETAIL}
    invalid = [key for key in dict.fromkeys(flask.request.args) if key not in known]
    if invalid:
        raise HttpFault(BAD_REQUEST, f"Invalid filter parameters {invalid}")
    nested_depth: Any = 0
    if NESTED_DEPTH in flask.request.args:
        nested_depth = stack_params.extract_int(NESTED_DEPTH, util.query_value(NESTED_DEPTH))
    with_detail = False
    if WITH_DETAIL in flask.request.args:
        with_detail = stack_params.extract_bool(WITH_DETAIL, util.query_value(WITH_DETAIL))
    found = util.engine().list_stack_resources(
        util.context(),
        identity,
        nested_depth,
        with_detail,
        filters=util.allowed_params(FILTERS),
    )
    return {"resources": [format_resource(resource) for resource in found]}


@resource_call
@util.identified_stack(SCOPE, "show")
def show(identity: dict[str, Any], resource_name: str) -> dict[str, Any]:
    refuse_body()
    with_attr = util.allowed_params({"with_attr": util.MULTI}).get("with_attr")
    found = util.engine().describe_stack_resource(
        util.context(), identity, resource_name, with_attr=with_attr
    )
    return {"resource": format_resource(found)}


@resource_call
@util.identified_stack(SCOPE, "metadata")
def metadata(identity: dict[str, Any], resource_name: str) -> dict[str, Any]:
    refuse_body()
    found = util.engine().describe_stack_resource(util.context(), identity, resource_name)
    return {"metadata": found["metadata"]}


@resource_call
@util.identified_stack(SCOPE, "signal")
def signal(identity: dict[str, Any], resource_name: str) -> Response:
    util.engine().resource_signal(
        util.context(),
        stack_identity=identity,
        resource_name=resource_name,
        details=request_body.body(),
    )
    return stack_responses.json_response(None)


@resource_call
@util.identified_stack(SCOPE, "mark_unhealthy")
def mark_unhealthy(identity: dict[str, Any], resource_name: str) -> Response:
    body = required_body()
    invalid = set(body) - {MARK_UNHEALTHY, STATUS_REASON}
    if invalid:
        raise HttpFault(BAD_REQUEST, f"Invalid keys in resource mark unhealthy {invalid}")
    if MARK_UNHEALTHY not in body:
        raise HttpFault(
            BAD_REQUEST,
            f"Missing mandatory ({MARK_UNHEALTHY}) key from mark unhealthy request",
        )
    util.engine().resource_mark_unhealthy(
        util.context(),
        stack_identity=identity,
        resource_name=resource_name,
        mark_unhealthy=stack_params.extract_bool(MARK_UNHEALTHY, body[MARK_UNHEALTHY]),
        resource_status_reason=body.get(STATUS_REASON, ""),
    )
    return stack_responses.json_response(None)


def routes() -> list[Route]:
    resources = "/<tenant_id>/stacks/<stack_name>/<stack_id>/resources"
    resource = resources + "/<resource_name>"
    return [
        Route(resources, "resource_index", index, ["GET"]),
        Route(resource, "resource_show", show, ["GET"]),
        Route(resource + "/metadata", "resource_metadata_show", metadata, ["GET"]),
        Route(resource + "/signal", "resource_signal", signal, ["POST"]),
        Route(resource, "resource_mark_unhealthy", mark_unhealthy, ["PATCH"]),
    ]
