"""The version the commands print for ``--version``: the installed openkeel distribution's."""

from __future__ import annotations

import importlib.metadata

DISTRIBUTION = "openkeel"


def package_version() -> str:
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"
