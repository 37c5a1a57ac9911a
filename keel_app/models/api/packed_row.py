"""A wide row read as one JSON array column, for MySQL.

PyMySQL, the driver Heat's ``connection`` URLs name, parses the descriptor of every column
of a result in Python: for the 45 columns of a convergence step's read, that costs more
than the server's work for the query. Asked for ``JSON_ARRAY`` of the same columns, the
server sends a single descriptor, the json module (in C) parses the values, and each
value is turned into what its column's type reads: a DATETIME's text into a datetime, a
BOOLEAN's 0 or 1 into a bool, a JSON document's text through its type (``Json``, ``List``).
Other backends' drivers read columns in C; they keep the plain statement.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Dialect

Decoder = Callable[[Any], Any] | None


class PackedSelect:
    """A SELECT of labelled columns, run as itself or, on MySQL, packed in one column."""

    def __init__(self, statement: sa.Select[Any]):
        columns = list(statement.selected_columns)
        self.statement = statement
        self.labels = [column.key for column in columns]
        self._columns = [getattr(column, "element", column) for column in columns]
        # The statement's own FROM (its join) and WHERE, with the one packed column.
        self.packed = statement.with_only_columns(sa.func.json_array(*self._columns))
        self._decoders: dict[str, list[Decoder]] = {}

    def first(self, connection: Connection, parameters: Mapping[str, Any]) -> dict[str, Any] | None:
        """The first row as {label: value}, None when there is none."""
        dialect = connection.dialect
        if dialect.name != "mysql":
            found = connection.execute(self.statement, parameters).first()
            return None if found is None else dict(found._mapping)
        text = connection.execute(self.packed, parameters).scalar()
        if text is None:
            return None
        decoders = self._decoders.get(dialect.name)
        if decoders is None:
            decoders = self._decoders[dialect.name] = [
                _decoder(column.type, dialect) for column in self._columns
            ]
        return {
            label: value if decode is None or value is None else decode(value)
            for label, decode, value in zip(self.labels, decoders, json.loads(text), strict=True)
        }


def _decoder(column_type: Any, dialect: Dialect) -> Decoder:
    if isinstance(column_type, sa.types.TypeDecorator):
        process = column_type.process_result_value

        def decorated(value: Any) -> Any:
            # A JSON column (MySQL 8) is embedded as a document, a text column as its text.
            return process(value if isinstance(value, str) else json.dumps(value), dialect)

        return decorated
    if isinstance(column_type, sa.DateTime):
        return _datetime
    if isinstance(column_type, sa.Boolean):
        return bool
    return None


def _datetime(value: str) -> datetime.datetime:
    # 'YYYY-MM-DD HH:MM:SS', with a fraction of a second where the column keeps one.
    return datetime.datetime.fromisoformat(value)
