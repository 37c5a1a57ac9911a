"""What a stack keeps of its owner's credentials, and their end with the stack.

A top-level stack stores its owner's context in ``user_creds``: with a Keystone and
``deferred_auth_method = trusts``, a context holding a new trust (the trust id stored
encrypted, never the token); otherwise the context as it came. When the stack's delete
completes, the trust is deleted and the row with it, so that nothing reachable from
the soft-deleted stack can still act for its owner.
"""

from __future__ import annotations

import logging
from typing import Any

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
