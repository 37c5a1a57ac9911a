"""Databases migrated by Heat 27.0.1's own ``heat-manage db_sync``, for comparison."""

from __future__ import annotations

from pathlib import Path

from tests import oracle


def heat_db_sync(url: str, directory: Path, version: str | None = None) -> None:
    config_file = directory / "heat-oracle.conf"
    config_file.write_text(f"[DEFAULT]\n[database]\nconnection = {url}\n")
    oracle.heat_manage(config_file, "db_sync", *([version] if version else []))
