"""What templates can use, and template validation, below ``/<tenant_id>``: resource types
(``/resource_types``, a type's schema, a template made from a type), template versions and
their functions, and ``POST /validate``. Heat serves these from its stack controller;
their policy rules are ``stacks:<action>``."""

from __future__ import annotations

from typing import Any

import flask

from keel_app.common.fault_map import BAD_REQUEST
from keel_app.web.faults import HttpFault
from keel_app.web.routing import Route
from keel_app.web.v1 import stack_params, util
from keel_app.web.v1.instantiation import InstantiationData
from keel_app.web.v1.stack_dispatch import refuse_body, required_body, resource_call

SCOPE = "stacks"
TEMPLATE_TYPES = ("cfn", "hot")


def optional_bool(name: str) -> bool:
    """A boolean query parameter, false when absent."""
    value = util.query_value(name)
    return False if value is None else stack_params.extract_bool(name, value)


def extract_template_type(subject: str) -> str:
    template_type = subject.lower()
    if template_type not in TEMPLATE_TYPES:
        raise HttpFault(
            BAD_REQUEST,
            "Template type is not supported: "
            f'Invalid template type "{subject}", valid types are: cfn, hot.',
        )
    return template_type


@resource_call
@util.policy_checked(SCOPE, "validate_template")
def validate_template() -> dict[str, Any]:
    data = InstantiationData(required_body(), flask.current_app.config["HEAT_CONF"])
    params = util.allowed_params({"show_nested": util.SINGLE, "ignore_errors": util.SINGLE})
    show_nested = False
    if "show_nested" in params:
        show_nested = stack_params.extract_bool("show_nested", params["show_nested"])
    ignorable_errors = None
    if "ignore_errors" in params:
        ignorable_errors = params["ignore_errors"].split(",")
    result: dict[str, Any] = util.engine().validate_template(
        util.context(),
        data.template(),
        data.environment(),
        files=data.files(),
        environment_files=data.environment_files(),
        files_container=data.files_container(),
        show_nested=show_nested,
        ignorable_errors=ignorable_errors,
    )
    if "Error" in result:
        raise HttpFault(BAD_REQUEST, result["Error"])
    return result


@resource_call
@util.policy_checked(SCOPE, "list_resource_types")
def list_resource_types() -> dict[str, Any]:
    refuse_body()
    support_status = util.query_value("support_status")
    type_name = util.query_value("name")
    version = util.query_value("version")
    with_description = optional_bool("with_description")
    found = util.engine().list_resource_types(
        util.context(),
        support_status=support_status,
        type_name=type_name,
        heat_version=version,
        with_description=with_description,
    )
    return {"resource_types": found}


@resource_call
@util.policy_checked(SCOPE, "resource_schema")
def resource_schema(type_name: str) -> Any:
    refuse_body()
    # Heat's action reads with_description from the route, which never sets it: the
    # query parameter python-heatclient sends is not looked at.
    return util.engine().resource_schema(util.context(), type_name, False)


@resource_call
@util.policy_checked(SCOPE, "generate_template")
def generate_template(type_name: str) -> Any:
    refuse_body()
    template_type = "cfn"
    if "template_type" in flask.request.args:
        template_type = extract_template_type(util.query_value("template_type") or "")
    return util.engine().generate_template(util.context(), type_name, template_type)


@resource_call
@util.policy_checked(SCOPE, "list_template_versions")
def list_template_versions() -> dict[str, Any]:
    refuse_body()
    return {"template_versions": util.engine().list_template_versions(util.context())}


@resource_call
@util.policy_checked(SCOPE, "list_template_functions")
def list_template_functions(template_version: str) -> dict[str, Any]:
    refuse_body()
    with_condition = optional_bool("with_condition_func")
    found = util.engine().list_template_functions(util.context(), template_version, with_condition)
    return {"template_functions": found}


def routes() -> list[Route]:
    types = "/<tenant_id>/resource_types"
    versions = "/<tenant_id>/template_versions"
    return [
        Route("/<tenant_id>/validate", "template_validate", validate_template, ["POST"]),
        Route(types, "resource_types", list_resource_types, ["GET"]),
        Route(types + "/<type_name>", "resource_schema", resource_schema, ["GET"]),
        Route(types + "/<type_name>/template", "generate_template", generate_template, ["GET"]),
        Route(versions, "template_versions", list_template_versions, ["GET"]),
        Route(
            versions + "/<template_version>/functions",
            "template_functions",
            list_template_functions,
            ["GET"],
        ),
    ]
