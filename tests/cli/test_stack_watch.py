"""``keel stack watch`` and ``keel stack graph`` against a running ``keel all-in-one``.

The commands run as a user runs them, as processes reading ``OS_*`` variables or
``clouds.yaml``; the stacks are created through the API while the watch follows them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.cli.test_openstack_cli import Cli, all_in_one

SLOW_CHAIN = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "first": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": "one", "action_wait_secs": {"create": 2}},
        },
        "second": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": {"get_attr": ["first", "output"]}},
        },
        "inner": {"type": "inner.yaml"},
    },
}
INNER = "heat_template_version: 2018-08-31\nresources:\n  leaf: {type: OS::Heat::None}\n"
FAILING = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "fine": {"type": "OS::Heat::None"},
        "broken": {
            "type": "OS::Heat::TestResource",
            "properties": {"fail": True, "action_wait_secs": {"create": 1}},
            "depends_on": ["fine"],
        },
    },
}
ONE_RESOURCE = {
    "heat_template_version": "2018-08-31",
    "resources": {"one": {"type": "OS::Heat::None"}},
}


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    with all_in_one(tmp_path_factory.mktemp("stack-watch")) as running:
        yield running


def endpoint(cli: Cli) -> str:
    return cli.environment["OS_ENDPOINT"]


def create(cli: Cli, name: str, template: dict[str, Any]) -> str:
    body = {"stack_name": name, "template": template, "files": {"inner.yaml": INNER}}
    answer = requests.post(f"{endpoint(cli)}/stacks", json=body, timeout=30)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["stack"]["id"])


def keel(cli: Cli, *arguments: str, environment: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, "-m", "keel_app.cli.keel", *arguments],
        # Wide enough that rich does not fold a reason over two lines.
        env={**(environment or cli.environment), "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_watch_follows_a_create_to_its_end_and_exits_0(cli: Cli) -> None:
    create(cli, "watched", SLOW_CHAIN)

    done = keel(cli, "stack", "watch", "watched", "--interval", "0.3")

    assert done.returncode == 0, done.stderr
    assert "watched  CREATE_COMPLETE" in done.stdout
    assert "4/4 done, 0 in progress, 0 failed" in done.stdout
    assert "CREATE_COMPLETE" in done.stdout.split("Last events", 1)[1]


def test_watch_exits_1_on_a_failed_create_and_shows_the_reason(cli: Cli) -> None:
    create(cli, "failing", FAILING)

    done = keel(cli, "stack", "watch", "failing", "--interval", "0.3")

    assert done.returncode == 1
    assert "failing  CREATE_FAILED" in done.stdout
    assert "1/2 done, 0 in progress, 1 failed" in done.stdout
    assert "Test Resource failed broken" in done.stdout


def test_watch_of_an_unknown_stack_exits_2(cli: Cli) -> None:
    done = keel(cli, "stack", "watch", "nowhere")

    assert done.returncode == 2
    assert "ERROR: Stack not found: nowhere" in done.stdout


def test_watch_reads_a_cloud_of_clouds_yaml(cli: Cli, tmp_path: Path) -> None:
    create(cli, "from-clouds-yaml", ONE_RESOURCE)
    clouds = tmp_path / "clouds.yaml"
    clouds.write_text(
        f"clouds:\n  keel:\n    auth_type: none\n    auth:\n      endpoint: {endpoint(cli)}\n"
    )
    environment = {key: value for key, value in os.environ.items() if not key.startswith("OS_")} | {
        "OS_CLIENT_CONFIG_FILE": str(clouds)
    }

    done = keel(
        cli,
        "stack",
        "watch",
        "from-clouds-yaml",
        "--os-cloud",
        "keel",
        environment=environment,
    )

    assert done.returncode == 0, done.stderr
    assert "1/1 done" in done.stdout


def test_graph_prints_the_dependencies_as_dot(cli: Cli) -> None:
    stack_id = create(cli, "graphed", SLOW_CHAIN)
    keel(cli, "stack", "watch", "graphed", "--interval", "0.3")

    dot = keel(cli, "stack", "graph", "graphed").stdout

    nested_id = dot.split('label="inner (', 1)[1].split(")", 1)[0]
    assert f'"{stack_id}/first" -> "{stack_id}/second";' in dot
    assert f'"{nested_id}/leaf" -> "{stack_id}/inner";' in dot
    assert dot.count("fillcolor=") == 4
    assert dot.startswith('digraph "graphed" {') and dot.endswith("}\n")


def test_graph_draws_an_svg_with_a_box_a_resource(cli: Cli) -> None:
    create(cli, "drawn", FAILING)
    keel(cli, "stack", "watch", "drawn", "--interval", "0.3")

    svg = keel(cli, "stack", "graph", "drawn", "--format", "svg").stdout

    root = ElementTree.fromstring(svg)
    namespace = "{http://www.w3.org/2000/svg}"
    groups = {
        group.find(f"{namespace}text").text: group.get("class")
        for group in root.iter(f"{namespace}g")
    }
    assert groups == {"fine": "resource done", "broken": "resource failed"}
    assert len(list(root.iter(f"{namespace}line"))) == 1
