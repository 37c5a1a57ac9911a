"""Sync point and node data forms, character for character as Heat serialises them."""

from __future__ import annotations

import json

import pytest

from keel_app.engine.convergence import sync_point
from keel_app.engine.convergence.node_data import NodeData, load_resources_data
from tests import oracle

NODE = NodeData(
    41,
    "a",
    "8b2e0000-0000-4000-8000-000000000000",
    "a-xyz",
    {"output": "one", ("show", "value"): "one", ("nested", 0, "key"): [1, 2]},
    "CREATE",
    "COMPLETE",
)

HEAT_SOURCE = """
import json
from heat.engine import node_data, sync_point
node = node_data.NodeData(
    41, "a", "8b2e0000-0000-4000-8000-000000000000", "a-xyz",
    {"output": "one", ("show", "value"): "one", ("nested", 0, "key"): [1, 2]},
    "CREATE", "COMPLETE")
input_data = {(41, True): node.as_dict(), (7, False): None, (9, True): 9}
print(json.dumps({
    "input": sync_point.serialize_input_data(input_data),
    "extra": sync_point.serialize_extra_data(
        {"resource_failures": {"a": "boom"}, "skip_propagate": True}),
    "key": sync_point.make_key(41, "1d0c", True),
    "packed": sync_point.str_pack_tuple((41, True, "resource")),
}, sort_keys=True))
"""


def our_forms() -> dict[str, object]:
    input_data = {(41, True): NODE.as_dict(), (7, False): None, (9, True): 9}
    return {
        "input": sync_point.serialize_input_data(input_data),
        "extra": sync_point.serialize_extra_data(
            {"resource_failures": {"a": "boom"}, "skip_propagate": True}
        ),
        "key": sync_point.make_key(41, "1d0c", True),
        "packed": sync_point.str_pack_tuple((41, True, "resource")),
    }


@pytest.mark.oracle
def test_serialised_forms_are_heats() -> None:
    ours = json.dumps(our_forms(), sort_keys=True)
    assert ours == oracle.run(HEAT_SOURCE).strip()


def test_serialised_input_data_golden_string() -> None:
    stored = sync_point.serialize_input_data({(41, True): NODE.as_dict(), (7, False): None})
    assert json.dumps(stored, sort_keys=True) == (
        '{"input_data": {"tuple:(41, True)": {"action": "CREATE", "attrs": '
        '{"output": "one", "tuple:(\'nested\', 0, \'key\')": [1, 2], '
        '"tuple:(\'show\', \'value\')": "one"}, "id": 41, "name": "a", '
        '"reference_id": "a-xyz", "status": "COMPLETE", '
        '"uuid": "8b2e0000-0000-4000-8000-000000000000"}, "tuple:(7, False)": null}}'
    )


def test_deserialise_reverses_serialise_through_json() -> None:
    input_data = {(41, True): NODE.as_dict(), (7, False): None}
    stored = json.loads(json.dumps(sync_point.serialize_input_data(input_data)))
    assert sync_point.deserialize_input_data(stored) == input_data


def test_empty_stored_data_deserialises_to_empty() -> None:
    assert sync_point.deserialize_input_data({}) == {}
    assert sync_point.deserialize_extra_data({"extra_data": None}) == {}


def test_node_data_round_trip() -> None:
    assert NodeData.from_dict(NODE.as_dict()) == NODE


def test_node_data_with_a_failed_attribute_cannot_be_sent() -> None:
    node = NodeData(1, "a", None, "a", {"x": ValueError("no x")}, "CREATE", "COMPLETE")
    with pytest.raises(ValueError, match="no x"):
        node.as_dict()


def test_load_resources_data_names_nodes_and_skips_empty_inputs() -> None:
    loaded = load_resources_data({(41, True): NODE.as_dict(), (7, False): None})
    assert list(loaded) == ["a"]
    assert loaded["a"].attribute(("show", "value")) == "one"
    assert loaded["a"].reference_id() == "a-xyz"


@pytest.mark.oracle
def test_heat_reads_back_our_node_data() -> None:
    source = """
import json, sys
from heat.engine import node_data, sync_point
stored = json.loads(sys.argv[1])
data = sync_point.deserialize_input_data(stored)
nodes = node_data.load_resources_data(data)
print(json.dumps({name: [n.reference_id(), n.attribute(("show", "value")), n.primary_key]
                  for name, n in nodes.items()}))
"""
    stored = sync_point.serialize_input_data({(41, True): NODE.as_dict(), (7, False): None})
    assert oracle.run_json(source, json.dumps(stored)) == {"a": ["a-xyz", "one", 41]}


@pytest.mark.parametrize(
    "key",
    [(41, True), (7, False), (41, True, "resource"), (7, False, "snapshot"), ("show", "value")],
)
def test_node_keys_read_back_as_python_reads_them(key: tuple[object, ...]) -> None:
    stored = json.loads(json.dumps(sync_point.serialize_input_data({key: None})))
    assert list(sync_point.deserialize_input_data(stored)) == [key]
