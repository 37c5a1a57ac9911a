"""heat-api v1 routes of a stack's snapshots and outputs (Heat's ``StackController``)."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from keel_app.web.routing import Route
from keel_app.web.v1 import util
from keel_app.web.v1.stack_dispatch import call, refuse_body, required_body, resource_call
from keel_app.web.v1.stack_responses import accepted, json_response, no_content

SCOPE = "stacks"


@resource_call
@util.identified_stack(SCOPE, "snapshot")
def snapshot(identity: dict[str, str]) -> Response:
    name = required_body().get("name")
    return json_response(call("stack_snapshot", stack_identity=identity, name=name))


@resource_call
@util.identified_stack(SCOPE, "show_snapshot")
def show_snapshot(identity: dict[str, str], snapshot_id: str) -> dict[str, Any]:
    refuse_body()
    found = call("show_snapshot", stack_identity=identity, snapshot_id=snapshot_id)
    return {"snapshot": found}


@resource_call
@util.identified_stack(SCOPE, "delete_snapshot")
def delete_snapshot(identity: dict[str, str], snapshot_id: str) -> Response:
    refuse_body()
    call("delete_snapshot", stack_identity=identity, snapshot_id=snapshot_id)
    return no_content()


@resource_call
@util.identified_stack(SCOPE, "list_snapshots")
def list_snapshots(identity: dict[str, str]) -> dict[str, Any]:
    refuse_body()
    return {"snapshots": call("stack_list_snapshots", stack_identity=identity)}


@resource_call
@util.identified_stack(SCOPE, "restore_snapshot")
def restore_snapshot(identity: dict[str, str], snapshot_id: str) -> Response:
    refuse_body()
    call("stack_restore", stack_identity=identity, snapshot_id=snapshot_id)
    return accepted()


@resource_call
@util.identified_stack(SCOPE, "list_outputs")
def list_outputs(identity: dict[str, str]) -> dict[str, Any]:
    refuse_body()
    return {"outputs": call("list_outputs", stack_identity=identity)}


@resource_call
@util.identified_stack(SCOPE, "show_output")
def show_output(identity: dict[str, str], output_key: str) -> dict[str, Any]:
    refuse_body()
    return {"output": call("show_output", stack_identity=identity, output_key=output_key)}


def routes(stack_url: str) -> list[Route]:
    snapshots = stack_url + "/snapshots"
    one_snapshot = snapshots + "/<snapshot_id>"
    outputs = stack_url + "/outputs"
    return [
        Route(snapshots, "stack_snapshot", snapshot, ["POST"]),
        Route(one_snapshot, "stack_snapshot_show", show_snapshot, ["GET"]),
        Route(one_snapshot, "stack_snapshot_delete", delete_snapshot, ["DELETE"]),
        Route(snapshots, "stack_list_snapshots", list_snapshots, ["GET"]),
        Route(one_snapshot + "/restore", "stack_snapshot_restore", restore_snapshot, ["POST"]),
        Route(outputs, "stack_output_list", list_outputs, ["GET"]),
        Route(outputs + "/<output_key>", "stack_output_show", show_output, ["GET"]),
    ]
