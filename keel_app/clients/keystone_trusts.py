"""Trusts: a stack owner delegates its roles in its project to Heat's trustee user.

At stack create (``deferred_auth_method = trusts``) the owner's token creates a trust
whose trustee is the [trustee] user, with impersonation, delegating the token's roles
(or ``trusts_delegated_roles``); the stack keeps the trust id, encrypted, in its
``user_creds`` row, and deferred operations authenticate as the trustee within it.
At stack delete the trust is deleted.
"""

from __future__ import annotations

import copy
from typing import Any

from keystoneauth1 import exceptions as keystone_errors
from keystoneauth1 import session

from keel_app.clients.keystone import (
    KeystoneSettings,
    identity_url,
    trustee_session,
    user_session,
)
from keel_app.common.context import RequestContext
from keel_app.common.exception import AuthorizationFailure, MissingCredentialError


def delegated_roles(settings: KeystoneSettings, context: RequestContext) -> list[dict[str, str]]:
    """``trusts_delegated_roles`` by name, else the token's roles by id (its names when
    the token's body is unknown)."""
    if settings.trusts_delegated_roles:
        return [{"name": name} for name in settings.trusts_delegated_roles]
    token_roles = (context.auth_token_info or {}).get("token", {}).get("roles")
    if token_roles:
        return [{"id": role["id"]} for role in token_roles]
    return [{"name": name} for name in context.roles]


def create_trust(settings: KeystoneSettings, context: RequestContext) -> dict[str, Any]:
    """Create the trust of ``context``'s user in its project; Keystone's trust document."""
    caller = user_session(settings, context)
    try:
        trustee_user_id = trustee_session(settings).get_user_id()
    except keystone_errors.Unauthorized as error:
        raise AuthorizationFailure() from error
    trustor_user_id = caller.get_user_id()
    roles = delegated_roles(settings, context)
    body = {
        "trust": {
            "trustor_user_id": trustor_user_id,
            "trustee_user_id": trustee_user_id,
            "project_id": caller.get_project_id(),
            "impersonation": True,
            "allow_redelegation": settings.allow_redelegation,
            "roles": roles,
        }
    }
    trusts_url = identity_url(settings, context.auth_url) + "/OS-TRUST/trusts"
    try:
        response = caller.post(trusts_url, json=body)
    except keystone_errors.NotFound as error:
        raise MissingCredentialError(required=f"roles {roles}") from error
    trust: dict[str, Any] = response.json()["trust"]
    return trust


def trust_context(settings: KeystoneSettings, context: RequestContext) -> RequestContext:
    """``context`` with a new trust of its user (itself when it already has one)."""
    if context.trust_id:
        return context
    trust = create_trust(settings, context)
    trusted = copy.copy(context)
    trusted.roles = list(context.roles)
    trusted.trust_id = trust["id"]
    trusted.trustor_user_id = trust["trustor_user_id"]
    return trusted


def trust_url(settings: KeystoneSettings, auth_url: str | None, trust_id: str) -> str:
    return f"{identity_url(settings, auth_url)}/OS-TRUST/trusts/{trust_id}"


def delete_with(caller: session.Session, url: str) -> None:
    """DELETE a trust; one already gone, or no longer the caller's to see, is left be."""
    try:
        caller.delete(url)
    except (keystone_errors.NotFound, keystone_errors.Unauthorized):
        pass


def delete_trust(settings: KeystoneSettings, context: RequestContext, trust_id: str) -> None:
    """Delete a trust with the caller's own token."""
    delete_with(user_session(settings, context), trust_url(settings, context.auth_url, trust_id))
