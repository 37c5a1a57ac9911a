"""Building a stack of plugin resources for the plugin tests."""

from __future__ import annotations

from typing import Any

from tests.engine.resource import keel_side


def build(resources: str, version: str = "2015-04-30", strict: bool = True) -> Any:
    template = f"heat_template_version: {version}\nresources:\n{resources}"
    case = {"template": template, "catalog": keel_side.DEFAULT_CATALOG, "strict": strict}
    return keel_side.build_stack(case)
