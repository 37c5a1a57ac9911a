"""EC2 signature authentication: what our CFN API asks Keystone (``POST /v3/ec2tokens``)
for a signed request, beside what Heat's own ec2token middleware asks for the very same
request, and what each answers; then the identity the request goes on with."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlencode

import flask
import pytest

from keel_app.common import config
from keel_app.common.identifier import ResourceIdentifier
from keel_app.rpc.client import EngineClient
from keel_app.web.cfn import create_cfn_app
from tests.web.cfn import wsgi_environ
from tests.web.cfn.fake_keystone import ACCESS_KEY, TOKEN_ID, FakeKeystone, fake_keystone
from tests.web.cfn.heat_cfn_api import replay, write_policy
from tests.web.cfn.stack_templates import CFN_TEMPLATE

V2 = {
    "AWSAccessKeyId": ACCESS_KEY,
    "SignatureMethod": "HmacSHA256",
    "SignatureVersion": "2",
    "Timestamp": "2026-12-01T12:00:00Z",
    "Signature": "kGp2f1mJd8N6Ykz4sZb0n+5t4cV1rR2wQm3tXo9uE0A=",
}
CREDENTIAL = f"{ACCESS_KEY}/20261201/RegionOne/cloudformation/aws4_request"
V4_HEADER = (
    f"AWS4-HMAC-SHA256 Credential={CREDENTIAL}, SignedHeaders=host;x-amz-date, "
    "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
)
V4_QUERY = {
    "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
    "X-Amz-Credential": CREDENTIAL,
    "X-Amz-Date": "20261201T120000Z",
    "X-Amz-SignedHeaders": "host",
    "X-Amz-Signature": "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def get(parameters: dict[str, str], headers: dict[str, str] | None = None) -> dict[str, Any]:
    query = urlencode({"Action": "EstimateTemplateCost", **parameters})
    return {"method": "GET", "path": "/v1/", "query": query, "headers": headers or {}}


CASES: list[tuple[str, dict[str, Any]]] = [
    ("signature v2 in the query", get(V2)),
    ("signature v2 as json", get({**V2, "ContentType": "JSON"})),
    (
        "signature v2 in a form",
        {
            "method": "POST",
            "path": "/v1/",
            "query": "",
            "headers": {**FORM, "Host": "cfn.example.com:8000"},
            "body": urlencode({"Action": "EstimateTemplateCost", **V2}),
        },
    ),
    (
        "signature v4 in the header",
        get({}, {"Authorization": V4_HEADER, "X-Amz-Date": "20261201T120000Z"}),
    ),
    ("signature v4 pre-signed", get(V4_QUERY)),
    ("an unknown access key", get({**V2, "AWSAccessKeyId": "nobody"})),
    ("no signature", get({"AWSAccessKeyId": ACCESS_KEY})),
    ("an empty signature", get({**V2, "Signature": ""})),
    ("no access key", get({"Signature": "abc"})),
]


def ec2_conf(directory: Path, keystone_url: str) -> Any:
    path = directory / "heat-ec2.conf"
    # The standalone pipeline (no second validation of the token), as Heat's in the oracle.
    path.write_text(
        "[paste_deploy]\nflavor = standalone\n"
        f"[oslo_policy]\npolicy_file = {write_policy(directory)}\n"
        f"[ec2authtoken]\nendpoint_override = {keystone_url}\n"
    )
    return config.load(["--config-file", str(path)])


@pytest.fixture
def keystone() -> Iterator[FakeKeystone]:
    with fake_keystone() as running:
        yield running


@pytest.fixture
def ec2_app(tmp_path: Path, keystone: FakeKeystone, engine_client: EngineClient) -> flask.Flask:
    conf = ec2_conf(tmp_path, keystone.url)
    return create_cfn_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})


def answer_of(answer: dict[str, Any]) -> tuple[int, str | None, str]:
    return answer["status"], answer["headers"].get("Content-Type"), answer["body"]


@pytest.mark.oracle
def test_keystone_is_asked_and_the_request_answered_as_by_heats_middleware(
    ec2_app: flask.Flask, keystone: FakeKeystone, tmp_path: Path
) -> None:
    specs = [spec for _, spec in CASES]

    heats = replay(tmp_path, specs, keystone_url=keystone.url)
    asked_by_heat = list(keystone.requests)
    keystone.requests.clear()
    ours = [wsgi_environ.call(ec2_app, spec) for spec in specs]

    assert [answer_of(answer) for answer in ours] == [answer_of(answer) for answer in heats]
    assert keystone.requests == asked_by_heat
    assert len(asked_by_heat) == 6


def test_what_keystone_is_asked_for_a_v2_signature(
    ec2_app: flask.Flask, keystone: FakeKeystone
) -> None:
    wsgi_environ.call(ec2_app, get(V2, {"User-Agent": "cfn-signal"}))

    parameters = {"Action": "EstimateTemplateCost", **V2}
    del parameters["Signature"]
    assert keystone.requests == [
        {
            "path": "/v3/ec2tokens",
            "body": {
                "ec2Credentials": {
                    "access": ACCESS_KEY,
                    "signature": V2["Signature"],
                    "host": "heat.example.com:8000",
                    "verb": "GET",
                    "path": "/v1/",
                    "params": parameters,
                    "headers": {"Content-Length": "0", "User-Agent": "cfn-signal"},
                    "body_hash": (
                        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                    ),
                }
            },
        }
    ]


def test_the_request_acts_as_the_tokens_user_whatever_identity_it_claims(
    ec2_app: flask.Flask, make_stack: Any
) -> None:
    make_stack("web", CFN_TEMPLATE)
    claimed = {"X-Project-Id": "someone-else", "X-Roles": "admin", "X-Auth-User": "mallory"}

    answer = wsgi_environ.call(
        ec2_app, get({**V2, "Action": "ListStacks", "ContentType": "JSON"}, claimed)
    )

    assert answer["status"] == 200, answer["body"]
    assert '"StackName": "web"' in answer["body"]


def test_the_token_and_credentials_reach_the_request_context(
    ec2_app: flask.Flask,
) -> None:
    seen: dict[str, Any] = {}

    @ec2_app.after_request
    def keep_context(response: flask.Response) -> flask.Response:
        context = flask.g.context
        seen.update(
            auth_token=context.auth_token,
            project_id=context.project_id,
            user_id=context.user_id,
            roles=list(context.roles),
            aws_creds=context.aws_creds,
        )
        return response

    wsgi_environ.call(ec2_app, get(V2))

    signed = {"ec2Credentials": {"access": ACCESS_KEY, "signature": V2["Signature"]}}
    assert seen == {
        "auth_token": TOKEN_ID,
        "project_id": "project-a",
        "user_id": "alice-id",
        "roles": ["reader", "member"],
        "aws_creds": json.dumps(signed),
    }


def test_a_request_naming_a_user_still_needs_a_signature(
    ec2_app: flask.Flask, keystone: FakeKeystone
) -> None:
    # Heat's standalone pipeline would take this caller at its word.
    claimed = {"X-Auth-User": "admin", "X-Project-Id": "project-a", "X-Roles": "admin"}

    answer = wsgi_environ.call(ec2_app, get({}, claimed))

    assert answer_of(answer) == (
        400,
        "application/xml; charset=UTF-8",
        "<ErrorResponse><Error><Type>Sender</Type><Code>IncompleteSignature</Code><Message>"
        "The request signature does not conform to AWS standards</Message></Error>"
        "</ErrorResponse>",
    )
    assert keystone.requests == []


def test_keystone_out_of_reach_is_an_internal_failure(
    tmp_path: Path, engine_client: EngineClient
) -> None:
    conf = ec2_conf(tmp_path, "http://127.0.0.1:9")
    app = create_cfn_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})

    answer = wsgi_environ.call(app, get(V2))

    assert answer_of(answer) == (
        500,
        "application/xml; charset=UTF-8",
        "<ErrorResponse><Error><Type>Server</Type><Code>InternalFailure</Code><Message>"
        "The request processing has failed due to an internal error</Message></Error>"
        "</ErrorResponse>",
    )


def test_a_signed_wait_condition_signal_keeps_its_body(
    ec2_app: flask.Flask,
    keystone: FakeKeystone,
    make_stack: Any,
    engine_client: EngineClient,
    caller: Any,
) -> None:
    identity = make_stack("web", CFN_TEMPLATE)
    handle = ResourceIdentifier(resource_name="Handle", **identity)
    signal = {"Status": "SUCCESS", "Reason": "signed", "UniqueId": "1", "Data": "d"}
    body = json.dumps(signal)
    spec = {
        "method": "PUT",
        # PATH_INFO as a server hands it over: the handle URL's ARN decoded once.
        "path": "/v1/waitcondition" + unquote(handle.arn_url_path()),
        "query": urlencode(V2),
        "headers": {"Content-Type": "application/json"},
        "body": body,
    }

    answer = wsgi_environ.call(ec2_app, spec)

    assert (answer["status"], answer["body"]) == (200, "<resource>Handle</resource>")
    forwarded = keystone.requests[0]["body"]["ec2Credentials"]
    assert forwarded["body_hash"] == hashlib.sha256(body.encode()).hexdigest()
    assert engine_client.describe_stack_resource(caller, identity, "Handle")["metadata"] == {
        "1": {"Status": "SUCCESS", "Reason": "signed", "Data": "d"}
    }
