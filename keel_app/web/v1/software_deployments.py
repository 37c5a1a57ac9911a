"""``/<tenant_id>/software_deployments``: list (of one server with ``server_id``), the
configs deployed to a server (``/metadata/<server_id>``), show, create, update, delete."""

from __future__ import annotations

from typing import Any

from werkzeug.wrappers import Response

from keel_app.web.routing import Route
from keel_app.web.v1 import stack_responses, util
from keel_app.web.v1.stack_dispatch import refuse_body, required_body, resource_call

CREATE_FIELDS = (
    "config_id",
    "server_id",
    "input_values",
    "action",
    "status",
    "status_reason",
    "stack_user_project_id",
)
UPDATE_FIELDS = ("config_id", "input_values", "output_values", "action", "status", "status_reason")


@resource_call
@util.policy_checked("software_deployments", "index")
def index() -> dict[str, Any]:
    refuse_body()
    params = util.allowed_params({"server_id": util.SINGLE})
    found = util.engine().list_software_deployments(util.context(), **params)
    return {"software_deployments": found}


@resource_call
@util.policy_checked("software_deployments", "metadata")
def metadata(server_id: str) -> dict[str, Any]:
    refuse_body()
    found = util.engine().metadata_software_deployments(util.context(), server_id=server_id)
    return {"metadata": found}


@resource_call
@util.policy_checked("software_deployments", "show")
def show(deployment_id: str) -> dict[str, Any]:
    refuse_body()
    found = util.engine().show_software_deployment(util.context(), deployment_id)
    return {"software_deployment": found}


@resource_call
@util.policy_checked("software_deployments", "create")
def create() -> dict[str, Any]:
    body = required_body()
    created = util.engine().create_software_deployment(
        util.context(), **{field: body.get(field) for field in CREATE_FIELDS}
    )
    return {"software_deployment": created}


@resource_call
@util.policy_checked("software_deployments", "update")
def update(deployment_id: str) -> dict[str, Any]:
    body = required_body()
    # A null in the body means "leave it": only the values given are sent.
    changes = {field: body[field] for field in UPDATE_FIELDS if body.get(field) is not None}
    updated = util.engine().update_software_deployment(util.context(), deployment_id, **changes)
    return {"software_deployment": updated}


@resource_call
@util.policy_checked("software_deployments", "delete")
def delete(deployment_id: str) -> Response:
    refuse_body()
    util.engine().delete_software_deployment(util.context(), deployment_id)
    return stack_responses.no_content()


def routes() -> list[Route]:
    collection = "/<tenant_id>/software_deployments"
    member = collection + "/<deployment_id>"
    return [
        Route(collection, "software_deployment_index", index, ["GET"]),
        Route(
            collection + "/metadata/<server_id>", "software_deployment_metadata", metadata, ["GET"]
        ),
        Route(collection, "software_deployment_create", create, ["POST"]),
        Route(member, "software_deployment_show", show, ["GET"]),
        Route(member, "software_deployment_update", update, ["PUT"]),
        Route(member, "software_deployment_delete", delete, ["DELETE"]),
    ]
