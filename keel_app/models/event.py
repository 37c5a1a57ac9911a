"""Events: one row per resource state change."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, validates

from keel_app.models.base import INNODB, Base, Timestamps, new_uuid

EVENT_REASON_MAX_CHARACTERS = 255


class Event(Base, Timestamps):
    __tablename__ = "event"
    __table_args__ = INNODB

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    uuid: Mapped[str | None] = mapped_column(sa.String(36), default=new_uuid, unique=True)
    stack_id: Mapped[str] = mapped_column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)
    resource_action: Mapped[str | None] = mapped_column(sa.String(255))
    resource_status: Mapped[str | None] = mapped_column(sa.String(255))
    resource_name: Mapped[str | None] = mapped_column(sa.String(255))
    physical_resource_id: Mapped[str | None] = mapped_column(sa.String(255))
    resource_status_reason: Mapped[str | None] = mapped_column(sa.String(255))
    resource_type: Mapped[str | None] = mapped_column(sa.String(255))
    # Written only by old releases; kept readable for events from before properties data.
    resource_properties: Mapped[Any] = mapped_column(sa.PickleType, nullable=True)
    rsrc_prop_data_id: Mapped[int | None] = mapped_column(
        sa.Integer,
        sa.ForeignKey("resource_properties_data.id", name="ev_rsrc_prop_data_ref"),
    )

    @validates("resource_status_reason")
    def _truncate_reason(self, _key: str, reason: str | None) -> str:
        return truncated_reason(reason)


def truncated_reason(reason: str | None) -> str:
    """An event's reason as stored: Heat stores an empty string, never NULL, and at most
    255 characters."""
    return reason[:EVENT_REASON_MAX_CHARACTERS] if reason else ""
