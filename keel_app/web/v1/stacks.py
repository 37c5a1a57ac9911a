"""heat-api v1 routes of Heat's ``StackController``: the stack collection, lookups, and
each stack's show, update, delete, abandon, export and stored inputs.

Snapshots and outputs live in ``stack_snapshots``; the catalog routes of the same
controller (validate, resource types, template versions) in ``catalog``. The answers
are Heat's: 201 with ``Location`` for a create, webob's generated 202/204/302 bodies,
400s with Heat's messages for bad query strings and bodies.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import flask
from werkzeug.wrappers import Response

from keel_app.common.context import admin_context
from keel_app.common.fault_map import FORBIDDEN, INTERNAL_SERVER_ERROR
from keel_app.common.identifier import HeatIdentifier
from keel_app.web import policy
from keel_app.web.faults import HttpFault
from keel_app.web.routing import Route
from keel_app.web.v1 import stack_params, stack_snapshots, stack_view, util
from keel_app.web.v1.instantiation import InstantiationData
from keel_app.web.v1.stack_dispatch import call, refuse_body, required_body, resource_call
from keel_app.web.v1.stack_responses import accepted, found, json_response, no_content

SCOPE = "stacks"
COLLECTION = "/<tenant_id>/stacks"
STACK = COLLECTION + "/<stack_name>/<stack_id>"
# The stack's sub-collections a lookup by name redirects to (Heat's route patterns).
LOOKUP_GET_PATHS = "resources,events,template,actions,environment,files"
LOOKUP_POST_PATHS = "resources,events,template,actions"
LOOKUP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def instantiation_data(body: dict[str, Any], patch: bool = False) -> InstantiationData:
    return InstantiationData(body, flask.current_app.config["HEAT_CONF"], patch=patch)


# The collection


def listing(context: Any) -> dict[str, Any]:
    arguments = stack_params.index_arguments()
    engine = util.engine()
    stacks = engine.list_stacks(context, filters=arguments.filters, **arguments.listing)
    count = None
    if arguments.with_count:
        count = engine.count_stacks(context, **arguments.count_arguments())
    return stack_view.collection(stacks, count, include_project=bool(context.is_admin))


@util.policy_checked(SCOPE, "global_index")
def global_index() -> dict[str, Any]:
    # Every project's stacks: the engine is asked with an admin context of no project.
    return listing(admin_context())


@resource_call
@util.policy_checked(SCOPE, "index")
def index() -> dict[str, Any]:
    refuse_body()
    if stack_params.optional_bool(stack_params.GLOBAL_TENANT):
        return global_index(tenant_id=util.context().project_id)
    return listing(util.context())


@resource_call
@util.policy_checked(SCOPE, "detail")
def detail() -> dict[str, Any]:
    refuse_body()
    stacks = util.engine().list_stacks(util.context())
    return {"stacks": [stack_view.format_stack(stack) for stack in stacks]}


@resource_call
@util.policy_checked(SCOPE, "create")
def create() -> Response:
    data = instantiation_data(required_body())
    args = data.prepared_args()
    identity = call(
        "create_stack",
        stack_name=data.stack_name(),
        **data.engine_arguments(),
        args=args,
        **data.environment_arguments(),
    )
    body = {"stack": stack_view.format_stack({stack_view.STACK_IDENTITY: identity})}
    return json_response(body, 201, {"Location": body["stack"]["links"][0]["href"]})


@resource_call
@util.policy_checked(SCOPE, "preview")
def preview() -> dict[str, Any]:
    data = instantiation_data(required_body())
    args = data.prepared_args()
    result = call(
        "preview_stack",
        stack_name=data.stack_name(),
        **data.engine_arguments(),
        args=args,
        **data.environment_arguments(),
    )
    return {"stack": stack_view.format_stack(result)}


# Lookups: a stack named by name, id or ARN is redirected to its canonical URL.


@resource_call
@util.policy_checked(SCOPE, "lookup")
def lookup(stack_name: str, path: str = "") -> Response:
    try:
        identity = dict(HeatIdentifier.from_arn(stack_name))
    except ValueError:
        identity = call("identify_stack", stack_name=stack_name)
    location = util.make_url(identity)
    if path:
        location = f"{location}/{path}"
    query = stack_view.query_pairs()
    if query:
        location += "?" + urlencode(query)
    return found(location)


def lookup_arn(tenant_id: str, arn_rest: str) -> Response:
    # The URL's "arn:" prefix is part of the route, so that slashes may follow it.
    return lookup(tenant_id=tenant_id, stack_name="arn:" + arn_rest)


# One stack


@resource_call
@util.identified_stack(SCOPE, "show")
def show(identity: dict[str, str]) -> dict[str, Any]:
    refuse_body()
    resolve_outputs = stack_params.optional_bool("resolve_outputs")
    stacks = call(
        "show_stack",
        stack_identity=identity,
        resolve_outputs=True if resolve_outputs is None else resolve_outputs,
    )
    if not stacks:
        raise HttpFault(INTERNAL_SERVER_ERROR)
    return {"stack": stack_view.format_stack(stacks[0])}


def engine_answer(method: str, action: str) -> util.View:
    """A view answering what the engine's ``method`` returns for the stack, as it is."""

    @resource_call
    @util.identified_stack(SCOPE, action)
    def view(identity: dict[str, str]) -> Response:
        refuse_body()
        return json_response(call(method, stack_identity=identity))

    view.__name__ = action
    return view


