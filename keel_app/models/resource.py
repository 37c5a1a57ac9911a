"""Resources: one row per version of a resource, its key/value data and its properties."""

from __future__ import annotations

import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from keel_app.models.base import INNODB, Base, StateAware, Timestamps, new_uuid
from keel_app.models.types import Json, List


class ResourcePropertiesData(Base, Timestamps):
    __tablename__ = "resource_properties_data"
    __table_args__ = INNODB

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    data: Mapped[Any] = mapped_column(Json, nullable=True)
    encrypted: Mapped[bool | None] = mapped_column(sa.Boolean)


class Resource(Base, Timestamps, StateAware):
    __tablename__ = "resource"
    __table_args__ = INNODB

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    uuid: Mapped[str | None] = mapped_column(sa.String(36), default=new_uuid, unique=True)
    # The physical id keeps the column name of Heat's first resource type.
    physical_resource_id: Mapped[str | None] = mapped_column("nova_instance", sa.String(255))
    name: Mapped[str | None] = mapped_column(sa.String(255))
    stack_id: Mapped[str] = mapped_column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)
    rsrc_metadata: Mapped[Any] = mapped_column(Json, nullable=True)
    properties_data: Mapped[Any] = mapped_column(Json, nullable=True)
    engine_id: Mapped[str | None] = mapped_column(sa.String(36))
    atomic_key: Mapped[int | None] = mapped_column(sa.Integer)
    needed_by: Mapped[Any] = mapped_column(List, nullable=True)
    requires: Mapped[Any] = mapped_column(List, nullable=True)
    replaces: Mapped[int | None] = mapped_column(sa.Integer)
    replaced_by: Mapped[int | None] = mapped_column(sa.Integer)
    current_template_id: Mapped[int | None] = mapped_column(
        sa.Integer, sa.ForeignKey("raw_template.id")
    )
    properties_data_encrypted: Mapped[bool | None] = mapped_column(sa.Boolean)
    root_stack_id: Mapped[str | None] = mapped_column(sa.String(36), index=True)
    rsrc_prop_data_id: Mapped[int | None] = mapped_column(
        sa.Integer,
        sa.ForeignKey("resource_properties_data.id", name="rsrc_rsrc_prop_data_ref"),
    )
    attr_data_id: Mapped[int | None] = mapped_column(
        sa.Integer, sa.ForeignKey("resource_properties_data.id", name="rsrc_attr_data_ref")
    )
    # The time of the request that last changed the resource, set explicitly.
    updated_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime)


class ResourceData(Base, Timestamps):
    __tablename__ = "resource_data"
    __table_args__ = INNODB

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    key: Mapped[str | None] = mapped_column(sa.String(255))
    value: Mapped[str | None] = mapped_column(sa.Text)
    redact: Mapped[bool | None] = mapped_column(sa.Boolean)
    decrypt_method: Mapped[str | None] = mapped_column(sa.String(64))
    resource_id: Mapped[int] = mapped_column(
        sa.Integer,
        sa.ForeignKey("resource.id", name="fk_resource_id", ondelete="CASCADE"),
        nullable=False,
    )
