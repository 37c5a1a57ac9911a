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
    absent: bool = False,
) -> None:
    """``set_value`` inside a transaction of the caller's (a state change it commits with);
    ``absent``: the caller knows the resource has no row of the key (it is inserted)."""
    method: str | None = ""
    if redact:
        method, value = crypt.encrypt(value, encryption_key)
    values = {"redact": redact, "value": value, "decrypt_method": method}
    # Core statements built once: a handler's data commits with its state change, on
    # every step. The row is looked for with a plain read: an UPDATE that finds nothing
    # would lock the gap where the row goes, and concurrent steps inserting beside it
    # would deadlock.
    connection = session.connection()
    row_id = None
    if not absent:
        row_id = connection.execute(_FIND, {"resource_id": resource_id, "key": key}).scalar()
    if row_id is None:
        connection.execute(_INSERT, {"key": key, "resource_id": resource_id, **values})
    else:
        connection.execute(
            _UPDATE, {"row_id": row_id, **{f"new_{k}": v for k, v in values.items()}}
        )


_TABLE = ResourceData.__table__
_FIND = (
    sa.select(_TABLE.c.id)
    .where(_TABLE.c.resource_id == sa.bindparam("resource_id"), _TABLE.c.key == sa.bindparam("key"))
    .order_by(_TABLE.c.id)
    .limit(1)
)
_INSERT = sa.insert(_TABLE)
_UPDATE = (
    sa.update(_TABLE)
    .where(_TABLE.c.id == sa.bindparam("row_id"))
    .values(
        {
            _TABLE.c[name]: sa.bindparam(f"new_{name}", type_=_TABLE.c[name].type)
            for name in ("redact", "value", "decrypt_method")
        }
    )
)


def delete_value(database: Database, resource_id: int, key: str) -> bool:
    with database.transaction() as session:
        result = session.execute(
            sa.delete(ResourceData)
            .where(ResourceData.resource_id == resource_id, ResourceData.key == key)
            .execution_options(synchronize_session=False)
        )
        return bool(result.rowcount)
