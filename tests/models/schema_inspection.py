"""A database's schema as plain data, for comparing two databases whole."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

IGNORED_TABLES = {"alembic_version"}


def describe(url: str) -> dict[str, Any]:
    """Tables with their columns, keys, indexes and unique constraints, as the server reports."""
    engine = sa.create_engine(url, poolclass=sa.NullPool)
    try:
        with engine.connect() as connection:
            inspector = sa.inspect(connection)
            dialect = connection.dialect
            schema = {
                table: _describe_table(inspector, dialect, table)
                for table in sorted(inspector.get_table_names())
                if table not in IGNORED_TABLES
            }
            if dialect.name == "mysql":
                for table in schema:
                    schema[table]["create"] = _mysql_create_statement(connection, table)
            return schema
    finally:
        engine.dispose()


def _describe_table(inspector: sa.Inspector, dialect: sa.Dialect, table: str) -> dict[str, Any]:
    columns = [
        {
            "name": column["name"],
            "type": column["type"].compile(dialect=dialect),
            "nullable": column["nullable"],
            "default": column.get("default"),
            "autoincrement": column.get("autoincrement"),
        }
        for column in inspector.get_columns(table)
    ]
    primary_key = inspector.get_pk_constraint(table)
    foreign_keys = sorted(
        (
            {
                "name": key.get("name"),
                "columns": key["constrained_columns"],
                "referred_table": key["referred_table"],
                "referred_columns": key["referred_columns"],
                "options": key.get("options", {}),
            }
            for key in inspector.get_foreign_keys(table)
        ),
        key=repr,
    )
    indexes = sorted(
        (
            {
                "name": index["name"],
                "columns": index["column_names"],
                "unique": bool(index["unique"]),
            }
            for index in inspector.get_indexes(table)
        ),
        key=repr,
    )
    unique_constraints = sorted(
        (
            {"name": constraint.get("name"), "columns": constraint["column_names"]}
            for constraint in inspector.get_unique_constraints(table)
        ),
        key=repr,
    )
    return {
        "columns": columns,
        "primary_key": {
            "name": primary_key.get("name"),
            "columns": primary_key["constrained_columns"],
        },
        "foreign_keys": foreign_keys,
        "indexes": indexes,
        "unique_constraints": unique_constraints,
    }


def _mysql_create_statement(connection: sa.Connection, table: str) -> str:
    statement = connection.execute(sa.text(f"SHOW CREATE TABLE `{table}`")).one()[1]
    # The counter reflects rows written, not the schema.
    return " ".join(part for part in statement.split() if not part.startswith("AUTO_INCREMENT="))
