"""The ``noauth`` flavor: every caller is trusted, as Heat's noauth middleware does it.

The user and project come from ``X-Auth-User`` and ``X-Auth-Project`` (both ``admin``
when absent), always with the admin role and the roles Keystone's defaults make it imply
(member, reader: see docs/divergences.md); the identity headers Keystone's middleware
would have set are filled in so that the request context is built the same way in
either flavor. Meant for the embedded single-process default, never for a cloud.
"""

from __future__ import annotations

import json
import os
from typing import Any

import flask

DEFAULT_IDENTITY = "admin"
TOKEN_INFO_KEY = "keystone.token_info"
# Heat's noauth gives "admin" alone, which Heat's own default policy (reader or member
# in the project) refuses everywhere; Keystone's implied roles make admin both.
NOAUTH_ROLES = "admin,member,reader"


def load_token_info(token_response_file: str) -> dict[str, Any] | None:
    """``[noauth] token_response``: a JSON file handed on as the token's description."""
    if token_response_file and os.path.exists(token_response_file):
        with open(token_response_file) as token_file:
            return json.load(token_file)
    return None


def identity_environ(environ: dict[str, Any], token_info: dict[str, Any] | None) -> dict[str, Any]:
    user = environ.get("HTTP_X_AUTH_USER", DEFAULT_IDENTITY)
    project = environ.get("HTTP_X_AUTH_PROJECT", DEFAULT_IDENTITY)
    headers: dict[str, Any] = {
        "HTTP_X_IDENTITY_STATUS": "Confirmed",
        "HTTP_X_PROJECT_ID": project,
        "HTTP_X_PROJECT_NAME": project,
        "HTTP_X_USER_ID": user,
        "HTTP_X_USER_NAME": user,
        "HTTP_X_ROLES": NOAUTH_ROLES,
        "HTTP_X_SERVICE_CATALOG": {},
        "HTTP_X_AUTH_USER": user,
        "HTTP_X_AUTH_KEY": "unset",
        "HTTP_X_AUTH_URL": "url",
    }
    if token_info:
        headers[TOKEN_INFO_KEY] = token_info
    return headers


def install(app: flask.Flask, token_response_file: str) -> None:
    token_info = load_token_info(token_response_file)

    def authenticate() -> None:
        environ = flask.request.environ
        environ.update(identity_environ(environ, token_info))

    app.before_request(authenticate)
