"""The registry of custom constraints: Heat's names, found through entry points."""

from __future__ import annotations

import pytest

from keel_app.engine.constraints import registry
from keel_app.engine.constraints.builtin import dns, network, testing
from tests import oracle

HEAT_NAMES_SOURCE = """
import json
from importlib import metadata
print(json.dumps(sorted(entry.name for entry in metadata.entry_points(group="heat.constraints"))))
"""


@pytest.mark.oracle
def test_every_name_heat_registers_is_registered() -> None:
    assert registry.constraint_names() == oracle.run_json(HEAT_NAMES_SOURCE)


def test_names_find_their_validators() -> None:
    assert registry.get_constraint("ip_addr") is network.IPConstraint
    assert registry.get_constraint("rel_dns_name") is dns.RelativeDNSNameConstraint
    # Heat registers its delaying test constraint under this name too.
    assert registry.get_constraint("nova.network") is testing.TestConstraintDelay


def test_unknown_name_finds_nothing() -> None:
    assert registry.get_constraint("nova.flavour") is None
