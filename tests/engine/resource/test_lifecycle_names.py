"""Physical resource names: Heat's short ids and the way long names are cut."""

from __future__ import annotations

import json
import uuid

import pytest

from keel_app.engine.resource.lifecycle import reduce_physical_resource_name, short_id
from tests import oracle

UUIDS = [
    "20f69334-5226-4952-9581-c9efdb707edd",
    "00000000-0000-4000-8000-000000000000",
    "ffffffff-ffff-4fff-bfff-ffffffffffff",
    "8b2e4c1d-9a3f-4e6b-a1c2-d3e4f5a6b7c8",
]


@pytest.mark.oracle
def test_short_ids_are_heats() -> None:
    source = """
import json, sys
from heat.common import short_id
print(json.dumps([short_id.get_id(value) for value in json.loads(sys.argv[1])]))
"""
    assert [short_id(value) for value in UUIDS] == oracle.run_json(source, json.dumps(UUIDS))


def test_short_id_is_twelve_lower_case_characters() -> None:
    value = short_id(uuid.uuid4())
    assert len(value) == 12
    assert value == value.lower()


def test_short_id_refuses_other_uuid_versions() -> None:
    with pytest.raises(ValueError, match=r"Invalid UUID version \(1\)"):
        short_id(uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8"))


def test_a_name_within_the_limit_is_kept() -> None:
    assert reduce_physical_resource_name("stack-res-abcdefabcdef", 22) == "stack-res-abcdefabcdef"


def test_a_long_name_keeps_its_first_two_characters_and_its_end() -> None:
    assert reduce_physical_resource_name("stack-resource-abcdefabcdef", 16) == "st--abcdefabcdef"
    assert len(reduce_physical_resource_name("x" * 300, 255)) == 255


def test_a_limit_below_four_is_refused() -> None:
    with pytest.raises(ValueError, match="limit cannot be less than 4"):
        reduce_physical_resource_name("abcdef", 3)
