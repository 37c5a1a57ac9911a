"""A query parameter given more than once reaches the engine as Heat's heat-api sends it:
a single-valued one by its last value (webob's ``params.get``), a listed one whole.

Each request goes to Heat's heat-api (in the oracle, its engine client recording the
calls) and to ours (on a recording transport), with the same engine reply; the calls and
the answers must be the same.
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
from tests.web.v1.test_engine_calls_against_heat import (
    HEAT_REPLAY,
    OLD_POLICY_DEFAULTS,
    RecordingTransport,
    comparable,
    policy_file,
)

pytestmark = pytest.mark.oracle

STACK = "/v1/admin/stacks/s1/0f7f3b43-7b9a-4b8e-9e36-1c5c2f0d3a11"
TEMPLATE = {"heat_template_version": "2018-08-31", "resources": {}}

# (name, method, path, body, the engine's reply)
CASES: list[tuple[str, str, str, str | None, Any]] = [
    (
        "stack listing",
        "GET",
        "/v1/admin/stacks?limit=1&limit=2&marker=a&marker=b&sort_dir=asc&sort_dir=desc"
        "&show_nested=false&show_nested=true&tags=x&tags=y",
        None,
        [],
    ),
    (
        "resources",
        "GET",
        STACK + "/resources?nested_depth=1&nested_depth=2&with_detail=false&with_detail=true",
        None,
        [],
    ),
    (
        "events",
        "GET",
        STACK + "/events?limit=1&limit=2&marker=a&marker=b&sort_dir=asc&sort_dir=desc"
        "&nested_depth=1&nested_depth=3",
        None,
        [],
    ),
    ("resource events", "GET", STACK + "/resources/r1/events?limit=5&limit=0", None, []),
    (
        "software configs",
        "GET",
        "/v1/admin/software_configs?limit=1&limit=2&marker=a&marker=b",
        None,
        [],
    ),
    (
        "software deployments",
        "GET",
        "/v1/admin/software_deployments?server_id=a&server_id=b",
        None,
        [],
    ),
    (
        "resource types",
        "GET",
        "/v1/admin/resource_types?name=a&name=b&support_status=S&support_status=T"
        "&version=1&version=2&with_description=false&with_description=true",
        None,
        [],
    ),
    (
        "generated template",
        "GET",
        "/v1/admin/resource_types/OS::Heat::None/template?template_type=cfn&template_type=hot",
        None,
        TEMPLATE,
    ),
    (
        "template functions",
        "GET",
        "/v1/admin/template_versions/v/functions?with_condition_func=false"
        "&with_condition_func=true",
        None,
        [],
    ),
    (
        "validate",
        "POST",
        "/v1/admin/validate?show_nested=false&show_nested=true&ignore_errors=1&ignore_errors=2,3",
        json.dumps({"template": TEMPLATE}),
        {"Description": "d"},
    ),
    (
        "last value refused",
        "GET",
        "/v1/admin/software_configs?limit=1&limit=many",
        None,
        [],
    ),
]


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    directory: Path = tmp_path_factory.mktemp("heat-api-query-params")
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


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_repeated_parameters_reach_the_engine_as_from_heat(
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
        headers={"Content-Type": "application/json"} if data is not None else {},
        data=data.encode() if data is not None else None,
    )

    ours = {
        "status": response.status_code,
        "headers": dict(response.headers),
        "body": response.get_data(as_text=True),
        "calls": transport.calls,
    }
    assert comparable(ours) == comparable(heat_answers[CASES.index(case)])


def test_the_last_value_counts_before_any_engine_call(tmp_path: Path) -> None:
    transport = RecordingTransport()
    transport.reply = []
    app = create_app(
        {
            "TESTING": True,
            "HEAT_CONF": heat_conf(tmp_path),
            "ENGINE_CLIENT": EngineClient(transport),
        }
    )

    app.test_client().get("/v1/admin/software_deployments?server_id=first&server_id=last")

    assert [call["arguments"] for call in transport.calls] == [{"server_id": "last"}]
