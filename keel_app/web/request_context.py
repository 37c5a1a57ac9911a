"""The request context, built from the identity headers the auth layer left in the environ.

Heat's context middleware: oslo.context's header names (what keystonemiddleware or the
noauth flavor set), plus the credentials a caller may send itself (``X-Auth-User`` /
``X-Auth-Key``, or ``X-Auth-EC2-Creds``), ``X-Auth-Url`` and ``X-Region-Name``.
"""

from __future__ import annotations

from typing import Any

import flask

from keel_app.common.context import RequestContext
from keel_app.web import policy
from keel_app.web.auth_noauth import TOKEN_INFO_KEY
from keel_app.web.request_id import GLOBAL_REQUEST_ID_KEY, REQUEST_ID_KEY

# Context field -> environ keys, the first present wins (oslo.context's table).
ENVIRON_FIELDS: dict[str, tuple[str, ...]] = {
    "auth_token": ("HTTP_X_AUTH_TOKEN", "HTTP_X_STORAGE_TOKEN"),
    "user_id": ("HTTP_X_USER_ID", "HTTP_X_USER"),
    "project_id": ("HTTP_X_PROJECT_ID", "HTTP_X_TENANT_ID", "HTTP_X_TENANT"),
    "domain_id": ("HTTP_X_DOMAIN_ID",),
    "domain_name": ("HTTP_X_DOMAIN_NAME",),
    "system_scope": ("HTTP_OPENSTACK_SYSTEM_SCOPE",),
    "user_domain_id": ("HTTP_X_USER_DOMAIN_ID",),
    "project_domain_id": ("HTTP_X_PROJECT_DOMAIN_ID",),
    "user_name": ("HTTP_X_USER_NAME",),
    "project_name": ("HTTP_X_PROJECT_NAME", "HTTP_X_TENANT_NAME"),
    "user_domain_name": ("HTTP_X_USER_DOMAIN_NAME",),
    "project_domain_name": ("HTTP_X_PROJECT_DOMAIN_NAME",),
    "request_id": (REQUEST_ID_KEY,),
    "global_request_id": (GLOBAL_REQUEST_ID_KEY,),
}


def context_from_environ(environ: dict[str, Any]) -> RequestContext:
    values: dict[str, Any] = {}
    for field_name, keys in ENVIRON_FIELDS.items():
        for key in keys:
            if key in environ:
                values[field_name] = environ[key]
                break

    roles = environ.get("HTTP_X_ROLES", environ.get("HTTP_X_ROLE"))
    values["roles"] = [role.strip() for role in roles.split(",")] if roles else []
    # Without the header the project counts as the admin project, so that old policy
    # files keep working (oslo.context's choice).
    values["is_admin_project"] = environ.get("HTTP_X_IS_ADMIN_PROJECT", "true").lower() == "true"

    if environ.get("HTTP_X_AUTH_USER") is not None:
        values["username"] = environ["HTTP_X_AUTH_USER"]
        values["password"] = environ.get("HTTP_X_AUTH_KEY")
    elif environ.get("HTTP_X_AUTH_EC2_CREDS") is not None:
        values["aws_creds"] = environ["HTTP_X_AUTH_EC2_CREDS"]
    values["region_name"] = environ.get("HTTP_X_REGION_NAME")
    values["auth_url"] = environ.get("HTTP_X_AUTH_URL")
    values["auth_token_info"] = environ.get(TOKEN_INFO_KEY)
    return RequestContext(**values)


def current() -> RequestContext:
    """The context of the request being served."""
    return flask.g.context


def install(app: flask.Flask) -> None:
    conf = app.config["HEAT_CONF"]

    def build_context() -> None:
        context = context_from_environ(flask.request.environ)
        context.is_admin = policy.is_admin(context, conf)
        flask.g.context = context

    app.before_request(build_context)
