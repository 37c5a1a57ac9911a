"""What a stack keeps of its owner's credentials, and their end with the stack.

A top-level stack stores its owner's context in ``user_creds``: with a Keystone and
``deferred_auth_method = trusts``, a context holding a new trust (the trust id stored
encrypted, never the token); otherwise the context as it came. When the stack's delete
completes, the trust is deleted and the row with it, so that nothing reachable from
the soft-deleted stack can still act for its owner. In between, ``stored_context``
gives deferred operations (signals, scaling) a context acting for the owner.
"""

from __future__ import annotations

import logging
from typing import Any

from keystoneauth1 import exceptions as keystone_errors

from keel_app.clients import keystone_trusts
from keel_app.clients.keystone import KeystoneSettings, trustee_session
from keel_app.common import exception
from keel_app.common.context import RequestContext
from keel_app.models.api import user_creds
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)


def context_to_store(settings: KeystoneSettings | None, context: Any) -> Any:
    """The context a new stack's ``user_creds`` row is made from."""
    if (
        settings is None
        or not settings.uses_trusts
        or not isinstance(context, RequestContext)
        or not context.auth_token
    ):
        return context
    return keystone_trusts.trust_context(settings, context)


def delete_stored(
    database: Database,
    settings: KeystoneSettings | None,
    context: Any,
    user_creds_id: int | None,
    encryption_key: str | None,
) -> None:
    """Delete a stack's trust (when it has one) and its ``user_creds`` row.

    A trust that cannot be deleted does not keep the stack alive: the row goes anyway,
    as in Heat, and the failure is logged.
    """
    if user_creds_id is None:
        return
    stored = user_creds.get_user_creds(database, user_creds_id, encryption_key)
    trust_id = (stored or {}).get("trust_id")
    if trust_id and settings is not None:
        try:
            _delete_trust(settings, context, stored or {}, trust_id)
        except Exception:
            LOG.exception("Error deleting trust %s", trust_id)
    try:
        user_creds.delete_user_creds(database, user_creds_id)
    except exception.NotFound:
        LOG.debug("User credentials %s already gone", user_creds_id)


def _delete_trust(
    settings: KeystoneSettings, context: Any, stored: dict[str, Any], trust_id: str
) -> None:
    owner_calls = (
        isinstance(context, RequestContext)
        and context.auth_token
        and context.user_id == stored.get("trustor_user_id")
    )
    if owner_calls:
        keystone_trusts.delete_trust(settings, context, trust_id)
        return
    # Someone else (an admin) deletes the stack: the trustee, acting within the trust
    # as its trustor, may delete it.
    trustee = trustee_session(settings, trust_id)
    url = keystone_trusts.trust_url(settings, stored.get("auth_url"), trust_id)
    keystone_trusts.delete_with(trustee, url)


def stored_context(
    database: Database,
    settings: KeystoneSettings | None,
    user_creds_id: int,
    encryption_key: str | None,
) -> RequestContext:
    """A context acting for a stack's owner from its stored credentials.

    With a trust, the trustee authenticates within it (impersonating the trustor): the
    context has that token, the trustor as its user and the trust's roles. Stored
    password credentials give a context with the user name and password, as Heat's.
    """
    stored = user_creds.get_user_creds(database, user_creds_id, encryption_key)
    if stored is None:
        raise exception.AuthorizationFailure()
    trust_id = stored.get("trust_id")
    common = {
        "project_id": stored.get("tenant_id"),
        "project_name": stored.get("tenant"),
        "auth_url": stored.get("auth_url"),
        "region_name": stored.get("region_name"),
        "trustor_user_id": stored.get("trustor_user_id"),
    }
    if not trust_id:
        return RequestContext(
            username=stored.get("username"), password=stored.get("password"), **common
        )
    if settings is None:
        raise exception.AuthorizationFailure()
    trustee = trustee_session(settings, trust_id)
    try:
        token = trustee.auth.get_access(trustee)  # type: ignore[union-attr]
    except (keystone_errors.Unauthorized, keystone_errors.NotFound) as error:
        raise exception.AuthorizationFailure() from error
    return RequestContext(
        **{**common, "project_id": token.project_id or common["project_id"]},
        auth_token=token.auth_token,
        # The token's body: its catalog is what the stack's resources find services in.
        auth_token_info=_token_body(token),
        user_id=token.user_id,
        user_domain_id=token.user_domain_id,
        project_domain_id=token.project_domain_id,
        roles=list(token.role_names),
        trust_id=trust_id,
    )


def _token_body(token: Any) -> dict[str, Any] | None:
    """The v3 token body (``{"token": ...}``) keystoneauth read the access from."""
    body = getattr(token, "_data", None)
    return dict(body) if isinstance(body, dict) and "token" in body else None
