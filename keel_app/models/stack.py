"""Stacks and what hangs off them directly: tags, the legacy lock, stored credentials."""

from __future__ import annotations

import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column, relationship

from keel_app.models.base import INNODB, Base, SoftDelete, StateAware, Timestamps, new_uuid
from keel_app.models.types import Json


class UserCreds(Base, Timestamps):
    __tablename__ = "user_creds"
    __table_args__ = INNODB

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    username: Mapped[str | None] = mapped_column(sa.String(255))
    password: Mapped[str | None] = mapped_column(sa.String(255))
    region_name: Mapped[str | None] = mapped_column(sa.String(255))
    decrypt_method: Mapped[str | None] = mapped_column(sa.String(64))
    tenant: Mapped[str | None] = mapped_column(sa.String(1024))
    auth_url: Mapped[str | None] = mapped_column(sa.Text)
    tenant_id: Mapped[str | None] = mapped_column(sa.String(256))
    trust_id: Mapped[str | None] = mapped_column(sa.String(255))
    trustor_user_id: Mapped[str | None] = mapped_column(sa.String(64))


class Stack(Base, Timestamps, SoftDelete, StateAware):
    __tablename__ = "stack"
    __table_args__ = (
        sa.Index("ix_stack_name", "name", mysql_length=255),
        sa.Index("ix_stack_tenant", "tenant", mysql_length=255),
    )

    id: Mapped[str] = mapped_column(sa.String(36), primary_key=True, default=new_uuid)
    name: Mapped[str | None] = mapped_column(sa.String(255))
    raw_template_id: Mapped[int] = mapped_column(
        sa.Integer, sa.ForeignKey("raw_template.id"), nullable=False
    )
    prev_raw_template_id: Mapped[int | None] = mapped_column(
        sa.Integer, sa.ForeignKey("raw_template.id")
    )
    username: Mapped[str | None] = mapped_column(sa.String(256))
    tenant: Mapped[str | None] = mapped_column(sa.String(256))
    user_creds_id: Mapped[int | None] = mapped_column(sa.Integer, sa.ForeignKey("user_creds.id"))
    owner_id: Mapped[str | None] = mapped_column(sa.String(36), index=True)
    parent_resource_name: Mapped[str | None] = mapped_column(sa.String(255))
    timeout: Mapped[int | None] = mapped_column(sa.Integer)
    disable_rollback: Mapped[bool] = mapped_column(sa.Boolean, nullable=False)
    stack_user_project_id: Mapped[str | None] = mapped_column(sa.String(64))
    backup: Mapped[bool | None] = mapped_column(sa.Boolean)
    nested_depth: Mapped[int | None] = mapped_column(sa.Integer)
    convergence: Mapped[bool | None] = mapped_column(sa.Boolean)
    current_traversal: Mapped[str | None] = mapped_column(sa.String(36))
    current_deps: Mapped[Any] = mapped_column(Json, nullable=True)
    # The time of the request that last changed the stack, set explicitly: never onupdate.
    updated_at: Mapped[datetime.datetime | None] = mapped_column(sa.DateTime)

    tags: Mapped[list[StackTag]] = relationship(
        cascade="all, delete-orphan", order_by="StackTag.id", lazy="selectin"
    )


class StackTag(Base, Timestamps):
    __tablename__ = "stack_tag"
    __table_args__ = INNODB

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    tag: Mapped[str | None] = mapped_column(sa.Unicode(80))
    stack_id: Mapped[str] = mapped_column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)


class StackLock(Base, Timestamps):
    __tablename__ = "stack_lock"
    __table_args__ = INNODB

    stack_id: Mapped[str] = mapped_column(
        sa.String(36), sa.ForeignKey("stack.id"), primary_key=True
    )
    engine_id: Mapped[str | None] = mapped_column(sa.String(36))
