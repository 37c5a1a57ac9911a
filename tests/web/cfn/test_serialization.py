"""CFN answer bodies byte for byte: ours beside Heat's own XML and JSON serializers
(lxml) in the oracle, and what we write where Heat's serializer fails."""

from __future__ import annotations

import json
from typing import Any

import pytest

from keel_app.web.cfn import serialization
from tests import oracle

DOCUMENTS: list[dict[str, Any]] = [
    {"R": {"a": "", "b": None, "c": [], "d": {}, "e": 0, "f": False, "g": 1.5}},
    {"R": {"text": "x&<>\"'\r\n\t]]>", "unicode": "é€😀", "tag.with-dots_1": "ok"}},
    {"R": {"list": [1, True, {"g": "h"}, [2, 3]], "nested": {"é": {"deeper": "v"}}}},
    {"R": {"Metadata": {}, "TemplateBody": {"x": "é", "n": [1]}, "inner": {"Metadata": ""}}},
    {"R": {"Metadata": {"k": "v"}, "TemplateBody": "already text"}},
    {"Root": "just text"},
    {"Root": ["a", "b"]},
]

HEAT_SERIALIZERS = """
import json, sys
from heat.common import serializers
documents = json.loads(sys.argv[1])
xml = serializers.XMLResponseSerializer()
as_json = serializers.JSONResponseSerializer()
print(json.dumps([[xml.to_xml(document).decode("ascii"), as_json.to_json(document)]
                  for document in documents]))
"""


@pytest.fixture(scope="module")
def heat_bodies() -> list[list[str]]:
    return oracle.run_json(HEAT_SERIALIZERS, json.dumps(DOCUMENTS))


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(DOCUMENTS)))
def test_xml_is_heats(heat_bodies: list[list[str]], index: int) -> None:
    assert serialization.to_xml(DOCUMENTS[index]).decode("ascii") == heat_bodies[index][0]


@pytest.mark.oracle
@pytest.mark.parametrize("index", range(len(DOCUMENTS)))
def test_json_is_heats(heat_bodies: list[list[str]], index: int) -> None:
    assert serialization.to_json(DOCUMENTS[index]).decode("latin-1") == heat_bodies[index][1]


def test_a_mapping_with_keys_that_cannot_name_elements_is_written_as_json() -> None:
    # lxml refuses such element names and Heat's answer fails; the mapping's JSON is kept.
    document = {"R": {"Outputs": {"a b": "<y>", "ok": 2}, "Other": {"1st": 1}}}

    assert serialization.to_xml(document) == (
        b'<R><Outputs>{"a b": "&lt;y&gt;", "ok": 2}</Outputs><Other>{"1st": 1}</Other></R>'
    )


def test_characters_xml_cannot_carry_are_replaced() -> None:
    assert serialization.to_xml({"R": "bell\x07null\x00"}) == b"<R>bell&#65533;null&#65533;</R>"
