"""Every CFN action over a real engine, beside Heat's own CFN API given the very same
engine answers: our app's engine calls are recorded, Heat's API in the oracle replays
the requests with an engine client that answers those calls in the same order, and the
two answers (status, content type, XML or JSON body) must be identical.

Not here, as OpenKeel answers them where Heat 27.0.1 fails (see test_resources.py and
docs/divergences.md): DescribeStackEvents of a stack with events, DescribeStackResources
by the physical id of an existing resource.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import flask
import pytest

from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.dispatch import LocalQueue
from keel_app.engine.settings import EngineSettings
from keel_app.models.database import Database
from keel_app.rpc.client import EngineClient
from keel_app.rpc.local import LocalTransport
from keel_app.web.cfn import create_cfn_app
from tests.web.cfn import wsgi_environ
from tests.web.cfn.heat_cfn_api import replay_scripted, write_policy
from tests.web.cfn.recording import RecordingTransport
from tests.web.cfn.stack_templates import CFN_TEMPLATE, UPDATED_TEMPLATE
from tests.web.cfn.test_against_heat import IDENTITY
from tests.web.conftest import heat_conf

pytestmark = pytest.mark.oracle

COMPARED_HEADERS = ("Content-Type", "Content-Length")
REQUEST_ID = re.compile(r"^req-[0-9a-f-]{36}$")


def get(**parameters: str) -> dict[str, Any]:
    return {"method": "GET", "path": "/v1/", "query": urlencode(parameters), "headers": IDENTITY}


def post(**parameters: str) -> dict[str, Any]:
    headers = {**IDENTITY, "Content-Type": "application/x-www-form-urlencoded"}
    return {"method": "POST", "path": "/v1/", "headers": headers, "body": urlencode(parameters)}


def both_forms(**parameters: str) -> list[dict[str, Any]]:
    return [get(**parameters), get(**parameters, ContentType="JSON")]


def requests(arn: str) -> list[dict[str, Any]]:
    template = json.dumps(CFN_TEMPLATE)
    return [
        *both_forms(Action="ListStacks"),
        *both_forms(Action="DescribeStacks"),
        *both_forms(Action="DescribeStacks", StackName="web"),
        get(Action="DescribeStacks", StackName=arn),
        *both_forms(Action="DescribeStacks", StackName="missing"),
        *both_forms(Action="DescribeStackResource", StackName="web", LogicalResourceId="Value"),
        get(Action="DescribeStackResource", StackName="web", LogicalResourceId="Handle"),
        *both_forms(Action="DescribeStackResource", StackName="web", LogicalResourceId="Nope"),
        *both_forms(Action="DescribeStackResources", StackName="web"),
        get(Action="DescribeStackResources", StackName=arn, LogicalResourceId="Handle"),
        get(Action="DescribeStackResources", PhysicalResourceId="nothing-like-it"),
        get(Action="DescribeStackResources"),
        *both_forms(Action="ListStackResources", StackName="web"),
        *both_forms(Action="GetTemplate", StackName="web"),
        *both_forms(Action="ValidateTemplate", TemplateBody=template),
        get(Action="ValidateTemplate", TemplateBody=json.dumps({"Resources": {}, **VERSION})),
        post(
            Action="CreateStack",
            StackName="made",
            TemplateBody=template,
            TimeoutInMinutes="5",
            OnFailure="DO_NOTHING",
            **{
                "Parameters.member.1.ParameterKey": "Greeting",
                "Parameters.member.1.ParameterValue": "bonjour",
            },
        ),
        post(Action="CreateStack", StackName="made", TemplateBody=template),
        post(Action="CreateStack", StackName="made", TemplateBody=template, ContentType="JSON"),
        post(
            Action="CreateStack",
            StackName="other",
            TemplateBody=template,
            **{
                "Parameters.member.1.ParameterKey": "Unknown",
                "Parameters.member.1.ParameterValue": "x",
            },
        ),
        post(Action="UpdateStack", StackName="web", TemplateBody=json.dumps(UPDATED_TEMPLATE)),
        post(Action="UpdateStack", StackName="missing", TemplateBody=template),
        get(Action="DeleteStack", StackName="made"),
        get(Action="DeleteStack", StackName="made", ContentType="JSON"),
    ]


VERSION = {"AWSTemplateFormatVersion": "2010-09-09"}


@pytest.fixture
def recording(
    settings: EngineSettings, database: Database, queue: LocalQueue
) -> RecordingTransport:
    return RecordingTransport(LocalTransport(settings, database, queue))


@pytest.fixture
def recorded_app(tmp_path: Path, recording: RecordingTransport) -> flask.Flask:
    conf = heat_conf(tmp_path, extra=f"[oslo_policy]\npolicy_file = {write_policy(tmp_path)}\n")
    return create_cfn_app(
        {"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": EngineClient(recording)}
    )


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    headers = {name.lower(): value for name, value in answer["headers"].items()}
    return {
        "status": answer["status"],
        "headers": {name: headers.get(name.lower()) for name in COMPARED_HEADERS},
        "body": answer["body"],
        "request id": bool(REQUEST_ID.match(headers.get("x-openstack-request-id", ""))),
    }


def test_every_action_answers_as_heats_api_would_for_the_same_engine_answers(
    recorded_app: flask.Flask,
    recording: RecordingTransport,
    make_stack: Any,
    tmp_path: Path,
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)
    specs = requests(HeatIdentifier(**identity).arn())

    ours = [wsgi_environ.call(recorded_app, spec) for spec in specs]
    heats = replay_scripted(tmp_path, specs, recording.script)

    assert [comparable(answer) for answer in ours] == [comparable(answer) for answer in heats]
