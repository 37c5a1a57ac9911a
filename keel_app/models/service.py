"""Engine heartbeats, one row per engine process."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from keel_app.models.base import INNODB, Base, SoftDelete, Timestamps, new_uuid


class Service(Base, Timestamps, SoftDelete):
    __tablename__ = "service"
    __table_args__ = INNODB

    id: Mapped[str] = mapped_column(sa.String(36), primary_key=True, default=new_uuid)
    engine_id: Mapped[str] = mapped_column(sa.String(36), nullable=False)
    host: Mapped[str] = mapped_column(sa.String(255), nullable=False)
    hostname: Mapped[str] = mapped_column(sa.String(255), nullable=False)
    binary: Mapped[str] = mapped_column(sa.String(255), nullable=False)
    topic: Mapped[str] = mapped_column(sa.String(255), nullable=False)
    report_interval: Mapped[int] = mapped_column(sa.Integer, nullable=False)
