"""The resource, event, catalog, software config and deployment and service routes send the
engine what Heat's heat-api sends and answer its replies as Heat's does.

Each request goes to both APIs with the same engine reply given: Heat's heat-api (in the
oracle, its engine client recording each call and answering with the reply) and ours (on a
transport that does the same). The calls (method, arguments, version) and the answers
(status, headers, body) must be the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.rpc.client import EngineClient
from keel_app.web import create_app
from tests import oracle
from tests.web import heat_api
from tests.web.conftest import heat_conf

pytestmark = pytest.mark.oracle

JSON = {"Content-Type": "application/json"}
STACK_ID = "0f7f3b43-7b9a-4b8e-9e36-1c5c2f0d3a11"
STACK = f"/v1/admin/stacks/s1/{STACK_ID}"
IDENTITY = {"tenant": "admin", "stack_name": "s1", "stack_id": STACK_ID, "path": ""}
NESTED = {"tenant": "admin", "stack_name": "s1-inner", "stack_id": "n1", "path": ""}
RESOURCE = {
    "resource_name": "r1",
    "description": "",
    "updated_time": "2026-01-02T03:04:05Z",
    "creation_time": "2026-01-02T03:04:05Z",
    "physical_resource_id": "p1",
    "resource_action": "CREATE",
    "resource_status": "COMPLETE",
    "resource_status_reason": "state changed",
    "resource_type": "OS::Heat::None",
    "resource_identity": {**IDENTITY, "path": "/resources/r1"},
    "stack_identity": IDENTITY,
    "stack_name": "s1",
    "required_by": ["r2"],
    "nested_stack_id": NESTED,
    "metadata": {"a": [1]},
    "attributes": {"show": None},
}
EVENT = {
    "event_identity": {**IDENTITY, "path": "/resources/r1/events/e1"},
    "stack_identity": IDENTITY,
    "stack_name": "s1",
    "event_time": "2026-01-02T03:04:05Z",
    "resource_name": "r1",
    "physical_resource_id": "p1",
    "resource_action": "CREATE",
    "resource_status": "COMPLETE",
    "resource_status_reason": "state changed",
    "resource_type": "OS::Heat::None",
    "resource_properties": {"value": 1},
    "root_stack_id": NESTED,
}
CONFIG = {"id": "c1", "name": "n", "group": "script", "creation_time": "2026-01-02T03:04:05Z"}
DEPLOYMENT = {"id": "d1", "server_id": "s1", "config_id": "c1", "status": "COMPLETE"}
TEMPLATE = {"heat_template_version": "2018-08-31", "resources": {}}


def body(value: Any) -> str:
    return json.dumps(value)


# (name, method, path, body, the engine's reply)
CASES: list[tuple[str, str, str, str | None, Any]] = [
    ("resources", "GET", STACK + "/resources", None, [RESOURCE]),
    (
        "resources with parameters",
        "GET",
        STACK + "/resources?nested_depth=2&with_detail=True&type=a&type=b&name=x&id=1",
        None,
        [RESOURCE, {**RESOURCE, "resource_name": "r2"}],
    ),
    ("resource", "GET", STACK + "/resources/r1", None, RESOURCE),
    ("resource with_attr", "GET", STACK + "/resources/r1?with_attr=a&with_attr=b", None, RESOURCE),
    ("resource metadata", "GET", STACK + "/resources/r1/metadata", None, RESOURCE),
    ("signal", "POST", STACK + "/resources/r1/signal", body({"data": "x"}), None),
    ("signal without a body", "POST", STACK + "/resources/r1/signal", None, None),
    (
        "mark unhealthy",
        "PATCH",
        STACK + "/resources/r1",
        body({"mark_unhealthy": True, "resource_status_reason": "broken"}),
        None,
    ),
    (
        "mark healthy",
        "PATCH",
        STACK + "/resources/r1",
        body({"mark_unhealthy": "False"}),
        None,
    ),
    ("events", "GET", STACK + "/events", None, [EVENT]),
    (
        "events with parameters",
        "GET",
        STACK + "/events?limit=2&marker=m&sort_keys=a&sort_keys=b&sort_dir=asc&nested_depth=0"
        "&resource_status=COMPLETE&resource_type=T&resource_type=U",
        None,
        [EVENT],
    ),
    ("resource events", "GET", STACK + "/resources/r1/events?limit=0", None, [EVENT]),
    ("resource without events", "GET", STACK + "/resources/r1/events", None, []),
    ("event", "GET", STACK + "/resources/r1/events/e1", None, [EVENT]),
    ("no such event", "GET", STACK + "/resources/r1/events/e1", None, []),
    (
        "resource types",
        "GET",
        "/v1/admin/resource_types?support_status=S&name=n&version=v&with_description=true",
        None,
        ["OS::Heat::None"],
    ),
    ("resource types plain", "GET", "/v1/admin/resource_types", None, ["OS::Heat::None"]),
    (
        "resource schema",
        "GET",
        "/v1/admin/resource_types/OS::Heat::None?with_description=true",
        None,
        {"resource_type": "OS::Heat::None", "properties": {}},
    ),
    (
        "generated template",
        "GET",
        "/v1/admin/resource_types/OS::Heat::None/template?template_type=Hot",
        None,
        TEMPLATE,
    ),
    (
        "generated template by default",
        "GET",
        "/v1/admin/resource_types/OS::Heat::None/template",
        None,
        TEMPLATE,
    ),
    ("template versions", "GET", "/v1/admin/template_versions", None, [{"version": "v"}]),
    (
        "template functions",
        "GET",
        "/v1/admin/template_versions/v/functions?with_condition_func=true",
        None,
        [{"functions": "equals"}],
    ),
    (
        "validate",
        "POST",
        "/v1/admin/validate?show_nested=true&ignore_errors=99001,1",
        body(
            {
                "template": TEMPLATE,
                "parameters": {"a": 1},
                "environment": {"parameter_defaults": {"b": 2}},
                "files": {"f": "x"},
            }
        ),
        {"Description": "d", "Parameters": {}},
    ),
    (
        "validate with environment files",
        "POST",
        "/v1/admin/validate",
        body(
            {
                "template": "heat_template_version: 2018-08-31",
                "environment": {"ignored": True},
                "environment_files": ["env.yaml"],
                "files_container": "c",
            }
        ),
        {"Description": "d"},
    ),
    (
        "validate refused",
        "POST",
        "/v1/admin/validate",
        body({"template": TEMPLATE}),
        {"Error": "Property error: resources.x"},
    ),
    ("configs", "GET", "/v1/admin/software_configs?limit=3&marker=m", None, [CONFIG]),
    ("config", "GET", "/v1/admin/software_configs/c1", None, CONFIG),
    (
        "config create",
        "POST",
        "/v1/admin/software_configs",
        body({"name": "n", "config": "x", "inputs": [{"name": "i"}], "other": 1}),
        CONFIG,
    ),
    ("config delete", "DELETE", "/v1/admin/software_configs/c1", None, None),
    ("deployments", "GET", "/v1/admin/software_deployments", None, [DEPLOYMENT]),
    (
        "deployments of a server",
        "GET",
        "/v1/admin/software_deployments?server_id=s1",
        None,
        [DEPLOYMENT],
    ),
    ("deployed metadata", "GET", "/v1/admin/software_deployments/metadata/s1", None, [CONFIG]),
    ("deployment", "GET", "/v1/admin/software_deployments/d1", None, DEPLOYMENT),
    (
        "deployment create",
        "POST",
        "/v1/admin/software_deployments",
        body({"config_id": "c1", "server_id": "s1", "status": "IN_PROGRESS", "other": 1}),
        DEPLOYMENT,
    ),
    (
        "deployment update",
        "PUT",
        "/v1/admin/software_deployments/d1",
        body({"status": "COMPLETE", "action": None, "output_values": {}, "other": 1}),
        DEPLOYMENT,
    ),
    ("deployment delete", "DELETE", "/v1/admin/software_deployments/d1", None, None),
    ("services", "GET", "/v1/admin/services", None, [{"id": "x", "status": "up"}]),
]

# Runs in the oracle: heat-api, its engine client recording calls and giving the replies.
HEAT_REPLAY = """
import json, sys
conf_path, cases_path, answers_path = sys.argv[1:4]
sys.argv = ["heat-api", "--config-file", conf_path]
import webob
from oslo_serialization import jsonutils
from heat.api.openstack import wsgi
from heat.rpc import client as rpc_client
calls = []
reply = {}
def call(self, ctxt, msg, version=None, timeout=None):
    method, arguments = msg
    calls.append({"method": method, "arguments": jsonutils.to_primitive(arguments),
                  "version": version or self.BASE_RPC_API_VERSION})
    return reply["value"]
