"""A resource's key/value data as ``keel-manage resource_data_list`` shows it."""

from __future__ import annotations

import logging

import sqlalchemy as sa

from keel_app.common import crypt
from keel_app.common.exception import InvalidEncryptionKey, NotFound
from keel_app.models import ResourceData
from keel_app.models.database import Database

LOG = logging.getLogger(__name__)


def resource_data_get_all(
    database: Database, resource_id: int | str, encryption_key: str | None
) -> dict[str, str | None]:
    """Every key of the resource's data, redacted values decrypted where the key fits."""
    if not str(resource_id).isdigit():
        # An id that no row can have; PostgreSQL would refuse to compare it instead.
        raise NotFound("no resource data found")
    with database.transaction() as session:
        rows = session.scalars(
            sa.select(ResourceData)
            .where(ResourceData.resource_id == int(resource_id))
            .order_by(ResourceData.id)
        ).all()
    if not rows:
        raise NotFound("no resource data found")
    data: dict[str, str | None] = {}
    for row in rows:
        value = row.value
        if row.redact:
            try:
                value = crypt.decrypt(row.decrypt_method, row.value, encryption_key)
            except InvalidEncryptionKey:
                LOG.exception(
                    "Failed to decrypt resource data %s for %s, ignoring.", row.key, resource_id
                )
        data[str(row.key)] = value
    return data
