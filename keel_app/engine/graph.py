"""A small dependency graph, free of any domain: keys are anything hashable.

An edge (requirer, required) says that ``requirer`` needs ``required`` first. Iterating
a ``Dependencies`` yields the keys in an order that respects every edge (required
before requirer); a cycle raises Heat's ``CircularDependencyException`` naming the
part of the graph that could not be ordered.

Every walk is deterministic (a node's neighbours are visited sorted by their string
form, nodes in insertion order), and so is the string form so that it can be checked against golden
strings: ``{a: {b, c}, b: {}, c: {}}``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

from keel_app.common.exception import CircularDependencyException

Edge = tuple[Hashable, Hashable | None]


def _in_order(keys: set[Hashable]) -> Iterator[Hashable]:
    """Keys sorted by their string form: every walk of the graph is reproducible."""
    return iter(sorted(keys, key=str))


class Node:
    """The keys one node requires and the keys that require it."""

    __slots__ = ("require", "satisfy")

    def __init__(
        self, requires: set[Hashable] | None = None, required_by: set[Hashable] | None = None
    ) -> None:
        self.require: set[Hashable] = set(requires) if requires else set()
        self.satisfy: set[Hashable] = set(required_by) if required_by else set()

    def copy(self) -> Node:
        return Node(self.require, self.satisfy)

    def reverse_copy(self) -> Node:
        return Node(self.satisfy, self.require)

    def required_by(self, source: Hashable | None = None) -> Iterator[Hashable]:
        if source is not None:
            self.satisfy.add(source)
        return _in_order(self.satisfy)

    def requires(self, target: Hashable | None = None) -> Iterator[Hashable]:
        if target is not None:
            self.require.add(target)
        return _in_order(self.require)

    def __isub__(self, target: Hashable) -> Node:
        self.require.remove(target)
        return self

    def __bool__(self) -> bool:
        """True while the node still requires something (it is not a leaf)."""
        return bool(self.require)

    def stem(self) -> bool:
        """True when nothing requires this node."""
        return not self.satisfy

    def disjoint(self) -> bool:
        return not self and self.stem()

    def __len__(self) -> int:
        return len(self.require)

    def __iter__(self) -> Iterator[Hashable]:
        return _in_order(self.require)

    def __str__(self) -> str:
        return "{" + ", ".join(str(key) for key in self) + "}"

    def __repr__(self) -> str:
        return repr(self.require)


class Graph(dict[Hashable, Node]):
    """Keys to nodes; a missing key is created as an empty node when looked up."""

    def __missing__(self, key: Hashable) -> Node:
        node = self[key] = Node()
        return node

    def map(self, func: Callable[[Node], Any]) -> dict[Hashable, Any]:
        return {key: func(node) for key, node in self.items()}

    def copy(self) -> Graph:  # type: ignore[override]
        return Graph(self.map(lambda node: node.copy()))

    def reverse_copy(self) -> Graph:
        return Graph(self.map(lambda node: node.reverse_copy()))

    def edges(self) -> Iterator[Edge]:
        def outgoing(requirer: Hashable, node: Node) -> Iterator[Edge]:
            if node.disjoint():
                yield requirer, None
            else:
                for required in node:
                    yield requirer, required

        return itertools.chain.from_iterable(outgoing(*item) for item in self.items())

    def __delitem__(self, key: Hashable) -> None:
        node = self[key]
        for source in node.required_by():
            source_node = self[source]
            if key in source_node.require:
                source_node -= key
        super().__delitem__(key)

    def __str__(self) -> str:
        return "{" + ", ".join(f"{key}: {node}" for key, node in self.items()) + "}"

    @staticmethod
    def toposort(graph: Graph) -> Iterator[Hashable]:
        """Keys with nothing left to require, one at a time (destroys ``graph``)."""
        for _ in range(len(graph)):
            for key, node in graph.items():
                if not node:
                    yield key
                    del graph[key]
                    break
            else:
                raise CircularDependencyException(cycle=str(graph))


class Dependencies:
    """A dependency graph built from (requirer, required) edges."""

    def __init__(self, edges: Iterable[Edge] | None = None) -> None:
        self._graph = Graph()
        for edge in edges or []:
            self += edge

    def __iadd__(self, edge: Edge) -> Dependencies:
        requirer, required = edge
        if required is None:
            # A node with no edges still belongs to the graph.
            self._graph[requirer]
        else:
            self._graph[required].required_by(requirer)
            self._graph[requirer].requires(required)
        return self

    def required_by(self, last: Hashable) -> Iterator[Hashable]:
        if last not in self._graph:
            raise KeyError(last)
        return self._graph[last].required_by()

    def requires(self, source: Hashable) -> Iterator[Hashable]:
        if source not in self._graph:
            raise KeyError(source)
        return self._graph[source].requires()

    def __getitem__(self, last: Hashable) -> Dependencies:
        """The part of the graph made of ``last`` and everything that requires it."""
        if last not in self._graph:
            raise KeyError(last)

        def edges_to(key: Hashable) -> Iterator[Edge]:
            for requirer in self._graph[key].required_by():
                yield requirer, key
                yield from edges_to(requirer)

        if self._graph[last].stem():
            return Dependencies([(last, None)])
        return Dependencies(edges_to(last))

    def leaves(self) -> Iterator[Hashable]:
        return (key for key, node in self._graph.items() if not node)

    def roots(self) -> Iterator[Hashable]:
        return (key for key, node in self.graph(reverse=True).items() if not node)

    def translate(self, transform: Callable[[Hashable], Hashable]) -> Dependencies:
        def transform_key(key: Hashable | None) -> Hashable | None:
            return transform(key) if key is not None else None

        return type(self)(
            (transform_key(requirer), transform_key(required))  # type: ignore[misc]
            for requirer, required in self._graph.edges()
        )

    def graph(self, reverse: bool = False) -> Graph:
        return self._graph.reverse_copy() if reverse else self._graph.copy()

    def nodes(self) -> Mapping[Hashable, Node]:
        """Keys to this graph's own nodes, for readers: a new read-only mapping of the same
        nodes, where ``graph()`` copies every node (twice the memory of a large graph).
        Read-only, unlike a Graph: a lookup of a missing key raises instead of adding it."""
        return MappingProxyType(dict(self._graph))

    def __iter__(self) -> Iterator[Hashable]:
        """Required keys before the keys that require them."""
        return Graph.toposort(self.graph())

    def __reversed__(self) -> Iterator[Hashable]:
        return Graph.toposort(self.graph(reverse=True))

    def __str__(self) -> str:
        return str(self._graph)

    def __repr__(self) -> str:
        edges = sorted(repr(edge) for edge in self._graph.edges())
        return f"Dependencies([{', '.join(edges)}])"