rpc_client.EngineClient.call = call
application = wsgi.init_application()
answers = []
for case in json.loads(open(cases_path).read()):
    calls.clear()
    reply["value"] = case["reply"]
    headers = {"Content-Type": "application/json"} if case["body"] is not None else {}
    request = webob.Request.blank(case["path"], method=case["method"], headers=headers)
    if case["body"] is not None:
        request.body = case["body"].encode("latin-1")
    response = request.get_response(application)
    answers.append({"status": response.status_code, "headers": dict(response.headers),
                    "body": response.body.decode("latin-1"), "calls": list(calls)})
with open(answers_path, "w") as answers_file:
    json.dump(answers, answers_file)
"""

OLD_POLICY_DEFAULTS = "[oslo_policy]\nenforce_new_defaults = false\nenforce_scope = false\n"
# Heat's metadata rule has no old default that the noauth admin passes; both APIs get it
# opened by the same policy file.
POLICY = '"software_deployments:metadata": ""\n'


def policy_file(directory: Path) -> str:
    path = directory / "policy.yaml"
    path.write_text(POLICY)
    return f"policy_file = {path}\n"


COMPARED_HEADERS = ("content-type", "content-length", "location")


class RecordingTransport:
    """The engine as a recorder: every call is written down and answered with ``reply``."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.reply: Any = None

    def call(
        self,
        context: Any,
        method: str,
        arguments: dict[str, Any],
        version: str,
        timeout: float | None,
    ) -> Any:
        self.calls.append({"method": method, "arguments": arguments, "version": version})
        return self.reply

    def cast(self, context: Any, method: str, arguments: dict[str, Any], version: str) -> None:
        self.calls.append({"method": method, "arguments": arguments, "version": version})


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    directory: Path = tmp_path_factory.mktemp("heat-api-engine-calls")
    oracle.ensure()
    conf_path = directory / "heat.conf"
    conf_path.write_text(
        heat_api.heat_conf_text(heat_api.MAX_JSON_BODY_SIZE, False)
        + OLD_POLICY_DEFAULTS
        + policy_file(directory)
    )
    cases = [
        {"method": method, "path": path, "body": data, "reply": reply}
        for _, method, path, data, reply in CASES
    ]
    cases_path = directory / "cases.json"
    cases_path.write_text(json.dumps(cases))
    answers_path = directory / "answers.json"
    oracle.run(HEAT_REPLAY, str(conf_path), str(cases_path), str(answers_path))
    answers: list[dict[str, Any]] = json.loads(answers_path.read_text())
    return answers


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    headers = {name.lower(): value for name, value in answer["headers"].items()}
    return {
        "status": answer["status"],
        "headers": {name: headers.get(name) for name in COMPARED_HEADERS},
        "body": answer["body"],
        "calls": answer["calls"],
    }


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_calls_and_answers_are_heats(
    tmp_path: Path,
    heat_answers: list[dict[str, Any]],
    case: tuple[str, str, str, str | None, Any],
) -> None:
    _, method, path, data, reply = case
    transport = RecordingTransport()
    transport.reply = reply
    app = create_app(
        {
            "TESTING": True,
            "HEAT_CONF": heat_conf(tmp_path),
            "ENGINE_CLIENT": EngineClient(transport),
        }
    )

    response = app.test_client().open(
        path,
        method=method,
        headers=JSON if data is not None else {},
        data=data.encode() if data is not None else None,
    )

    ours = {
        "status": response.status_code,
        "headers": dict(response.headers),
        "body": response.get_data(as_text=True),
        "calls": transport.calls,
    }
    assert comparable(ours) == comparable(heat_answers[CASES.index(case)])
