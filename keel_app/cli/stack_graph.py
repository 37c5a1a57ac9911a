"""``keel stack graph NAME``: a stack's dependency graph as Graphviz DOT or as SVG.

A node is a resource, coloured by its status; an edge runs from a resource to one that
requires it (the API's ``required_by``), and from each resource of a nested stack to the
resource that owns that stack, so the arrows follow the order of creation. DOT groups a
nested stack's resources in a cluster; the SVG is laid out here (layers by the longest
chain of requirements), so no Graphviz is needed to draw it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from keel_app.cli import orchestration_api
from keel_app.cli.stack_progress import (
    DONE,
    FAILED,
    IN_PROGRESS,
    PENDING,
    ResourceState,
    classify,
    resource_states,
)

FILL = {DONE: "#b7e4c7", IN_PROGRESS: "#ffe8a3", FAILED: "#f4a3a3", PENDING: "#e9ecef"}
NODE_WIDTH, NODE_HEIGHT, COLUMN_GAP, ROW_GAP, MARGIN = 180, 44, 24, 56, 16


@dataclass(frozen=True)
class StackGraph:
    """The resources of a stack tree and the edges between them (requirement first)."""

    stack_status: str
    nodes: tuple[ResourceState, ...]
    edges: tuple[tuple[tuple[str, str], tuple[str, str]], ...]

    @classmethod
    def from_resources(cls, stack_status: str, resources: Iterable[ResourceState]) -> StackGraph:
        nodes = tuple(resources)
        by_key = {node.key: node for node in nodes}
        owners = _nested_stack_owners(nodes)
        edges: list[tuple[tuple[str, str], tuple[str, str]]] = []
        for node in nodes:
            for dependent in node.required_by:
                if (node.stack_id, dependent) in by_key:
                    edges.append((node.key, (node.stack_id, dependent)))
            owner = owners.get(node.stack_id)
            if owner is not None and owner in by_key:
                edges.append((node.key, owner))
        return cls(stack_status, nodes, tuple(edges))

    def layers(self) -> list[list[ResourceState]]:
        """Nodes by the length of the longest chain of requirements beneath them."""
        requirements: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for required, dependent in self.edges:
            requirements.setdefault(dependent, []).append(required)
        depth: dict[tuple[str, str], int] = {}

        def depth_of(key: tuple[str, str], seen: frozenset = frozenset()) -> int:
            if key not in depth:
                below = [r for r in requirements.get(key, ()) if r not in seen]
                depth[key] = 1 + max((depth_of(r, seen | {key}) for r in below), default=-1)
            return depth[key]

        layers: list[list[ResourceState]] = []
        for node in sorted(self.nodes, key=lambda n: (n.stack_id, n.name)):
            level = depth_of(node.key)
            while len(layers) <= level:
                layers.append([])
            layers[level].append(node)
        return layers

    def state(self, node: ResourceState) -> str:
        return classify(node.status, self.stack_status.split("_", 1)[0])


def _nested_stack_owners(nodes: tuple[ResourceState, ...]) -> dict[str, tuple[str, str]]:
    """For each nested stack, the key of the resource that owns it."""
    parents = {node.stack_id: node.parent for node in nodes if node.parent}
    owners: dict[str, tuple[str, str]] = {}
    for stack_id, parent_name in parents.items():
        # The owner is the resource of that name in a stack other than the nested one.
        candidates = [n.key for n in nodes if n.name == parent_name and n.stack_id != stack_id]
        if len(candidates) == 1:
            owners[stack_id] = candidates[0]
    return owners


def _node_id(key: tuple[str, str]) -> str:
    return json.dumps(f"{key[0]}/{key[1]}")


def to_dot(graph: StackGraph, name: str) -> str:
    lines = [f"digraph {json.dumps(name)} {{", "  rankdir=BT;", "  node [shape=box, style=filled];"]
    by_stack: dict[str, list[ResourceState]] = {}
    for node in graph.nodes:
        by_stack.setdefault(node.stack_id, []).append(node)
    for index, (stack_id, nodes) in enumerate(by_stack.items()):
        nested = nodes[0].parent is not None
        indent = "    " if nested else "  "
        if nested:
            lines.append(f"  subgraph cluster_{index} {{")
            lines.append(f"    label={json.dumps(nodes[0].parent + ' (' + stack_id + ')')};")
        for node in sorted(nodes, key=lambda n: n.name):
            label = json.dumps(f"{node.name}\n{node.type}\n{node.status}")
            fill = FILL[graph.state(node)]
            lines.append(f'{indent}{_node_id(node.key)} [label={label}, fillcolor="{fill}"];')
        if nested:
            lines.append("  }")
    for required, dependent in graph.edges:
        lines.append(f"  {_node_id(required)} -> {_node_id(dependent)};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_svg(graph: StackGraph, name: str) -> str:
    layers = graph.layers()
    columns = max((len(layer) for layer in layers), default=1)
    width = 2 * MARGIN + columns * NODE_WIDTH + (columns - 1) * COLUMN_GAP
    height = 2 * MARGIN + len(layers) * NODE_HEIGHT + max(len(layers) - 1, 0) * ROW_GAP
    centres: dict[tuple[str, str], tuple[float, float]] = {}
    boxes: list[str] = []
    for row, layer in enumerate(layers):
        # Requirements at the bottom, as the arrows of creation point upwards.
        y = height - MARGIN - (row + 1) * NODE_HEIGHT - row * ROW_GAP
        offset = (width - len(layer) * NODE_WIDTH - (len(layer) - 1) * COLUMN_GAP) / 2
        for column, node in enumerate(layer):
            x = offset + column * (NODE_WIDTH + COLUMN_GAP)
            centres[node.key] = (x + NODE_WIDTH / 2, y + NODE_HEIGHT / 2)
            title = escape(f"{node.name} {node.type} {node.status} {node.reason}".strip())
            boxes.append(
                f'<g class="resource {graph.state(node).replace(" ", "-")}">'
                f"<title>{title}</title>"
                f'<rect x="{x:.0f}" y="{y:.0f}" width="{NODE_WIDTH}" height="{NODE_HEIGHT}" '
                f'rx="6" fill="{FILL[graph.state(node)]}" stroke="#495057"/>'
                f'<text x="{x + NODE_WIDTH / 2:.0f}" y="{y + 18:.0f}" text-anchor="middle" '
                f'font-weight="bold">{escape(node.name)}</text>'
                f'<text x="{x + NODE_WIDTH / 2:.0f}" y="{y + 35:.0f}" text-anchor="middle" '
                f'font-size="11">{escape(node.status)}</text></g>'
            )
    arrows = []
    for required, dependent in graph.edges:
        (x1, y1), (x2, y2) = centres[required], centres[dependent]
        arrows.append(
            f'<line x1="{x1:.0f}" y1="{y1 - NODE_HEIGHT / 2:.0f}" x2="{x2:.0f}" '
            f'y2="{y2 + NODE_HEIGHT / 2:.0f}" stroke="#868e96" marker-end="url(#arrow)"/>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'font-family="sans-serif" font-size="13"><title>{escape(name)}</title>'
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#868e96"/></marker>'
        "</defs>" + "".join(arrows) + "".join(boxes) + "</svg>\n"
    )


def add_parser(stack_commands: Any) -> None:
    graph = stack_commands.add_parser(
        "graph",
        help="Print a stack's dependency graph as DOT or SVG.",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    orchestration_api.add_stack_arguments(graph)
    graph.add_argument("--format", choices=("dot", "svg"), default="dot")
    graph.set_defaults(handler=run)


def run(arguments: argparse.Namespace) -> int:
    api = orchestration_api.connect(arguments.os_cloud)
    try:
        path, stack = orchestration_api.find_stack(api, arguments.stack)
    except orchestration_api.StackNotFound as missing:
        print(f"ERROR: Stack not found: {missing}", file=sys.stderr)
        return 2
    documents = orchestration_api.list_resources(api, path, arguments.nested_depth)
    graph = StackGraph.from_resources(stack["stack_status"], resource_states(documents))
    render = to_svg if arguments.format == "svg" else to_dot
    sys.stdout.write(render(graph, path.name))
    return 0
