"""Convergence join points: one row per (entity, traversal, direction)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from keel_app.models.base import Base, Timestamps
from keel_app.models.types import Json


class SyncPoint(Base, Timestamps):
    __tablename__ = "sync_point"

    entity_id: Mapped[str] = mapped_column(sa.String(36), primary_key=True)
    traversal_id: Mapped[str] = mapped_column(sa.String(36), primary_key=True)
    is_update: Mapped[bool] = mapped_column(sa.Boolean, primary_key=True)
    atomic_key: Mapped[int] = mapped_column(sa.Integer, nullable=False)
    stack_id: Mapped[str] = mapped_column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)
    input_data: Mapped[Any] = mapped_column(Json, nullable=True)
    extra_data: Mapped[Any] = mapped_column(Json, nullable=True)
