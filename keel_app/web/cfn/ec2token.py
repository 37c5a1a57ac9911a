"""EC2 signature authentication of CFN requests, as Heat's ec2token middleware does it.

The signature is the ``Signature`` parameter (versions 0 to 3), ``X-Amz-Signature``
(version 4, pre-signed) or the ``Signature=`` field of the ``Authorization`` header
(version 4); the access key is ``AWSAccessKeyId``, the first part of
``X-Amz-Credential``, or the ``Credential=`` field of the header. Both go to Keystone
with what it needs to recompute the signature (host, verb, path, parameters, headers,
body hash); Keystone answers a token, and the request goes on as that token's user.

The identity headers are then set from the token, as Keystone's token middleware would
set them after validating it (the headers a caller sent are dropped first).
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote

from keystoneauth1 import adapter
from werkzeug.wrappers import Request

from keel_app.web.auth_noauth import TOKEN_INFO_KEY
from keel_app.web.cfn import ec2_keystone, errors, serialization
from keel_app.web.cfn.parameters import Parameters, request_parameters

LOG = logging.getLogger(__name__)

WsgiApplication = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

# webob's characters left unquoted in a request's path.
PATH_SAFE = "/~!$&'()*+,;=:@"
# Identity headers only the authentication layer may set.
IDENTITY_KEYS = (
    "HTTP_X_IDENTITY_STATUS",
    "HTTP_X_DOMAIN_ID",
    "HTTP_X_DOMAIN_NAME",
    "HTTP_X_PROJECT_ID",
    "HTTP_X_PROJECT_NAME",
    "HTTP_X_PROJECT_DOMAIN_ID",
    "HTTP_X_PROJECT_DOMAIN_NAME",
    "HTTP_X_USER_ID",
    "HTTP_X_USER_NAME",
    "HTTP_X_USER_DOMAIN_ID",
    "HTTP_X_USER_DOMAIN_NAME",
    "HTTP_X_ROLES",
    "HTTP_X_ROLE",
    "HTTP_X_IS_ADMIN_PROJECT",
    "HTTP_X_SERVICE_CATALOG",
    "HTTP_X_TENANT_ID",
    "HTTP_X_TENANT_NAME",
    "HTTP_X_TENANT",
    "HTTP_X_USER",
    "HTTP_OPENSTACK_SYSTEM_SCOPE",
    "HTTP_X_AUTH_USER",
    "HTTP_X_AUTH_KEY",
)


def header_field(authorization: str, field: str) -> str:
    return authorization.partition(f"{field}=")[2].split(",")[0]


def signature(params: Parameters, headers: Any) -> str | None:
    found = params.get("Signature") or params.get("X-Amz-Signature")
    if found is None and "Authorization" in headers:
        found = header_field(headers["Authorization"], "Signature")
    return found


def access_key(params: Parameters, headers: Any) -> str | None:
    access = params.get("AWSAccessKeyId")
    if access is None:
        credential = params.get("X-Amz-Credential")
        if credential:
            access = credential.split("/")[0]
    if access is None and "Authorization" in headers:
        access = header_field(headers["Authorization"], "Credential").split("/")[0]
    return access


def environ_headers(environ: dict[str, Any]) -> dict[str, str]:
    """The request's headers as webob lists them (environ order, title-cased names)."""
    headers = {}
    for key, value in environ.items():
        if key == "CONTENT_TYPE":
            headers["Content-Type"] = value
        elif key == "CONTENT_LENGTH":
            headers["Content-Length"] = value
        elif key in ("HTTP_CONTENT_TYPE", "HTTP_CONTENT_LENGTH"):
            headers[key[5:].title()] = value
        elif key.startswith("HTTP_"):
            headers[key[5:].replace("_", "-").title()] = value
    return headers


def request_host(environ: dict[str, Any]) -> str:
    if "HTTP_HOST" in environ:
        return str(environ["HTTP_HOST"])
    return f"{environ['SERVER_NAME']}:{environ['SERVER_PORT']}"


