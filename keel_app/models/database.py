"""One handle on the Heat database: engine, transactions, and retries of writes.

Built from ``[database]`` of heat.conf (``Database.from_conf``) or from a URL; the db api
functions take it as their first argument instead of reading a global.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

import sqlalchemy as sa
from oslo_config import cfg
from sqlalchemy import event, exc
from sqlalchemy.orm import Session, sessionmaker

from keel_app.common import config, metrics
from keel_app.models.unit_of_work import UnitsOfWork

LOG = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

# Server error codes that mean "the same statement may succeed if run again".
_MYSQL_DEADLOCK_CODES = {1205, 1213}
_POSTGRESQL_RETRY_STATES = {"40001", "40P01"}


@dataclass(frozen=True)
class RetryPolicy:
    """``[database]/db_max_retries`` and the waits between tries, as oslo.db spaces them."""

    max_retries: int = 20
    retry_interval: float = 1
    inc_retry_interval: bool = True
    max_retry_interval: float = 10

    def waits(self) -> Iterator[float]:
        wait = self.retry_interval
        attempt = 0
        while self.max_retries < 0 or attempt < self.max_retries:
            attempt += 1
            yield wait
            if self.inc_retry_interval:
                wait = min(wait * 2, self.max_retry_interval)


class Database:
    def __init__(self, url: str, *, retry: RetryPolicy | None = None, **engine_options: Any):
        self.url = sa.make_url(url)
        self.retry = retry or RetryPolicy()
        self.engine = _create_engine(self.url, **engine_options)
        self._sessions = sessionmaker(bind=self.engine, expire_on_commit=False)
        # Units of work read what other engines committed since they began (see
        # ``unit_of_work``): MariaDB's default REPEATABLE READ would show them a snapshot.
        self._unit_engine = self.engine
        if self.is_mysql:
            self._unit_engine = _create_engine(
                self.url, isolation_level="READ COMMITTED", **engine_options
            )
        self._units = UnitsOfWork(sessionmaker(bind=self._unit_engine, expire_on_commit=False))

    @classmethod
    def from_conf(cls, conf: cfg.ConfigOpts) -> Database:
        options = conf.database
        retry = RetryPolicy(
            max_retries=options.db_max_retries,
            retry_interval=options.db_retry_interval,
            inc_retry_interval=options.db_inc_retry_interval,
            max_retry_interval=options.db_max_retry_interval,
        )
        return cls(
            config.database_url(conf),
            retry=retry,
            mysql_sql_mode=options.mysql_sql_mode,
            pool_recycle=options.connection_recycle_time,
            pool_size=options.max_pool_size,
            max_overflow=options.max_overflow,
            pool_timeout=options.pool_timeout,
            sqlite_synchronous=options.sqlite_synchronous,
        )

    @property
    def engines(self) -> tuple[sa.Engine, ...]:
        """Every engine the database's statements go through (units of work may have
        their own), for listeners that must see them all."""
        if self._unit_engine is self.engine:
            return (self.engine,)
        return (self.engine, self._unit_engine)

    @property
    def is_mysql(self) -> bool:
        return self.url.get_backend_name() == "mysql"

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session whose work commits on a clean exit and rolls back on an exception.

        Inside a unit of work of this thread, the unit's session: its work commits with
        the unit's.
        """
        unit = self._units.current()
        if unit is not None and unit.joined:
            with self._units.join(unit) as session:
                yield session
            return
        with self._sessions() as session, session.begin():
            yield session

    def unit_of_work(self) -> contextlib.AbstractContextManager[Any]:
        """Join this thread's transactions into one, committed when the block ends
        (``keel_app.models.unit_of_work``); raises UnitBroken when it was rolled back."""
        return self._units.unit()

    def in_unit_of_work(self) -> bool:
        """Whether this thread's transactions are joined into a unit of work now."""
        return self._units.joined()

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` after the thread's unit of work commits, or now outside one."""
        self._units.after_commit(callback)

    def checkpoint(self) -> None:
        """Commit the thread's unit of work so far; later transactions commit alone."""
        self._units.checkpoint()

    def dispose(self) -> None:
        self.engine.dispose()
        if self._unit_engine is not self.engine:
            self._unit_engine.dispose()


def _create_engine(
    url: sa.URL,
    *,
    mysql_sql_mode: str | None = "TRADITIONAL",
    pool_recycle: int = 3600,
    pool_size: int = 5,
    max_overflow: int = 50,
    pool_timeout: int | None = None,
    sqlite_synchronous: bool = True,
    isolation_level: str | None = None,
) -> sa.Engine:
    backend = url.get_backend_name()
    options: dict[str, Any] = {}
    if isolation_level is not None:
        options["isolation_level"] = isolation_level
    if backend == "sqlite":
        # Several processes share the file: wait for a writer instead of failing at once.
        options["connect_args"] = {"timeout": 30}
    else:
        options.update(pool_recycle=pool_recycle, pool_size=pool_size, max_overflow=max_overflow)
        if pool_timeout is not None:
            options["pool_timeout"] = pool_timeout
    if backend == "mysql":
        # Reset by ``_roll_back_open_transactions`` instead.
        options["pool_reset_on_return"] = None
    engine = sa.create_engine(url, **options)
    if backend == "mysql":
        _roll_back_open_transactions(engine)
    _ping_idle_connections(engine, PING_AFTER_IDLE)
    _count_statements(engine)
    if backend == "sqlite":
        _configure_sqlite(engine, sqlite_synchronous)
    elif backend == "mysql" and mysql_sql_mode:
        _set_mysql_sql_mode(engine, mysql_sql_mode)
    return engine


def _count_statements(engine: sa.Engine) -> None:
    @event.listens_for(engine, "before_cursor_execute")
    def _before(_connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        metrics.count_statement(statement)


# A connection given back to the pool less than this many seconds ago is taken as alive.
PING_AFTER_IDLE = 1.0


def _ping_idle_connections(engine: sa.Engine, idle: float) -> None:
    """Ping a pooled connection at checkout only when it has been idle for ``idle`` seconds.

    SQLAlchemy's ``pool_pre_ping`` pings at every checkout: a convergence step opens
    several short transactions, and a round trip before each of them was a sixth of a
    worker's time. A connection that was in use a moment ago is no likelier to be dead
    than one pinged a moment ago; one found dead is replaced, as ``pool_pre_ping`` would.
    """

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["keel_returned_at"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned = record.info.get("keel_returned_at")
        if returned is not None and time.monotonic() - returned < idle:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            # The pool discards the connection and checks out another.
            raise exc.DisconnectionError(f"connection found dead: {error}") from error


def _roll_back_open_transactions(engine: sa.Engine) -> None:
    """Roll a connection back when it goes back to the pool only if a transaction may be
    open on it.

    The pool's own reset rolls back every connection it is given back, even one whose
    transaction has just committed: one more round trip after each of a step's commits.
    A connection is marked open when it is taken from the pool and when a transaction
    begins on it, and closed when one commits or rolls back: one used outside the
    Connection's transactions (a raw DBAPI connection) is rolled back, as the pool would.
    """

    @event.listens_for(engine, "checkout")
    def _taken(_dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        record.info[_TRANSACTION_OPEN] = True

    @event.listens_for(engine, "begin")
    def _began(connection: sa.Connection) -> None:
        connection.info[_TRANSACTION_OPEN] = True

    @event.listens_for(engine, "commit")
    @event.listens_for(engine, "rollback")
    def _ended(connection: sa.Connection) -> None:
        connection.info[_TRANSACTION_OPEN] = False

    @event.listens_for(engine, "reset")
    def _reset(dbapi_connection: Any, record: Any, state: Any) -> None:
        if state.terminate_only or record is None:
            return
        if record.info.get(_TRANSACTION_OPEN, True):
            dbapi_connection.rollback()


_TRANSACTION_OPEN = "keel_transaction_open"


def _configure_sqlite(engine: sa.Engine, synchronous: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy issue BEGIN itself so that a transaction takes the write lock
        # at its first statement and compare-and-swap updates stay atomic.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        # Write-ahead logging: readers do not wait for the writer (an in-memory database
        # ignores it). Under WAL, NORMAL syncs at checkpoints instead of at every commit:
        # a commit survives the process's crash, only an OS crash may lose the last ones,
        # and the file stays consistent. A sync a commit cost a chain of steps ~5 ms a hop.
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA synchronous = {'NORMAL' if synchronous else 'OFF'}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _set_mysql_sql_mode(engine: sa.Engine, sql_mode: str) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("SET SESSION sql_mode = %s", [sql_mode])
        cursor.close()


def is_retriable(error: BaseException) -> bool:
    """Deadlocks, serialisation failures, lock timeouts and lost connections."""
    if isinstance(error, exc.DBAPIError) and error.connection_invalidated:
        return True
    if not isinstance(error, (exc.OperationalError, exc.InternalError)):
        return False
    original = error.orig
    code = getattr(original, "args", (None,))[0] if original is not None else None
    if isinstance(code, int) and code in _MYSQL_DEADLOCK_CODES | {2006, 2013}:
        return True
    if getattr(original, "pgcode", None) in _POSTGRESQL_RETRY_STATES:
        return True
    return "database is locked" in str(original)


def retry_on_db_error(
    function: Callable[Concatenate[Database, P], R],
) -> Callable[Concatenate[Database, P], R]:
    """Run a db api writer again on a retriable error, as ``@retry_on_db_error`` does in Heat.

    The wrapped function must do its whole work in one transaction of its own, so a retry
    repeats it from the start.
    """

    @functools.wraps(function)
    def run(database: Database, *args: P.args, **kwargs: P.kwargs) -> R:
        if database.in_unit_of_work():
            # A deadlock ends the whole unit's transaction: its owner runs it again.
            return function(database, *args, **kwargs)
        waits = database.retry.waits()
        while True:
            try:
                return function(database, *args, **kwargs)
            except exc.DBAPIError as error:
                if not is_retriable(error):
                    raise
                wait = next(waits, None)
                if wait is None:
                    raise
                LOG.warning("retrying %s after a database error: %s", function.__name__, error)
                metrics.DATABASE_RETRIES.labels("writer").inc()
                time.sleep(wait)

    return run
