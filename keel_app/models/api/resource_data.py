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
    values = {"redact": redact, "value": value, "decrypt_method": method}
    # Core statements: a handler's data commits with its state change, on every step. The
    # row is looked for with a plain read: an UPDATE that finds nothing would lock the gap
    # where the row goes, and concurrent steps inserting beside it would deadlock.
    table = ResourceData.__table__
    connection = session.connection()
    row_id = connection.execute(
        sa.select(table.c.id)
        .where(table.c.resource_id == resource_id, table.c.key == key)
        .order_by(table.c.id)
        .limit(1)
    ).scalar()
    if row_id is None:
        connection.execute(sa.insert(table).values(key=key, resource_id=resource_id, **values))
    else:
        connection.execute(sa.update(table).where(table.c.id == row_id).values(values))


def delete_value(database: Database, resource_id: int, key: str) -> bool:
    with database.transaction() as session:
        result = session.execute(
            sa.delete(ResourceData)
            .where(ResourceData.resource_id == resource_id, ResourceData.key == key)
            .execution_options(synchronize_session=False)
        )
        return bool(result.rowcount)
