"""Schema versions: upgrade a database to a revision of Heat's Alembic history, or read it.

The revision ids are Heat's own, so a database created or last migrated by Heat is taken
over in place, and one created by OpenKeel can be handed back.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
INITIAL_REVISION = "c6214ca60943"
HEAD_REVISION = "97b2a986f922"


def alembic_config(engine: sa.Engine | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if engine is not None:
        url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
        config.set_main_option("sqlalchemy.url", url)
    return config


def revisions() -> list[str]:
    """Every revision id, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def db_sync(engine: sa.Engine, version: str | None = None) -> None:
    """Upgrade to ``version`` (default: head), taking over Heat's pre-Alembic databases."""
    if version is not None and version.isdigit():
        raise ValueError(
            "You requested an sqlalchemy-migrate database version; this is no longer supported"
        )
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        if _is_legacy_migrate_database(connection):
            # sqlalchemy-migrate built the same schema that the first revision describes.
            command.stamp(config, INITIAL_REVISION)
        command.upgrade(config, version or "head")


def db_version(engine: sa.Engine) -> str | None:
    """The revision the database is at, None for an unversioned one."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def _is_legacy_migrate_database(connection: sa.Connection) -> bool:
    if not sa.inspect(connection).has_table("migrate_version"):
        return False
    return MigrationContext.configure(connection).get_current_revision() is None
