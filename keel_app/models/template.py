"""Templates as submitted: ``raw_template`` rows and the ``files`` maps they share."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from keel_app.models.base import INNODB, Base, Timestamps
from keel_app.models.types import Json


class RawTemplateFiles(Base, Timestamps):
    __tablename__ = "raw_template_files"
    __table_args__ = INNODB

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    files: Mapped[Any] = mapped_column(Json, nullable=True)


class RawTemplate(Base, Timestamps):
    __tablename__ = "raw_template"
    __table_args__ = INNODB

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    template: Mapped[Any] = mapped_column(Json, nullable=True)
    # Rows from before raw_template_files keep their files inline.
    files: Mapped[Any] = mapped_column(Json, nullable=True)
    environment: Mapped[Any] = mapped_column(Json, nullable=True)
    files_id: Mapped[int | None] = mapped_column(
        sa.Integer, sa.ForeignKey("raw_template_files.id", name="raw_tmpl_files_fkey_ref")
    )
