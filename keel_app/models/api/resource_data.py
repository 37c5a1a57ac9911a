"""A resource's key/value store (``resource_data``): redacted values are stored encrypted."""

from __future__ import annotations

import logging

import sqlalchemy as sa
from sqlalchemy.orm import Session

from keel_app.common import crypt
from keel_app.models.database import Database, retry_on_db_error
from keel_app.models.resource import ResourceData

LOG = logging.getLogger(__name__)


def get_all(database: Database, resource_id: int, encryption_key: str | None) -> dict[str, str]:
    """Every key of the resource, redacted values decrypted (an undecryptable one as stored)."""
    with database.transaction() as session:
        rows = session.scalars(
            sa.select(ResourceData)
            .where(ResourceData.resource_id == resource_id)
            .order_by(ResourceData.id)
        ).all()
    values: dict[str, str] = {}
    for row in rows:
        value = row.value
        if row.redact:
            try:
                value = crypt.decrypt(row.decrypt_method, row.value, encryption_key)
            except Exception:
                LOG.exception(
                    "Failed to decrypt resource data %s for %s, ignoring.", row.key, resource_id
                )
        values[str(row.key)] = value  # type: ignore[assignment]
    return values


@retry_on_db_error
def set_value(
    database: Database,
    resource_id: int,
    key: str,
    value: str | None,
    redact: bool,
    encryption_key: str | None,
) -> None:
    """Insert or overwrite one key, as Heat does: redacted values encrypted, others as given."""
    with database.transaction() as session:
        write_value(session, resource_id, key, value, redact, encryption_key)


def write_value(
    session: Session,
    resource_id: int,
    key: str,
    value: str | None,
    redact: bool,
    encryption_key: str | None,
) -> None:
    """``set_value`` inside a transaction of the caller's (a state change it commits with)."""
    method: str | None = ""
    if redact:
        method, value = crypt.encrypt(value, encryption_key)
    row = session.scalars(
        sa.select(ResourceData).where(
            ResourceData.resource_id == resource_id, ResourceData.key == key
        )
    ).first()
    if row is None:
        row = ResourceData(key=key, resource_id=resource_id)
        session.add(row)
    row.redact = redact
    row.value = value
    row.decrypt_method = method


def delete_value(database: Database, resource_id: int, key: str) -> bool:
    with database.transaction() as session:
        result = session.execute(
            sa.delete(ResourceData)
            .where(ResourceData.resource_id == resource_id, ResourceData.key == key)
            .execution_options(synchronize_session=False)
        )
        return bool(result.rowcount)
