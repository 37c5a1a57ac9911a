"""The traversal graph: nodes (resource id, is_update, node type) and how it is built and stored.

An update node creates or updates a resource of the new template; a cleanup node
(``is_update`` False) deletes a resource that is no longer wanted, or does nothing for
one that still is. Cleanups run after whatever still needs the resource is done with it:
a replacement's cleanup of the old row waits for the new row to be in service.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from keel_app.engine.convergence.bounded_cache import BoundedCache
from keel_app.engine.graph import Dependencies

NODE_TYPE_RESOURCE = "resource"
NODE_TYPE_SNAPSHOT = "snapshot"


class ConvergenceNode(NamedTuple):
    rsrc_id: Any
    is_update: bool
    node_type: str = NODE_TYPE_RESOURCE

    @classmethod
    def from_tuple(cls, values: Iterable[Any]) -> ConvergenceNode:
        return cls(*values)

    def to_tuple(self) -> tuple[Any, ...]:
        """The stored form: resource nodes keep Heat's two-element spelling."""
        if self.node_type == NODE_TYPE_RESOURCE:
            return (self.rsrc_id, self.is_update)
        return (self.rsrc_id, self.is_update, self.node_type)


def compute_dependencies(
    template_dependencies: Dependencies,
    current_resource_ids: Mapping[str, int],
    existing_resources: Mapping[int, Any],
) -> Dependencies:
    """Heat's convergence graph from the template's graph and the stored resource rows.

    ``template_dependencies`` has resource names as keys; ``current_resource_ids`` maps
    each name to the row that the new template's resource will use; ``existing_resources``
    are the rows already stored (id -> row with ``requires`` and ``replaces``).
    """
    graph = template_dependencies.translate(
        lambda name: ConvergenceNode(current_resource_ids[name], True)
    )
    # Which update nodes there are, asked once per row: copying the graph for every row
    # would make starting a traversal quadratic in the stack's size.
    update_nodes = set(graph.graph())
    for resource_id, row in existing_resources.items():
        graph += ConvergenceNode(resource_id, False), None
        for requirement in row.requires or []:
            if requirement in existing_resources:
                graph += ConvergenceNode(requirement, False), ConvergenceNode(resource_id, False)
        if row.replaces in existing_resources:
            graph += ConvergenceNode(row.replaces, False), ConvergenceNode(resource_id, False)
        if ConvergenceNode(resource_id, True) in update_nodes:
            graph += ConvergenceNode(resource_id, False), ConvergenceNode(resource_id, True)
    return graph


def edges_document(graph: Dependencies) -> dict[str, list[list[Any]]]:
    """``stack.current_deps`` as Heat stores it."""
    return {
        "edges": [
            [requirer.to_tuple(), required.to_tuple() if required is not None else None]
            for requirer, required in graph.graph().edges()
        ]
    }


def from_edges_document(document: Mapping[str, Any] | None) -> Dependencies:
    edges = (document or {}).get("edges", [])
    # A node appears in as many edges as it has neighbours: one object for all of them.
    known: dict[tuple[Any, ...], ConvergenceNode] = {}

    def node(values: list[Any]) -> ConvergenceNode:
        key = tuple(values)
        found = known.get(key)
        if found is None:
            found = known[key] = ConvergenceNode.from_tuple(key)
        return found

    return Dependencies(
        (node(requirer), node(required) if required is not None else None)
        for requirer, required in edges
    )


class TraversalGraph(NamedTuple):
    """A traversal's graph with its node -> requirements map and its roots, built once."""

    dependencies: Dependencies
    nodes: Any
    roots: frozenset[Any]


# Graphs are weighed by their nodes (about 700 bytes each here): a process keeps the
# graphs of a few large stacks or of many small ones, not 64 of any size. Room for the
# update traversals of three 10,000-resource stacks in flight at once: a graph evicted
# while its steps go on is parsed again by every step.
GRAPH_NODES_CACHED = 60000
# As for templates (runtime.CACHED_TEMPLATE_IDLE_SECONDS): a graph unused this long is most
# often one whose traversal ended in another process.
CACHED_GRAPH_IDLE_SECONDS = 60.0
_graphs: BoundedCache[TraversalGraph] = BoundedCache(
    64,
    capacity=GRAPH_NODES_CACHED,
    weigh=lambda graph: len(graph.nodes),
    max_idle=CACHED_GRAPH_IDLE_SECONDS,
)


def traversal_graph(
    stack_id: str,
    traversal: str,
    read_document: Callable[[], Mapping[str, Any] | None],
    keep: bool = True,
) -> TraversalGraph:
    """The graph of ``stack_id``'s ``traversal``, parsed from its stored document.

    A traversal's graph is written once, with its id, and never changed: every step of
    a traversal reads the same document, so a process parses it once rather than once
    a step (the graph of a 10,000-resource stack takes longer to parse than a step).

    ``keep``: False for a caller that is not a step of ``traversal`` (one of an older
    traversal, re-triggering a resource in the newer one). The stack's row gets the new
    traversal's id before its graph, so such a caller may have read the older graph's
    document beside the new id: it is used once and not kept for the traversal's steps.
    """

    def build() -> TraversalGraph:
        dependencies = from_edges_document(read_document())
        # Read-only (``nodes()``): a node added by a lookup that missed would be taken by
        # every later step of the traversal for one of the graph's.
        return TraversalGraph(dependencies, dependencies.nodes(), frozenset(dependencies.roots()))

    return _graphs.get_or_build((stack_id, traversal), build, keep=keep)


def forget_traversal_graphs(stack_id: str) -> None:
    """Let the graphs of a stack's traversals go: its traversal has ended.

    A step that comes after (one that outlived its traversal) reads the graph again.
    """
    _graphs.discard(lambda key: key[0] == stack_id)  # type: ignore[index]
