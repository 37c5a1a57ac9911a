"""A class attribute that imports its value on first use.

Template classes name the parameter classes of another package; importing them
lazily keeps the template modules importable on their own and free of import cycles.
"""

from __future__ import annotations

import importlib
from typing import Any


class LazyImport:
    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        return getattr(importlib.import_module(self.module), self.name)

    def __repr__(self) -> str:
        return f"LazyImport({self.module}.{self.name})"
