"""The size limits a template is checked against, handed in by the caller.

The engine is a library and reads no configuration itself: whoever reads heat.conf
builds a ``TemplateLimits`` from it, and everything else gets Heat's defaults.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TemplateLimits:
    max_template_size: int = 524288
    max_resources_per_stack: int = 1000
    max_nested_stack_depth: int = 5
    max_json_body_size: int = 1048576
    # The yaql function's guards against runaway expressions.
    yaql_limit_iterators: int = 200
    yaql_memory_quota: int = 10000


DEFAULT_LIMITS = TemplateLimits()
