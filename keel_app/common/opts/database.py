"""[database]: the option names and defaults of oslo.db, which Heat reads its database from."""

from oslo_config import cfg

DATABASE_OPTS = [
    cfg.StrOpt("backend", default="sqlalchemy", help="Database API backend."),
    cfg.StrOpt(
        "connection",
        secret=True,
        help="SQLAlchemy URL of the Heat database. Unset: SQLite in the state directory.",
    ),
    cfg.StrOpt("slave_connection", secret=True, help="SQLAlchemy URL of a read-only replica."),
    cfg.StrOpt("asyncio_connection", secret=True, help="SQLAlchemy asyncio URL of the database."),
    cfg.StrOpt(
        "asyncio_slave_connection", secret=True, help="SQLAlchemy asyncio URL of the replica."
    ),
    cfg.BoolOpt(
        "synchronous_reader",
        default=True,
        help="Readers must see committed writes, so they never use the replica.",
    ),
    cfg.StrOpt("mysql_sql_mode", default="TRADITIONAL", help="sql_mode set on MySQL sessions."),
    cfg.IntOpt("mysql_wsrep_sync_wait", help="wsrep_sync_wait set on Galera sessions, when given."),
    cfg.IntOpt(
        "connection_recycle_time",
        default=3600,
        help="Seconds after which a pooled connection is recycled.",
    ),
    cfg.IntOpt("max_pool_size", default=5, help="Connections kept open in the pool."),
    cfg.IntOpt("max_retries", default=10, help="Retries when first connecting; -1 is forever."),
    cfg.IntOpt("retry_interval", default=10, help="Seconds between first-connection retries."),
    cfg.IntOpt("max_overflow", default=50, help="Connections allowed beyond max_pool_size."),
    cfg.IntOpt("connection_debug", default=0, min=0, max=100, help="SQL logging verbosity."),
    cfg.BoolOpt("connection_trace", default=False, help="Accepted for heat.conf compatibility."),
    cfg.IntOpt("pool_timeout", help="Seconds to wait for a pooled connection."),
    cfg.BoolOpt("sqlite_synchronous", default=True, help="PRAGMA synchronous on SQLite."),
    cfg.BoolOpt("use_db_reconnect", default=False, help="Accepted for heat.conf compatibility."),
    cfg.IntOpt("db_retry_interval", default=1, help="Seconds before the first retry of a write."),
    cfg.BoolOpt(
        "db_inc_retry_interval",
        default=True,
        help="Double the wait between retries, up to db_max_retry_interval.",
    ),
    cfg.IntOpt("db_max_retry_interval", default=10, help="Longest wait between retries."),
    cfg.IntOpt(
        "db_max_retries",
        default=20,
        help="Retries of a write on deadlock or lost connection; -1 is forever.",
    ),
    cfg.StrOpt("connection_parameters", default="", help="Extra query string for the URL."),
]

GROUPS = [("database", DATABASE_OPTS)]
