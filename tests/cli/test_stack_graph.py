"""The graph of ``keel stack graph`` and the counts of ``keel stack watch``, from API documents."""

from __future__ import annotations

from typing import Any

from keel_app.cli.stack_graph import StackGraph, to_dot
from keel_app.cli.stack_progress import Progress, resource_states, summarise


def document(
    stack_id: str, name: str, status: str, required_by: list[str], parent: str | None = None
) -> dict[str, Any]:
    found: dict[str, Any] = {
        "resource_name": name,
        "resource_type": "OS::Heat::None",
        "resource_status": status,
        "resource_status_reason": "",
        "required_by": required_by,
        "links": [
            {"href": f"http://api/v1/p/stacks/s/{stack_id}/resources/{name}", "rel": "self"},
            {"href": f"http://api/v1/p/stacks/s/{stack_id}", "rel": "stack"},
        ],
    }
    if parent:
        found["parent_resource"] = parent
    return found


TREE = resource_states(
    [
        document("top", "network", "CREATE_COMPLETE", ["server"]),
        document("top", "server", "CREATE_IN_PROGRESS", []),
        document("top", "group", "INIT_COMPLETE", []),
        document("nested", "member", "CREATE_FAILED", [], parent="group"),
    ]
)


def test_dot_golden_string() -> None:
    graph = StackGraph.from_resources("CREATE_IN_PROGRESS", TREE)

    assert to_dot(graph, "web") == (
        'digraph "web" {\n'
        "  rankdir=BT;\n"
        "  node [shape=box, style=filled];\n"
        '  "top/group" [label="group\\nOS::Heat::None\\nINIT_COMPLETE", fillcolor="#e9ecef"];\n'
        '  "top/network" [label="network\\nOS::Heat::None\\nCREATE_COMPLETE", '
        'fillcolor="#b7e4c7"];\n'
        '  "top/server" [label="server\\nOS::Heat::None\\nCREATE_IN_PROGRESS", '
        'fillcolor="#ffe8a3"];\n'
        "  subgraph cluster_1 {\n"
        '    label="group (nested)";\n'
        '    "nested/member" [label="member\\nOS::Heat::None\\nCREATE_FAILED", '
        'fillcolor="#f4a3a3"];\n'
        "  }\n"
        '  "top/network" -> "top/server";\n'
        '  "nested/member" -> "top/group";\n'
        "}\n"
    )


def test_layers_put_each_resource_above_everything_it_requires() -> None:
    graph = StackGraph.from_resources("CREATE_IN_PROGRESS", TREE)

    names = [[node.name for node in layer] for layer in graph.layers()]

    assert names == [["member", "network"], ["group", "server"]]


def test_counts_during_a_create() -> None:
    assert summarise("CREATE_IN_PROGRESS", TREE) == Progress(
        total=4, done=1, in_progress=1, failed=1
    )


def test_an_update_counts_untouched_resources_as_done() -> None:
    states = resource_states(
        [
            document("top", "kept", "CREATE_COMPLETE", []),
            document("top", "changed", "UPDATE_IN_PROGRESS", []),
        ]
    )

    assert summarise("UPDATE_IN_PROGRESS", states) == Progress(
        total=2, done=1, in_progress=1, failed=0
    )


def test_a_delete_counts_only_deleted_resources_as_done() -> None:
    states = resource_states(
        [
            document("top", "gone", "DELETE_COMPLETE", []),
            document("top", "still", "CREATE_COMPLETE", []),
        ]
    )

    progress = summarise("DELETE_IN_PROGRESS", states)

    assert (progress.done, progress.pending) == (1, 1)
