"""A stack's trust passes to whoever updates or deletes the stack, as in Heat.

With ``deferred_auth_method = trusts``, the stack's stored credentials hold a trust of
the user who created it. When another user (or the same user from another project)
updates or deletes the stack, the deferred operations that follow (signals, scaling,
the delete's own clean-up) act for that caller from then on: a trust of the caller's
replaces the stored one, the old trust is deleted in Keystone, and every stack that named
the old ``user_creds`` row names the new one.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.clients import keystone_credentials
from keel_app.clients.keystone import KeystoneSettings
from keel_app.common import exception
from keel_app.common.context import RequestContext
from keel_app.models.api import user_creds
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)


def needs_renewal(
    database: Database,
    settings: KeystoneSettings | None,
    context: Any,
    user_creds_id: int | None,
    encryption_key: str | None,
) -> bool:
    """Whether the stored trust is not the caller's own (or cannot be read at all)."""
    if settings is None or not settings.uses_trusts or user_creds_id is None:
        return False
    # Only a caller with a token of its own can be the trustor of a new trust.
    if not isinstance(context, RequestContext) or not context.auth_token or context.trust_id:
        return False
    try:
        stored = user_creds.get_user_creds(database, user_creds_id, encryption_key)
    except (exception.Error, exception.InvalidEncryptionKey, ValueError):
        LOG.warning("Stored credentials %s cannot be read; the trust is renewed", user_creds_id)
        return True
    if stored is None:
        return False
    return (stored.get("trustor_user_id"), stored.get("tenant_id")) != (
        context.user_id,
        context.project_id,
    )


def renew_for_caller(
    database: Database,
    settings: KeystoneSettings | None,
    context: Any,
    user_creds_id: int | None,
    encryption_key: str | None,
) -> int | None:
    """Give the stack a trust of the caller's when the stored one is someone else's.

    Returns the id of the new ``user_creds`` row, or ``None`` when nothing changed. The
    new trust is made (and its row stored) before the old one goes, so a failure to make
    it leaves the stack as it was.
    """
    if not needs_renewal(database, settings, context, user_creds_id, encryption_key):
        return None
    assert settings is not None and user_creds_id is not None
    renewed = keystone_credentials.context_to_store(settings, context)
    stored = user_creds.create_user_creds(database, renewed.to_dict(), encryption_key)
    user_creds.move_stacks(database, user_creds_id, stored["id"])
    keystone_credentials.delete_stored(database, settings, context, user_creds_id, encryption_key)
    return int(stored["id"])
