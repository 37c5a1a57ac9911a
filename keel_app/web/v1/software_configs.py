"""``/<tenant_id>/software_configs``: list (paged, or every project's with
``global_tenant``), show, create and delete software configs."""

from __future__ import annotations

from typing import Any

import flask
from werkzeug.wrappers import Response

from keel_app.common.context import admin_context
from keel_app.web import policy
from keel_app.web.routing import Route
from keel_app.web.v1 import stack_params, stack_responses, util
from keel_app.web.v1.stack_dispatch import refuse_body, required_body, resource_call

CONFIG_FIELDS = ("name", "group", "config", "inputs", "outputs", "options")


@resource_call
@util.policy_checked("software_configs", "index")
def index() -> dict[str, Any]:
    refuse_body()
    caller = util.context()
    global_tenant = False
    if "global_tenant" in flask.request.args:
        global_tenant = stack_params.extract_bool(
            "global_tenant", util.query_value("global_tenant")
        )
    if global_tenant:
        # Heat checks the rule of its global_index action, then lists as an admin.
        policy.enforce(
            caller, "software_configs", "global_index", {"project_id": caller.project_id}
        )
        return _listing(admin_context())
    return _listing(caller)


def _listing(caller: Any) -> dict[str, Any]:
    params = util.allowed_params({"limit": util.SINGLE, "marker": util.SINGLE})
    if "limit" in params:
        params["limit"] = stack_params.extract_int("limit", params["limit"])
    return {"software_configs": util.engine().list_software_configs(caller, **params)}


@resource_call
@util.policy_checked("software_configs", "show")
def show(config_id: str) -> dict[str, Any]:
    refuse_body()
    found = util.engine().show_software_config(util.context(), config_id)
    return {"software_config": found}


@resource_call
@util.policy_checked("software_configs", "create")
def create() -> dict[str, Any]:
    body = required_body()
    created = util.engine().create_software_config(
        util.context(), **{field: body.get(field) for field in CONFIG_FIELDS}
    )
    return {"software_config": created}


@resource_call
@util.policy_checked("software_configs", "delete")
def delete(config_id: str) -> Response:
    refuse_body()
    util.engine().delete_software_config(util.context(), config_id)
    return stack_responses.no_content()


def routes() -> list[Route]:
    collection = "/<tenant_id>/software_configs"
    member = collection + "/<config_id>"
    return [
        Route(collection, "software_config_index", index, ["GET"]),
        Route(collection, "software_config_create", create, ["POST"]),
        Route(member, "software_config_show", show, ["GET"]),
        Route(member, "software_config_delete", delete, ["DELETE"]),
    ]
