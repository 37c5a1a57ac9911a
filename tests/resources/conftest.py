"""Fixtures of the plugin tests that run stacks: an engine on each database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine.convergence.nested import NestedEngine, nested_engine


@pytest.fixture
def nested(empty_database_url: str) -> Iterator[NestedEngine]:
    """Stacks created, updated and deleted through the service on a LocalQueue."""
    yield from nested_engine(empty_database_url)