def request_path(environ: dict[str, Any]) -> str:
    raw = (environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")).encode("latin-1")
    return quote(raw, PATH_SAFE)


def ec2_credentials(
    request: Request, params: Parameters, access: str, signed: str
) -> dict[str, Any]:
    """What Keystone is asked to check, as Heat's middleware sends it."""
    body = request.get_data(cache=True)
    auth_params = params.as_dict()
    auth_params.pop("Signature", None)
    environ = request.environ
    return {
        "ec2Credentials": {
            "access": access,
            "signature": signed,
            "host": request_host(environ),
            "verb": request.method,
            "path": request_path(environ),
            "params": auth_params,
            "headers": environ_headers(environ),
            "body_hash": hashlib.sha256(body).hexdigest(),
        }
    }


def identity_environ(token: ec2_keystone.EC2Token, access: str, signed: str) -> dict[str, Any]:
    """The headers Heat's middleware and then Keystone's token middleware would set."""
    body = token.body["token"]
    project = body["project"]
    user = body.get("user", {})
    roles = ",".join(role["name"] for role in body.get("roles", []))
    environ: dict[str, Any] = {
        "HTTP_X_AUTH_EC2_CREDS": json.dumps(
            {"ec2Credentials": {"access": access, "signature": signed}}
        ),
        "HTTP_X_AUTH_TOKEN": token.token_id,
        "HTTP_X_TENANT_NAME": project.get("name"),
        "HTTP_X_TENANT_ID": project["id"],
        "HTTP_X_AUTH_URL": token.endpoint,
        "HTTP_X_ROLES": roles,
        "HTTP_X_IDENTITY_STATUS": "Confirmed",
        "HTTP_X_PROJECT_ID": project["id"],
        "HTTP_X_PROJECT_NAME": project.get("name"),
        "HTTP_X_PROJECT_DOMAIN_ID": project.get("domain", {}).get("id"),
        "HTTP_X_PROJECT_DOMAIN_NAME": project.get("domain", {}).get("name"),
        "HTTP_X_USER_ID": user.get("id"),
        "HTTP_X_USER_NAME": user.get("name"),
        "HTTP_X_USER_DOMAIN_ID": user.get("domain", {}).get("id"),
        "HTTP_X_USER_DOMAIN_NAME": user.get("domain", {}).get("name"),
        "HTTP_X_IS_ADMIN_PROJECT": str(body.get("is_admin_project", True)),
        TOKEN_INFO_KEY: token.body,
    }
    return {key: value for key, value in environ.items() if value is not None}


def authenticate(request: Request, keystone: adapter.Adapter) -> bool:
    """Check the request's EC2 signature with Keystone and take on the token's identity;
    False for an unsigned request naming a user, which the next layer authenticates."""
    params = request_parameters(request)
    signed = signature(params, request.headers)
    if not signed:
        if "X-Auth-User" in request.headers:
            return False
        LOG.info("No AWS Signature found.")
        raise errors.HeatIncompleteSignatureError()
    access = access_key(params, request.headers)
    if not access:
        if "X-Auth-User" in request.headers:
            return False
        LOG.info("No AWSAccessKeyId/Authorization Credential")
        raise errors.HeatMissingAuthenticationTokenError()
    credentials = ec2_credentials(request, params, access, signed)
    try:
        token = ec2_keystone.check_credentials(keystone, credentials)
    except ec2_keystone.EC2Unauthorized:
        LOG.info("AWS authentication failure.")
        raise errors.HeatAccessDeniedError() from None
    except ec2_keystone.EC2CheckFailed as error:
        LOG.error("EC2 credentials could not be checked: %s", error)
        raise errors.HeatInternalFailureError() from None
    environ = request.environ
    for key in IDENTITY_KEYS:
        environ.pop(key, None)
    environ.update(identity_environ(token, access, signed))
    return True


class EC2Token:
    """The middleware: a signed request goes on as the token's user; an unsigned one
    that names a user (``X-Auth-User``) goes on to ``unsigned`` (Keystone's token
    middleware in Heat's default pipeline); any other is refused with an AWS error."""

    def __init__(
        self, signed: WsgiApplication, unsigned: WsgiApplication, keystone: adapter.Adapter
    ) -> None:
        self.signed = signed
        self.unsigned = unsigned
        self.keystone = keystone

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        request = Request(environ)
        try:
            authenticated = authenticate(request, self.keystone)
        except errors.CfnError as error:
            return serialization.xml_response(error.body(), error.code)(environ, start_response)
        finally:
            # The body was read for the signature's hash: the app reads it again.
            body = request.get_data(cache=True)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        application = self.signed if authenticated else self.unsigned
        return application(environ, start_response)
