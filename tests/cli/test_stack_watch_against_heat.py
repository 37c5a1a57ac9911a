"""``keel stack watch`` and ``keel stack graph`` against Heat 27.0.1's own heat-api.

The commands speak nothing but the REST API, so any Heat-compatible endpoint serves:
here Heat's heat-api (the oracle's, noauth), with OpenKeel's engine behind it through
keel-bridge.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import requests

from tests.web.v1.test_stacks_against_heat_api import apis  # noqa: F401 (a fixture)

pytestmark = pytest.mark.oracle

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "slow": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": "v", "action_wait_secs": {"create": 2}},
        },
        "after": {"type": "OS::Heat::None", "depends_on": ["slow"]},
    },
}


def keel(base: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("OS_")} | {
        "OS_AUTH_TYPE": "none",
        "OS_ENDPOINT": base,
        "COLUMNS": "200",
    }
    return subprocess.run(
        [sys.executable, "-m", "keel_app.cli.keel", *arguments],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_watch_and_graph_follow_a_stack_of_heats_api(apis: dict[str, str]) -> None:  # noqa: F811
    base = apis["heat"]
    answer = requests.post(
        f"{base}/stacks", json={"stack_name": "on-heat", "template": TEMPLATE}, timeout=60
    )
    assert answer.status_code == 201, answer.text
    stack_id = answer.json()["stack"]["id"]

    watched = keel(base, "stack", "watch", "on-heat", "--interval", "0.3")
    dot = keel(base, "stack", "graph", "on-heat").stdout

    assert watched.returncode == 0, watched.stdout + watched.stderr
    assert "on-heat  CREATE_COMPLETE" in watched.stdout
    assert "2/2 done, 0 in progress, 0 failed" in watched.stdout
    assert f'"{stack_id}/slow" -> "{stack_id}/after";' in dot
