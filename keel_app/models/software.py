"""Software configs (immutable) and their deployments to servers."""

from __future__ import annotations

import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from keel_app.models.base import INNODB, Base, StateAware, Timestamps, new_uuid
from keel_app.models.types import Json


class SoftwareConfig(Base, Timestamps):
    __tablename__ = "software_config"
    __table_args__ = INNODB

    id: Mapped[str] = mapped_column(sa.String(36), primary_key=True, default=new_uuid)
    name: Mapped[str | None] = mapped_column(sa.String(255))
    group: Mapped[str | None] = mapped_column(sa.String(255))
    config: Mapped[Any] = mapped_column(Json, nullable=True)
    tenant: Mapped[str] = mapped_column(sa.String(64), nullable=False, index=True)


class SoftwareDeployment(Base, Timestamps, StateAware):
    __tablename__ = "software_deployment"
    __table_args__ = (sa.Index("ix_software_deployment_created_at", "created_at"),)

    id: Mapped[str] = mapped_column(sa.String(36), primary_key=True, default=new_uuid)
    server_id: Mapped[str] = mapped_column(sa.String(36), nullable=False, index=True)
    config_id: Mapped[str] = mapped_column(
        sa.String(36), sa.ForeignKey("software_config.id"), nullable=False
    )
    input_values: Mapped[Any] = mapped_column(Json, nullable=True)
    output_values: Mapped[Any] = mapped_column(Json, nullable=True)
    tenant: Mapped[str] = mapped_column(sa.String(64), nullable=False, index=True)
    stack_user_project_id: Mapped[str | None] = mapped_column(sa.String(64))
    # Set from the signal's own timestamp, never onupdate.
    updated_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime)
