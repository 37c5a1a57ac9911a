"""The traversal graph: built from the template's graph and the stored rows, stored as edges."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from keel_app.engine.convergence.traversal_graph import (
    ConvergenceNode,
    compute_dependencies,
    edges_document,
    from_edges_document,
)
from keel_app.engine.graph import Dependencies
from tests import oracle

# A template where "b" needs "a"; stored rows: a (1) and an old b (2) replaced by b (3).
TEMPLATE_GRAPH = Dependencies([("b", "a"), ("a", None)])
CURRENT = {"a": 1, "b": 3}
EXISTING = {
    1: SimpleNamespace(id=1, requires=[], replaces=None),
    2: SimpleNamespace(id=2, requires=[1], replaces=None),
    3: SimpleNamespace(id=3, requires=[1], replaces=2),
}


def test_graph_golden_string() -> None:
    graph = compute_dependencies(TEMPLATE_GRAPH, CURRENT, EXISTING)

    node = "ConvergenceNode(rsrc_id={}, is_update={}, node_type='resource')".format
    assert str(graph) == (
        f"{{{node(1, True)}: {{}}, "
        f"{node(3, True)}: {{{node(1, True)}}}, "
        f"{node(1, False)}: {{{node(1, True)}, {node(2, False)}, {node(3, False)}}}, "
        f"{node(2, False)}: {{{node(3, False)}}}, "
        f"{node(3, False)}: {{{node(3, True)}}}}}"
    )


def test_edges_document_round_trips() -> None:
    graph = compute_dependencies(TEMPLATE_GRAPH, CURRENT, EXISTING)
    document = json.loads(json.dumps(edges_document(graph)))

    assert str(from_edges_document(document)) == str(graph)


def test_resource_nodes_are_stored_as_pairs() -> None:
    assert ConvergenceNode(4, True).to_tuple() == (4, True)
    assert ConvergenceNode(4, False, "snapshot").to_tuple() == (4, False, "snapshot")
    assert ConvergenceNode.from_tuple([4, True]) == ConvergenceNode(4, True, "resource")


HEAT_SOURCE = """
import json
from types import SimpleNamespace
from heat.engine import dependencies, stack
existing = {
    1: SimpleNamespace(id=1, requires=[], replaces=None),
    2: SimpleNamespace(id=2, requires=[1], replaces=None),
    3: SimpleNamespace(id=3, requires=[1], replaces=2),
}
holder = SimpleNamespace(action="UPDATE", DELETE="DELETE")
current = {"a": SimpleNamespace(id=1), "b": SimpleNamespace(id=3)}
template_graph = dependencies.Dependencies([("b", "a"), ("a", None)])
class Named(str):
    name = property(lambda self: str(self))
template_graph = template_graph.translate(Named)
stack.Stack._compute_convg_dependencies(holder, existing, template_graph, current)
graph = holder._convg_deps
print(json.dumps(sorted(
    [list(requirer.to_tuple()), list(required.to_tuple()) if required else None]
    for requirer, required in graph.graph().edges())))
"""


@pytest.mark.oracle
def test_the_stored_edges_are_those_heat_computes() -> None:
    graph = compute_dependencies(TEMPLATE_GRAPH, CURRENT, EXISTING)
    ours = json.loads(json.dumps(edges_document(graph)["edges"]))

    assert sorted(ours, key=json.dumps) == sorted(oracle.run_json(HEAT_SOURCE), key=json.dumps)