template = engine_answer("get_template", "template")
environment = engine_answer("get_environment", "environment")
files = engine_answer("get_files", "files")
abandon = engine_answer("abandon_stack", "abandon")
export = engine_answer("export_stack", "export")


def update_arguments(data: InstantiationData, args: dict[str, Any]) -> dict[str, Any]:
    return {**data.engine_arguments(), "args": args, **data.environment_arguments()}


@resource_call
@util.identified_stack(SCOPE, "update")
def update(identity: dict[str, str]) -> Response:
    data = instantiation_data(required_body())
    args = data.prepared_args(is_update=True)
    call("update_stack", stack_identity=identity, **update_arguments(data, args))
    return accepted()


@resource_call
def update_patch(tenant_id: str, stack_name: str, stack_id: str) -> Response:
    # Heat checks the project here without its usual admin substitution, then decides
    # the policy from the body, so the body's faults come before the policy's.
    caller = util.context()
    if caller.project_id != tenant_id and not caller.is_admin:
        raise HttpFault(FORBIDDEN)
    identity = dict(HeatIdentifier(caller.project_id or "", stack_name, stack_id))
    data = instantiation_data(required_body(), patch=True)
    data.check_parts()
    policy.enforce(caller, SCOPE, "update_patch", {"project_id": caller.project_id})
    args = data.prepared_args(is_update=True)
    call("update_stack", stack_identity=identity, **update_arguments(data, args))
    return accepted()


def preview_update_view(action: str, patch: bool) -> util.View:
    @resource_call
    @util.identified_stack(SCOPE, action)
    def view(identity: dict[str, str]) -> dict[str, Any]:
        data = instantiation_data(required_body(), patch=patch)
        args = data.prepared_args(is_update=True)
        shown = util.allowed_params({stack_params.SHOW_NESTED: util.SINGLE})
        if stack_params.SHOW_NESTED in shown:
            args[stack_params.SHOW_NESTED] = stack_params.extract_bool(
                stack_params.SHOW_NESTED, shown[stack_params.SHOW_NESTED]
            )
        changes = call(
            "preview_update_stack", stack_identity=identity, **update_arguments(data, args)
        )
        return {"resource_changes": changes}

    view.__name__ = action
    return view


preview_update = preview_update_view("preview_update", patch=False)
preview_update_patch = preview_update_view("preview_update_patch", patch=True)


@resource_call
@util.identified_stack(SCOPE, "delete")
def delete(identity: dict[str, str]) -> Response:
    refuse_body()
    call("delete_stack", stack_identity=identity, cast=False)
    return no_content()


def routes() -> list[Route]:
    """In the order heat-api's router connects them (an URL's ``Allow`` follows it)."""
    return [
        Route(COLLECTION, "stack_index", index, ["GET"]),
        Route(COLLECTION, "stack_create", create, ["POST"]),
        Route(COLLECTION + "/preview", "stack_preview", preview, ["POST"]),
        Route(COLLECTION + "/detail", "stack_detail", detail, ["GET"]),
        Route(COLLECTION + "/<stack_name>", "stack_lookup", lookup, LOOKUP_METHODS),
        Route(COLLECTION + "/arn:<path:arn_rest>", "stack_lookup_arn", lookup_arn, LOOKUP_METHODS),
        Route(
            COLLECTION + f"/<stack_name>/<any({LOOKUP_GET_PATHS}):path>",
            "stack_lookup_subpath",
            lookup,
            ["GET"],
        ),
        Route(
            COLLECTION + f"/<stack_name>/<any({LOOKUP_POST_PATHS}):path>",
            "stack_lookup_subpath_post",
            lookup,
            ["POST"],
        ),
        Route(STACK, "stack_show", show, ["GET"]),
        Route(STACK + "/template", "stack_template", template, ["GET"]),
        Route(STACK + "/environment", "stack_environment", environment, ["GET"]),
        Route(STACK + "/files", "stack_files", files, ["GET"]),
        Route(STACK, "stack_update", update, ["PUT"]),
        Route(STACK, "stack_update_patch", update_patch, ["PATCH"]),
        Route(STACK + "/preview", "preview_stack_update", preview_update, ["PUT"]),
        Route(STACK + "/preview", "preview_stack_update_patch", preview_update_patch, ["PATCH"]),
        Route(STACK, "stack_delete", delete, ["DELETE"]),
        Route(STACK + "/abandon", "stack_abandon", abandon, ["DELETE"]),
        Route(STACK + "/export", "stack_export", export, ["GET"]),
        *stack_snapshots.routes(STACK),
    ]
