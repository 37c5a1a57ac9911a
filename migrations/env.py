"""Alembic environment: runs on the connection handed in by keel_app.models.migration."""

from alembic import context
from sqlalchemy import engine_from_config, pool

import keel_app.models

config = context.config
target_metadata = keel_app.models.metadata


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = engine_from_config(
        config.get_section(config.config_ini_section, {}),
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with engine.connect() as own_connection:
        context.configure(connection=own_connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


def run_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
