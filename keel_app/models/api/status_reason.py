"""Status reasons that fit MySQL's TEXT columns, cut the way Heat cuts them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.models.database import Database

MYSQL_TEXT_BYTE_LIMIT = 65535
_MAX_UTF8_BYTES_PER_CHARACTER = 4


def truncate_status_reason(database: Database, values: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``values`` whose ``status_reason`` fits in 65535 UTF-8 bytes, on MySQL only.

    The cut happens on bytes, and a character split by it is dropped. Other servers store
    TEXT of any length, so there the reason is kept whole, as Heat keeps it.
    """
    values = dict(values)
    reason = values.get("status_reason")
    if not database.is_mysql or not reason:
        return values
    # Short reasons cannot be too long whatever their characters: skip the encoding.
    if len(reason) * _MAX_UTF8_BYTES_PER_CHARACTER <= MYSQL_TEXT_BYTE_LIMIT:
        return values
    encoded = reason.encode("utf-8")
    if len(encoded) > MYSQL_TEXT_BYTE_LIMIT:
        values["status_reason"] = encoded[:MYSQL_TEXT_BYTE_LIMIT].decode("utf-8", errors="ignore")
    return values
