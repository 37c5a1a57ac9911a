"""A unit of work: the transactions of one convergence step joined into one commit.

A step of a resource whose handlers reach nothing but the database (OS::Heat::None,
Value, RandomString, …) writes its lock and IN_PROGRESS state, its COMPLETE state and
events, and its node data into the sync points of what needs it, each in a transaction
of its own: four commits for one resource. Inside a unit of work, every
``Database.transaction()`` of the thread joins one session instead, and the unit
commits once at its end; what must wait for that commit (sending the next steps) is
registered with ``after_commit`` and runs right after it.

Joining changes what an exception means: a transaction block that raises would have
rolled back its own writes alone. The unit cannot undo a part of itself, so it marks
itself broken, and its owner rolls the whole unit back and runs the step again with
each transaction on its own (``UnitBroken``). ``checkpoint`` commits what the unit
holds so far and lets the rest of the step commit transaction by transaction, for work
that must not be redone (a stack's end, which reaches Keystone and notifies).

Joined reads see the latest committed rows (MariaDB runs the unit at READ COMMITTED,
as PostgreSQL does by default): the step reads rows that other engines change, and a
snapshot taken at its first read would hide their writes.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator

from sqlalchemy.orm import Session

LOG = logging.getLogger(__name__)


class UnitBroken(Exception):
    """A unit of work was rolled back whole: run its work again without joining."""


class Unit:
    """The state of one thread's unit of work."""

    def __init__(self, session: Session):
        self.session: Session | None = session
        self.broken = False
        self.callbacks: list[Callable[[], None]] = []

    @property
    def joined(self) -> bool:
        return self.session is not None

    def run_callbacks(self) -> None:
        callbacks, self.callbacks = self.callbacks, []
        for callback in callbacks:
            callback()


class UnitsOfWork:
    """The units of work of the threads using one database."""

    def __init__(self, make_session: Callable[[], Session]):
        self._make_session = make_session
        self._local = threading.local()

    def current(self) -> Unit | None:
        return getattr(self._local, "unit", None)

    def joined(self) -> bool:
        unit = self.current()
        return unit is not None and unit.joined

    @contextlib.contextmanager
    def unit(self) -> Iterator[Unit]:
        """Join the thread's transactions until the block ends; commit then.

        Raises UnitBroken, with everything rolled back, when a joined transaction block
        raised (whether or not the step caught it); any other exception of the block
        rolls the unit back and goes on up.
        """
        if self.current() is not None:
            raise RuntimeError("units of work do not nest")
        session = self._make_session()
        unit = Unit(session)
        self._local.unit = unit
        try:
            session.begin()
            yield unit
            if unit.joined:
                if unit.broken:
                    raise UnitBroken()
                session.commit()
        except BaseException:
            unit.callbacks.clear()
            if unit.session is not None:
                unit.session.rollback()
            raise
        finally:
            self._local.unit = None
            session.close()
        unit.run_callbacks()

    @contextlib.contextmanager
    def join(self, unit: Unit) -> Iterator[Session]:
        """The unit's session as one transaction block sees it."""
        session = unit.session
        assert session is not None
        try:
            yield session
            session.flush()
        except BaseException:
            unit.broken = True
            raise
        finally:
            # Each block of the old kind had a session of its own: rows it read are not
            # handed, stale, to the next block from the identity map.
            session.expunge_all()

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the unit's work is committed (at once outside a unit)."""
        unit = self.current()
        if unit is None or not unit.joined:
            callback()
            return
        unit.callbacks.append(callback)

    def checkpoint(self) -> None:
        """Commit the unit's work now; the rest of the step commits block by block."""
        unit = self.current()
        if unit is None or not unit.joined:
            return
        session = unit.session
        assert session is not None
        if unit.broken:
            raise UnitBroken()
        session.commit()
        session.close()
        unit.session = None
        unit.run_callbacks()
