"""validate_template and get_revision on the RPC surface."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.engine.service.container_files import with_container_files
from keel_app.engine.settings import EngineSettings
from keel_app.engine.validate import service as validate_service
from keel_app.models.database import Database


def validate_template(
    context: Any,
    settings: EngineSettings,
    database: Database,
    dispatcher: Any,
    *,
    template: Mapping[str, Any] | None,
    params: dict[str, Any] | None = None,
    files: dict[str, Any] | None = None,
    environment_files: list[str] | None = None,
    files_container: str | None = None,
    show_nested: bool = False,
    ignorable_errors: list[str] | None = None,
) -> validate_service.Answer:
    """The document, ``{"Error": message}``, or a returned ``BadRequest`` (Heat's
    answers, under the settings' limits)."""
    files = with_container_files(context, settings, files_container, files)
    return validate_service.validate_template(
        template,
        params,
        files,
        environment_files,
        show_nested,
        ignorable_errors,
        limits=settings.template_limits,
        context=context,
    )


def get_revision(
    context: Any, settings: EngineSettings, database: Database, dispatcher: Any
) -> str:
    return settings.heat_revision
