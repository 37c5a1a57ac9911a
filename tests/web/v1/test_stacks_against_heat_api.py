"""The stack routes beside Heat 27.0.1's own heat-api, both in front of one OpenKeel engine.

Heat's heat-api (the oracle's, noauth) reaches the engine through keel-bridge; ours
through Celery; a keel-worker does the work for both, on one database. Each step is
made on both APIs, each on a stack of its own, and the answers must be the same once
the stacks' ids, the APIs' addresses and the timestamps are written alike: statuses,
headers, and whole bodies, whose shapes are the API's business.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from werkzeug.serving import make_server

from keel_app.tasks.engine_rpc import engine_client
from keel_app.web import create_app
from tests import fleet, oracle
from tests.compat_oslo import deployment
from tests.web.conftest import heat_conf

pytestmark = pytest.mark.oracle

PASTE_CONFIG = oracle.VENV / "etc" / "heat" / "api-paste.ini"
SERVER_SCRIPT = Path(__file__).parents[2] / "compat_oslo" / "heat_api_server.py"
OLD_POLICY_DEFAULTS = "[oslo_policy]\nenforce_new_defaults = False\nenforce_scope = False\n"
TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "description": "compared",
    "parameters": {"greeting": {"type": "string", "default": "hello"}},
    "resources": {
        "first": {"type": "OS::Heat::None"},
        "said": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "greeting"}}},
    },
    "outputs": {"said": {"description": "what", "value": {"get_attr": ["said", "value"]}}},
}
BROKEN_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"broken": {"type": "OS::No::Such"}},
}
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# A physical resource name ends in a random suffix.
PHYSICAL_SUFFIX = re.compile(r"(STACK-NAME-[\w-]+?)-[a-z0-9]{12}\b")
KEY_ORDER_DEPTH = 3
COMPARED_HEADERS = ("content-type", "location", "allow")


def heat_api_conf(directory: Path, oslo_url: str) -> Path:
    path = directory / "heat-api.conf"
    path.write_text(
        f"[DEFAULT]\ntransport_url = {deployment.rabbit_url(oslo_url)}\n"
        f"[paste_deploy]\nflavor = noauth\napi_paste_config = {PASTE_CONFIG}\n"
        + OLD_POLICY_DEFAULTS
    )
    return path


@pytest.fixture(scope="module")
def apis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The base URLs (``.../v1/admin``) of Heat's heat-api and of ours."""
    directory = tmp_path_factory.mktemp("heat-api-beside")
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
        ours = create_app(
            {
                "HEAT_CONF": heat_conf(directory),
                "ENGINE_CLIENT": engine_client(fleet.ENCRYPTION_KEY),
            }
        )
        server = make_server("127.0.0.1", 0, ours, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line.startswith("listening "), (directory / "heat-api.log").read_text()
            yield {
                "heat": f"http://127.0.0.1:{line.split()[1]}/v1/admin",
                "ours": f"http://127.0.0.1:{server.server_port}/v1/admin",
            }
        finally:
            server.shutdown()
            thread.join()
            server.server_close()
            process.terminate()
            process.wait(timeout=30)
            process.stdout.close()


def key_order(value: Any, depth: int, prefix: str = "") -> list[str]:
    """The keys of the mappings in ``value`` down to ``depth`` levels, in their order."""
    if depth == 0:
        return []
    if isinstance(value, list):
        return [key for item in value for key in key_order(item, depth, prefix + "[]")]
    if not isinstance(value, dict):
        return []
    keys = []
    for key, item in value.items():
        keys.append(f"{prefix}/{key}")
        keys.extend(key_order(item, depth - 1, f"{prefix}/{key}"))
    return keys


class Side:
    """One API and the stack made through it, whose id and name are written alike."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.name = name
        self.stack_id = ""
        self.snapshot_id = ""

    def send(self, method: str, path: str, **options: Any) -> requests.Response:
        url = self.base + path.format(name=self.name, id=self.stack_id, snapshot=self.snapshot_id)
        return requests.request(method, url, allow_redirects=False, timeout=120, **options)

    def comparable(self, response: requests.Response) -> dict[str, Any]:
        def alike(text: str) -> str:
            text = text.replace(self.base, "BASE")
            if self.stack_id:
                text = text.replace(self.stack_id, "STACK-ID")
            if self.snapshot_id:
                text = text.replace(self.snapshot_id, "SNAPSHOT-ID")
            text = UUID.sub("UUID", text)
            text = text.replace(self.name, "STACK-NAME")
            text = PHYSICAL_SUFFIX.sub(r"\1-SUFFIX", text)
            return TIMESTAMP.sub("TIME", text)

        headers = {name: response.headers.get(name) for name in COMPARED_HEADERS}
        text = alike(response.text)
        body: Any = text
        order: list[str] = []
        if response.headers.get("content-type") == "application/json":
            # The engine's mappings (a snapshot's resources) come in the order its
            # steps finished; the API's own keys, nearer the top, keep their order.
            body = json.loads(text)
            order = key_order(body, KEY_ORDER_DEPTH)
        return {
            "status": response.status_code,
            "headers": {name: alike(value) if value else value for name, value in headers.items()},
            "body": body,
            "key order": order,
        }

    def wait_for(self, status: str) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            shown = self.send("GET", "/stacks/{name}/{id}?resolve_outputs=false")
            if shown.status_code == 200 and shown.json()["stack"]["stack_status"] == status:
                return
            time.sleep(0.3)
        raise AssertionError(f"{self.name} never reached {status}")


@pytest.fixture(scope="module")
def sides(apis: dict[str, str]) -> dict[str, Side]:
    # Names of one length, so that answers quoting them compare byte for byte.
    return {"heat": Side(apis["heat"], "by-heat-api"), "ours": Side(apis["ours"], "by-keel-api")}


# The steps share the two stacks and run in this order; a step naming a status waits
# for each stack to reach it.
STEPS: list[tuple[str, str, str, dict[str, Any], str | None]] = [
    ("lookup by name", "GET", "/stacks/{name}", {}, None),
    (
        "lookup as JSON",
        "DELETE",
        "/stacks/{name}",
        {"headers": {"Accept": "application/json"}},
        None,
    ),
    ("lookup of a path", "GET", "/stacks/{name}/resources?x=1", {}, None),
    ("lookup by id", "GET", "/stacks/{id}", {}, None),
    ("show", "GET", "/stacks/{name}/{id}", {}, None),
    ("show under another name", "GET", "/stacks/other/{id}", {}, None),
    ("show without outputs", "GET", "/stacks/{name}/{id}?resolve_outputs=False", {}, None),
    ("listing by name", "GET", "/stacks?name={name}&with_count=true", {}, None),
    ("listing page", "GET", "/stacks?name={name}&limit=1", {}, None),
    (
        "preview a new stack",
        "POST",
        "/stacks/preview",
        {"json": {"stack_name": "{name}-preview", "template": TEMPLATE}},
        None,
    ),
    (
        "create with an unknown parameter",
        "POST",
        "/stacks",
        {
            "json": {
                "stack_name": "{name}-unknown",
                "template": TEMPLATE,
                "parameters": {"nope": 1},
            }
        },
        None,
    ),
    (
        "update to an unknown resource type",
        "PUT",
        "/stacks/{name}/{id}",
        {"json": {"template": BROKEN_TEMPLATE}},
        None,
    ),
    ("template", "GET", "/stacks/{name}/{id}/template", {}, None),
    ("environment", "GET", "/stacks/{name}/{id}/environment", {}, None),
    ("files", "GET", "/stacks/{name}/{id}/files", {}, None),
    ("outputs", "GET", "/stacks/{name}/{id}/outputs", {}, None),
    ("output", "GET", "/stacks/{name}/{id}/outputs/said", {}, None),
    ("missing output", "GET", "/stacks/{name}/{id}/outputs/nothing", {}, None),
    (
        "preview update",
        "PATCH",
        "/stacks/{name}/{id}/preview",
        {"json": {"parameters": {"greeting": "hey"}}},
        None,
    ),
    (
        "patch",
        "PATCH",
        "/stacks/{name}/{id}",
        {"json": {"parameters": {"greeting": "hey"}}},
        "UPDATE_COMPLETE",
    ),
    ("output after the patch", "GET", "/stacks/{name}/{id}/outputs/said", {}, None),
    ("update", "PUT", "/stacks/{name}/{id}", {"json": {"template": TEMPLATE}}, "UPDATE_COMPLETE"),
    (
        "suspend",
        "POST",
        "/stacks/{name}/{id}/actions",
        {"json": {"suspend": None}},
        "SUSPEND_COMPLETE",
    ),
    (
        "cancel without an update",
        "POST",
        "/stacks/{name}/{id}/actions",
        {"json": {"cancel_update": None}},
        None,
    ),
    (
        "resume",
        "POST",
        "/stacks/{name}/{id}/actions",
        {"json": {"resume": None}},
        "RESUME_COMPLETE",
    ),
    ("snapshots, none yet", "GET", "/stacks/{name}/{id}/snapshots", {}, None),
    (
        "snapshot",
        "POST",
        "/stacks/{name}/{id}/snapshots",
        {"json": {"name": "kept"}},
        "SNAPSHOT_COMPLETE",
    ),
    ("snapshots", "GET", "/stacks/{name}/{id}/snapshots", {}, None),
    ("show snapshot", "GET", "/stacks/{name}/{id}/snapshots/{snapshot}", {}, None),
    (
        "restore",
        "POST",
        "/stacks/{name}/{id}/snapshots/{snapshot}/restore",
        {},
        "RESTORE_COMPLETE",
    ),
    ("delete snapshot", "DELETE", "/stacks/{name}/{id}/snapshots/{snapshot}", {}, None),
    ("unknown snapshot", "GET", "/stacks/{name}/{id}/snapshots/nothing", {}, None),
    ("abandon refused", "DELETE", "/stacks/{name}/{id}/abandon", {}, None),
    ("export refused", "GET", "/stacks/{name}/{id}/export", {}, None),
    ("check", "POST", "/stacks/{name}/{id}/actions", {"json": {"check": None}}, "CHECK_COMPLETE"),
    (
        "taken name",
        "POST",
        "/stacks",
        {"json": {"stack_name": "{name}", "template": TEMPLATE}},
        None,
    ),
    (
        # The body's environment is ignored when environment files are named.
        "create from environment files",
        "POST",
        "/stacks",
        {
            "json": {
                "stack_name": "{name}-files",
                "template": TEMPLATE,
                "environment": {"not a section": {}},
                "files": {"env.yaml": "parameters: {greeting: from a file}"},
                "environment_files": ["env.yaml"],
            }
        },
        None,
    ),
    *[
        (
            f"create with {label}",
            "POST",
            "/stacks",
            {"json": {"stack_name": f"{{name}}-{index}", "template": TEMPLATE, **fields}},
            None,
        )
        for index, (label, fields) in enumerate(
            [
                ("files a list", {"files": ["a"]}),
                ("empty tags", {"tags": ""}),
                ("a zero timeout", {"timeout_mins": 0}),
                ("a textual timeout", {"timeout_mins": "12"}),
                ("disable_rollback not a boolean", {"disable_rollback": "maybe"}),
                ("parameters as pairs", {"parameters": [["greeting", "paired"]]}),
            ]
        )
    ],
    ("delete", "DELETE", "/stacks/{name}/{id}", {}, "DELETE_COMPLETE"),
    ("lookup after the delete", "GET", "/stacks/{name}", {}, None),
]


@pytest.fixture(scope="module")
def created(sides: dict[str, Side]) -> list[dict[str, Any]]:
    answers = []
    for side in sides.values():
        response = side.send(
            "POST",
            "/stacks",
            json={"stack_name": side.name, "template": TEMPLATE, "parameters": {"greeting": "hi"}},
        )
        assert response.status_code == 201, response.text
        side.stack_id = response.json()["stack"]["id"]
        answers.append(side.comparable(response))
    for side in sides.values():
        side.wait_for("CREATE_COMPLETE")
    return answers


def test_create_is_answered_as_heat_answers_it(created: list[dict[str, Any]]) -> None:
    heat, ours = created
    assert ours == heat


@pytest.mark.parametrize("step", STEPS, ids=[step[0] for step in STEPS])
def test_step_is_answered_as_heat_answers_it(
    sides: dict[str, Side],
    created: list[dict[str, Any]],
    step: tuple[str, str, str, dict[str, Any], str | None],
) -> None:
    _, method, path, options, status = step
    answers = []
    for side in sides.values():
        sent = dict(options)
        if "json" in sent and "stack_name" in sent["json"]:
            named = sent["json"]["stack_name"].format(name=side.name)
            sent["json"] = {**sent["json"], "stack_name": named}
        response = side.send(method, path, **sent)
        if method == "POST" and path.endswith("/snapshots") and response.ok:
            side.snapshot_id = response.json()["id"]
        answers.append(side.comparable(response))
        if status is not None:
            side.wait_for(status)
    heat, ours = answers
    assert ours == heat
