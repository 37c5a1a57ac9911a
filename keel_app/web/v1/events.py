"""A stack's events (``/events``), one resource's (``/resources/<name>/events``) and one
event, below ``/<tenant_id>/stacks/<stack_name>/<stack_id>``."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from keel_app.common.fault_map import NOT_FOUND
from keel_app.common.identifier import EventIdentifier, HeatIdentifier
from keel_app.web.faults import HttpFault
from keel_app.web.routing import Route
from keel_app.web.v1 import stack_params, util
from keel_app.web.v1.stack_dispatch import refuse_body, resource_call

SCOPE = "events"
# What a listing shows of each event; ``show`` shows everything.
SUMMARY_KEYS = (
    "event_identity",
    "event_time",
    "resource_name",
    "resource_status",
    "resource_status_reason",
    "physical_resource_id",
)
LIST_PARAMS = {
    "limit": util.SINGLE,
    "marker": util.SINGLE,
    "sort_dir": util.SINGLE,
    "sort_keys": util.MULTI,
    "nested_depth": util.SINGLE,
}
FILTERS = dict.fromkeys(
    ("resource_status", "resource_action", "resource_name", "resource_type"), util.MIXED
)
INTEGER_PARAMS = ("limit", "nested_depth")
HIDDEN_KEYS = ("stack_identity", "stack_name", "resource_action")


def format_event(event: Mapping[str, Any], keys: Sequence[str] | None = None) -> dict[str, Any]:
    """The engine's event document as the API shows it, keys in the engine's order."""

    def transform(key: str, value: Any) -> Iterator[tuple[str, Any]]:
        if keys and key not in keys:
            return
        if key == "event_identity":
            identity = EventIdentifier(**value)
            yield "id", identity.event_id
            yield (
                "links",
                [
                    util.make_link(identity),
                    util.make_link(identity.resource(), "resource"),
                    util.make_link(identity.stack(), "stack"),
                ],
            )
        elif key in HIDDEN_KEYS:
            return
        elif key == "resource_status" and "resource_action" in event:
            yield key, f"{event['resource_action']}_{value}"
        elif key == "resource_name":
            yield "logical_resource_id", value
            yield key, value
        else:
            yield key, value

    shown = dict(itertools.chain.from_iterable(transform(k, v) for k, v in event.items()))
    root_stack = event.get("root_stack_id")
    if root_stack:
        shown["links"].append(util.make_link(HeatIdentifier(**root_stack), "root_stack"))
    return shown


def event_list(
    identity: dict[str, Any], detail: bool = False, **arguments: Any
) -> list[dict[str, Any]]:
    found = util.engine().list_events(util.context(), identity, **arguments)
    keys = None if detail else SUMMARY_KEYS
    return [format_event(event, keys) for event in found]


def _index(identity: dict[str, Any], resource_name: str | None) -> dict[str, Any]:
    refuse_body()
    params = util.allowed_params(LIST_PARAMS)
    filters: dict[str, Any] | None = util.allowed_params(FILTERS)
    for key in INTEGER_PARAMS:
        if key in params:
            params[key] = stack_params.extract_int(key, params[key], allow_zero=True)
    if resource_name is None:
        filters = filters or None
    else:
        assert filters is not None
        filters["resource_name"] = resource_name
    events = event_list(identity, filters=filters, **params)
    if not events and resource_name is not None:
        raise HttpFault(NOT_FOUND, f"No events found for resource {resource_name}")
    return {"events": events}


@resource_call
@util.identified_stack(SCOPE, "index")
def stack_index(identity: dict[str, Any]) -> dict[str, Any]:
    return _index(identity, None)


@resource_call
@util.identified_stack(SCOPE, "index")
def resource_index(identity: dict[str, Any], resource_name: str) -> dict[str, Any]:
    return _index(identity, resource_name)


@resource_call
@util.identified_stack(SCOPE, "show")
def show(identity: dict[str, Any], resource_name: str, event_id: str) -> dict[str, Any]:
    refuse_body()
    filters = {"resource_name": resource_name, "uuid": event_id}
    events = event_list(identity, detail=True, filters=filters)
    if not events:
        raise HttpFault(NOT_FOUND, f"No event {event_id} found")
    return {"event": events[0]}


def routes() -> list[Route]:
    stack = "/<tenant_id>/stacks/<stack_name>/<stack_id>"
    resource_events = stack + "/resources/<resource_name>/events"
    return [
        Route(stack + "/events", "event_index_stack", stack_index, ["GET"]),
        Route(resource_events, "event_index_resource", resource_index, ["GET"]),
        Route(resource_events + "/<event_id>", "event_show", show, ["GET"]),
    ]
