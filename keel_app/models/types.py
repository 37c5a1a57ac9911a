"""Column types that store values exactly as Heat stores them.

JSON goes into TEXT (LONGTEXT on MySQL) as ``json.dumps`` output, so ``None`` is written
as the four characters ``null`` rather than SQL NULL: rows written by either
implementation read back the same in the other.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from sqlalchemy import types
from sqlalchemy.dialects import mysql
from sqlalchemy.engine import Dialect


def _to_primitive(value: Any) -> Any:
    # The shapes Heat's serialiser turns into JSON scalars; anything else is an error.
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S.%f")
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, bytes):
        return value.decode("utf-8")
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def dumps(value: Any) -> str:
    """Encode a value the way Heat's JSON columns do."""
    return json.dumps(value, default=_to_primitive)


def loads(text: str | bytes) -> Any:
    return json.loads(text)


class LongText(types.TypeDecorator[str]):
    """TEXT everywhere but MySQL, where TEXT's 64 KiB is too small for templates."""

    impl = types.Text
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> types.TypeEngine[Any]:
        if dialect.name == "mysql":
            return dialect.type_descriptor(mysql.LONGTEXT())
        return dialect.type_descriptor(types.Text())


class Json(LongText):
    """A JSON document; SQL NULL reads as None, None writes as ``null``."""

    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> str:
        return dumps(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        return loads(value)


class List(Json):
    """A JSON list (resource ``requires``/``needed_by``); stored like Json."""

    cache_ok = True
