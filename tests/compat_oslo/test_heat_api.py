"""A real heat-api 27.0.1 (the oracle's, noauth pipeline) with no heat-engine behind it:
its engine calls go over oslo.messaging to keel-bridge, and OpenKeel's keel-worker does
the work. Stacks are created, listed, shown, found by name and deleted over HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests import oracle
from tests.compat_oslo import deployment

pytestmark = pytest.mark.oracle

PASTE_CONFIG = oracle.VENV / "etc" / "heat" / "api-paste.ini"
SERVER_SCRIPT = Path(__file__).with_name("heat_api_server.py")
# heat-api's noauth middleware makes every caller user and project "admin".
TENANT = "admin"
TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "parameters": {"greeting": {"type": "string", "default": "hello"}},
    "resources": {
        "first": {"type": "OS::Heat::None"},
        "second": {"type": "OS::Heat::None", "depends_on": "first"},
    },
    "outputs": {"said": {"value": {"get_param": "greeting"}}},
}


def heat_api_conf(directory: Path, oslo_url: str) -> Path:
    path = directory / "heat-api.conf"
    path.write_text(
        "[DEFAULT]\n"
        f"transport_url = {deployment.rabbit_url(oslo_url)}\n"
        "[paste_deploy]\n"
        "flavor = noauth\n"
        f"api_paste_config = {PASTE_CONFIG}\n"
        # Heat's noauth callers have the role admin alone, which Heat 27's new policy
        # defaults refuse everywhere (docs/divergences.md); its old defaults let admin in.
        "[oslo_policy]\n"
        "enforce_new_defaults = False\n"
        "enforce_scope = False\n"
    )
    return path


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    directory = tmp_path_factory.mktemp("heat-api")
    with deployment.deployment(directory) as deployed:
        conf_path = heat_api_conf(directory, deployed["oslo_url"])
        with open(directory / "heat-api.log", "wb") as log:
            process = subprocess.Popen(
                [str(oracle.python()), str(SERVER_SCRIPT), str(conf_path)],
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                env={**os.environ, "PYTHONWARNINGS": "ignore"},
            )
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line.startswith("listening "), (directory / "heat-api.log").read_text()
            yield f"http://127.0.0.1:{line.split()[1]}/v1/{TENANT}"
        finally:
            process.terminate()
            process.wait(timeout=30)
            if process.stdout is not None:
                process.stdout.close()


def create(api: str, name: str) -> dict[str, Any]:
    response = requests.post(
        f"{api}/stacks",
        json={"stack_name": name, "template": TEMPLATE, "parameters": {"greeting": "hi"}},
        timeout=60,
    )
    assert response.status_code == 201, response.text
    return response.json()["stack"]


def wait_for(api: str, path: str, status: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        stack = requests.get(f"{api}/stacks/{path}", timeout=60).json()["stack"]
        if stack["stack_status"] == status:
            return stack
        time.sleep(0.3)
    raise AssertionError(f"{path} never reached {status}")


def test_a_stack_is_created_and_shown_through_heat_api(api):
    created = create(api, "through-heat-api")
    assert set(created) == {"id", "links"}
    assert created["links"] == [
        {
            "href": f"{api}/stacks/through-heat-api/{created['id']}",
            "rel": "self",
        }
    ]
    shown = wait_for(api, f"through-heat-api/{created['id']}", "CREATE_COMPLETE")
    assert (
        shown["stack_name"],
        shown["stack_status_reason"],
        shown["outputs"],
        shown["parameters"]["greeting"],
        shown["stack_owner"],
    ) == (
        "through-heat-api",
        "Stack CREATE completed successfully",
        [{"output_key": "said", "output_value": "hi", "description": "No description given"}],
        "hi",
        "admin",
    )


def test_the_stack_list_shows_the_created_stack(api):
    created = create(api, "listed-through-heat-api")
    wait_for(api, f"listed-through-heat-api/{created['id']}", "CREATE_COMPLETE")
    listed = requests.get(f"{api}/stacks", timeout=60)
    assert listed.status_code == 200
    rows = {row["id"]: row for row in listed.json()["stacks"]}
    assert (rows[created["id"]]["stack_name"], rows[created["id"]]["stack_status"]) == (
        "listed-through-heat-api",
        "CREATE_COMPLETE",
    )


def test_a_stack_name_alone_redirects_to_the_stack(api):
    created = create(api, "found-by-name")
    response = requests.get(f"{api}/stacks/found-by-name", allow_redirects=False, timeout=60)
    assert (response.status_code, response.headers["Location"]) == (
        302,
        f"{api}/stacks/found-by-name/{created['id']}",
    )


def test_resources_of_the_stack_are_listed(api):
    created = create(api, "with-resources")
    wait_for(api, f"with-resources/{created['id']}", "CREATE_COMPLETE")
    response = requests.get(f"{api}/stacks/with-resources/{created['id']}/resources", timeout=60)
    assert response.status_code == 200
    resources = {
        row["resource_name"]: (row["resource_type"], row["resource_status"], row["required_by"])
        for row in response.json()["resources"]
    }
    assert resources == {
        "first": ("OS::Heat::None", "CREATE_COMPLETE", ["second"]),
        "second": ("OS::Heat::None", "CREATE_COMPLETE", []),
    }


def test_a_deleted_stack_is_gone(api):
    created = create(api, "deleted-through-heat-api")
    path = f"deleted-through-heat-api/{created['id']}"
    wait_for(api, path, "CREATE_COMPLETE")
    response = requests.delete(f"{api}/stacks/{path}", timeout=60)
    assert response.status_code == 204
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        shown = requests.get(f"{api}/stacks/deleted-through-heat-api", timeout=60)
        if shown.status_code == 404:
            break
        time.sleep(0.3)
    assert shown.status_code == 404


def test_a_missing_stack_is_heats_404(api):
    response = requests.get(f"{api}/stacks/no-such-stack", timeout=60)
    assert response.status_code == 404
    body = response.json()
    assert (body["code"], body["title"], body["error"]["type"], body["error"]["message"]) == (
        404,
        "Not Found",
        "EntityNotFound",
        "The Stack (no-such-stack) could not be found.",
    )


def test_a_taken_name_is_heats_409_raised_by_the_bridged_engine(api):
    create(api, "taken-name")
    response = requests.post(
        f"{api}/stacks", json={"stack_name": "taken-name", "template": TEMPLATE}, timeout=60
    )
    assert response.status_code == 409
    body = response.json()
    assert (body["title"], body["error"]["type"], body["error"]["message"]) == (
        "Conflict",
        "StackExists",
        "The Stack (taken-name) already exists.",
    )


# Runs in the oracle: python-heatclient's own calls against heat-api; prints one JSON line.
HEATCLIENT = """
import json, sys, time
from heatclient import client
heat = client.Client("1", endpoint=sys.argv[1], token="noauth-token")
template = json.loads(sys.argv[2])
created = heat.stacks.create(stack_name="by-heatclient", template=template)
stack_id = created["stack"]["id"]
deadline = time.monotonic() + 60
while heat.stacks.get(stack_id).stack_status != "CREATE_COMPLETE":
    assert time.monotonic() < deadline, "never complete"
    time.sleep(0.3)
stack = heat.stacks.get(stack_id)
listed = [one.stack_name for one in heat.stacks.list() if one.id == stack_id]
resources = sorted(one.resource_name for one in heat.resources.list(stack_id))
outputs = heat.stacks.output_list(stack_id)["outputs"]
heat.stacks.delete(stack_id)
while any(one.id == stack_id for one in heat.stacks.list()):
    assert time.monotonic() < deadline + 60, "never deleted"
    time.sleep(0.3)
print(json.dumps({"status": stack.stack_status, "name": stack.stack_name,
                  "listed": listed, "resources": resources,
                  "outputs": outputs, "deleted": True}))
"""


def test_python_heatclient_drives_a_stack_through_its_life(api):
    answer = oracle.run_json(HEATCLIENT, api, json.dumps(TEMPLATE))
    assert answer == {
        "status": "CREATE_COMPLETE",
        "name": "by-heatclient",
        "listed": ["by-heatclient"],
        "resources": ["first", "second"],
        "outputs": [{"output_key": "said", "description": "No description given"}],
        "deleted": True,
    }
