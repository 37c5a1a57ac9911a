"""The declarative base and the column groups that Heat's tables share."""

from __future__ import annotations

import datetime
import uuid

import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

INNODB = {"mysql_engine": "InnoDB"}


def utcnow() -> datetime.datetime:
    """Naive UTC, as Heat writes its DateTime columns."""
    return datetime.datetime.now(datetime.UTC).replace(tzinfo=None)


def new_uuid() -> str:
    return str(uuid.uuid4())


class Base(DeclarativeBase):
    pass


class Timestamps:
    created_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime, default=utcnow)
    updated_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime, onupdate=utcnow)


class SoftDelete:
    deleted_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime)


class StateAware:
    action: Mapped[str | None] = mapped_column(sa.String(255))
    status: Mapped[str | None] = mapped_column(sa.String(255))
    status_reason: Mapped[str | None] = mapped_column(sa.Text)
