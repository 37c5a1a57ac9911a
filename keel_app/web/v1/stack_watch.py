"""``GET /<tenant_id>/stacks/<name>/<id>/watch``: a stack's progress as server-sent events.

An OpenKeel extension (Heat has no such route) for the stack view and other live
clients. One connection replaces a client's polling: the API reads the stack, its
resources (nested ones down to ``nested_depth``, 3 by default) and its new events every
half second, and sends an ``event: progress`` whose data is
``{"stack": …, "resources": […], "events": […]}`` (the documents the API's own routes
show) whenever something changed, a comment line as a keep-alive otherwise. The stream
ends a few reads after the stack's action has ended; the client connects again to
follow the next action. Authentication and policy are those of the resource list.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import flask

from keel_app.web.routing import Route
from keel_app.web.v1 import stack_params, util
from keel_app.web.v1.events import format_event
from keel_app.web.v1.resources import format_resource

POLL_SECONDS = 0.5
KEEP_ALIVE_SECONDS = 15.0
# Reads after the action ended before the stream closes: late events still arrive.
READS_AFTER_THE_END = 4
EVENTS_A_READ = 500
DEFAULT_NESTED_DEPTH = 3


def _stack_summary(stack: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": stack["stack_identity"]["stack_id"],
        "stack_name": stack["stack_name"],
        "stack_status": f"{stack['stack_action']}_{stack['stack_status']}",
        "stack_status_reason": stack.get("stack_status_reason"),
    }


def progress_events(identity: dict[str, Any], nested_depth: int) -> Iterator[str]:
    """The stream's text: a progress event for each change, keep-alives between."""
    engine, context = util.engine(), util.context()
    last_state: str | None = None
    last_event_id: str | None = None
    quiet_since = time.monotonic()
    reads_after_the_end = 0
    while reads_after_the_end < READS_AFTER_THE_END:
        stack = engine.show_stack(context, identity, resolve_outputs=False)[0]
        resources = engine.list_stack_resources(context, identity, nested_depth, False)
        events = engine.list_events(
            context,
            identity,
            limit=EVENTS_A_READ,
            marker=last_event_id,
            sort_keys=["created_at"],
            sort_dir="asc",
            nested_depth=nested_depth,
        )
        state = {
            "stack": _stack_summary(stack),
            "resources": [format_resource(resource) for resource in resources],
        }
        state_text = json.dumps(state, sort_keys=True)
        if state_text != last_state or events:
            last_state = state_text
            quiet_since = time.monotonic()
            shown_events = [format_event(event) for event in events]
            if shown_events:
                last_event_id = shown_events[-1]["id"]
            yield f"event: progress\ndata: {json.dumps({**state, 'events': shown_events})}\n\n"
        elif time.monotonic() - quiet_since > KEEP_ALIVE_SECONDS:
            quiet_since = time.monotonic()
            yield ": still watching\n\n"
        if stack["stack_status"] != "IN_PROGRESS":
            reads_after_the_end += 1
        time.sleep(POLL_SECONDS)


@util.identified_stack("resource", "index")
def watch(identity: dict[str, Any]) -> flask.Response:
    nested_depth = DEFAULT_NESTED_DEPTH
    if "nested_depth" in flask.request.args:
        nested_depth = stack_params.extract_int(
            "nested_depth", util.query_value("nested_depth"), allow_zero=True
        )
    # The first read happens here, so an unknown stack answers as the API's 404 does.
    stream = progress_events(identity, nested_depth)
    first = next(stream)

    def body() -> Iterator[str]:
        yield first
        yield from stream

    return flask.Response(
        flask.stream_with_context(body()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def routes() -> list[Route]:
    stack = "/<tenant_id>/stacks/<stack_name>/<stack_id>"
    return [Route(stack + "/watch", "stack_watch", watch, ["GET"])]
