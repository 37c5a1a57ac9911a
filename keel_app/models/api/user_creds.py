"""Stored credentials of a stack's owner: a trust id or a password, always encrypted.

The caller's request context comes in as its dictionary form (Heat's ``to_dict()``
keys); values go in encrypted with ``[DEFAULT]/auth_encryption_key`` and come out
decrypted, never written back in clear text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from keel_app.common import crypt, exception
from keel_app.models.database import Database
from keel_app.models.stack import Stack, UserCreds

MAX_ENCRYPTED_PASSWORD_LENGTH = 255

# Context keys stored under their own name when credentials are a password.
_PASSWORD_CONTEXT_KEYS = ("username", "region_name", "auth_url", "trust_id", "trustor_user_id")


def _as_dict(creds: UserCreds) -> dict[str, Any]:
    return {column.key: getattr(creds, column.key) for column in sa.inspect(UserCreds).columns}


def create_user_creds(
    database: Database, context: Mapping[str, Any], encryption_key: str | None
) -> dict[str, Any]:
    """Store the credentials of ``context``: its trust when it has one, else its password.

    Returns the stored row as a dictionary with the secret in clear text.
    """
    creds = UserCreds(tenant=context.get("project_name"), tenant_id=context.get("project_id"))
    trust_id = context.get("trust_id")
    if trust_id:
        creds.decrypt_method, creds.trust_id = crypt.encrypt(trust_id, encryption_key)
        creds.trustor_user_id = context.get("trustor_user_id")
        creds.auth_url = context.get("auth_url")
        creds.region_name = context.get("region_name")
    else:
        for key in _PASSWORD_CONTEXT_KEYS:
            setattr(creds, key, context.get(key))
        method, password = crypt.encrypt(context.get("password"), encryption_key)
        if len(str(password)) > MAX_ENCRYPTED_PASSWORD_LENGTH:
            raise exception.Error(
                "Length of OS_PASSWORD after encryption exceeds Heat limit (255 chars)"
            )
        creds.password = password
        creds.decrypt_method = method
    with database.transaction() as session:
        session.add(creds)
    result = _as_dict(creds)
    if trust_id:
        result["trust_id"] = trust_id
    else:
        result["password"] = context.get("password")
    return result


def get_user_creds(
    database: Database, user_creds_id: int, encryption_key: str | None
) -> dict[str, Any] | None:
    """The credentials with password and trust id decrypted, ``decrypt_method`` left out."""
    with database.transaction() as session:
        creds = session.get(UserCreds, user_creds_id)
    if creds is None:
        return None
    result = _as_dict(creds)
    method = result.pop("decrypt_method")
    result["password"] = crypt.decrypt(method, creds.password, encryption_key)
    result["trust_id"] = crypt.decrypt(method, creds.trust_id, encryption_key)
    return result


def delete_user_creds(database: Database, user_creds_id: int) -> None:
    """Delete stored credentials; the stacks that named them are left with none."""
    with database.transaction() as session:
        # Heat's ORM relationship clears the stacks' reference rather than fail on it.
        _point_stacks(session, user_creds_id, None)
        result = session.execute(
            sa.delete(UserCreds)
            .where(UserCreds.id == user_creds_id)
            .execution_options(synchronize_session=False)
        )
        if not result.rowcount:
            raise exception.NotFound(
                f"Attempt to delete user creds with id {user_creds_id} that does not exist"
            )


def move_stacks(database: Database, from_id: int, to_id: int) -> None:
    """Point the stacks that name credentials ``from_id`` at ``to_id`` instead."""
    with database.transaction() as session:
        _point_stacks(session, from_id, to_id)


def _point_stacks(session: Any, from_id: int, to_id: int | None) -> None:
    session.execute(
        sa.update(Stack)
        .where(Stack.user_creds_id == from_id)
        .values(user_creds_id=to_id)
        .execution_options(synchronize_session=False)
    )
