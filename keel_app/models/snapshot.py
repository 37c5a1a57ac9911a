"""Stack snapshots and, for convergence stacks, their per-resource parts."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from keel_app.models.base import INNODB, Base, Timestamps, new_uuid
from keel_app.models.types import Json


class Snapshot(Base, Timestamps):
    __tablename__ = "snapshot"
    __table_args__ = INNODB

    id: Mapped[str] = mapped_column(sa.String(36), primary_key=True, default=new_uuid)
    stack_id: Mapped[str] = mapped_column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)
    name: Mapped[str | None] = mapped_column(sa.String(255))
    status: Mapped[str | None] = mapped_column(sa.String(255))
    status_reason: Mapped[str | None] = mapped_column(sa.String(255))
    data: Mapped[Any] = mapped_column(Json, nullable=True)
    tenant: Mapped[str] = mapped_column(sa.String(64), nullable=False, index=True)
    action: Mapped[str | None] = mapped_column(sa.String(255))


class ResourceSnapshot(Base, Timestamps):
    __tablename__ = "resource_snapshot"
    __table_args__ = (sa.Index("ix_resource_snapshot_snapshot_id", "snapshot_id"), INNODB)

    id: Mapped[str] = mapped_column(sa.String(36), primary_key=True, default=new_uuid)
    snapshot_id: Mapped[str] = mapped_column(
        sa.String(36), sa.ForeignKey("snapshot.id"), nullable=False
    )
    resource_name: Mapped[str] = mapped_column(sa.String(255), nullable=False)
    data: Mapped[Any] = mapped_column(Json, nullable=True)
