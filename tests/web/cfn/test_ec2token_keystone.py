"""The CFN API's default pipeline on a real Keystone 30: a user's EC2 credential signs a
request the way an instance's tools sign it, and the request acts in that user's
project; a wrong secret is refused; an unsigned request naming a user goes on with the
token it carries, as Heat's pipeline hands it to Keystone's token middleware."""

from __future__ import annotations

import datetime
import json
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import flask
import pytest
from keystoneclient.contrib.ec2.utils import Ec2Signer

from keel_app.common import config
from keel_app.common.context import RequestContext
from keel_app.rpc.client import EngineClient
from keel_app.web.cfn import create_cfn_app
from tests import keystone
from tests.web.cfn import wsgi_environ
from tests.web.cfn.stack_templates import CFN_TEMPLATE

HOST = f"{wsgi_environ.SERVER_NAME}:{wsgi_environ.SERVER_PORT}"


def ec2_credential(service: keystone.Keystone, account: keystone.Account) -> dict[str, str]:
    """A new EC2 access/secret pair of ``account`` (Keystone's OS-EC2 API)."""
    user_id = service.user_ids[account.user_name]
    request = urllib.request.Request(
        f"{service.auth_url}/users/{user_id}/credentials/OS-EC2",
        data=json.dumps({"tenant_id": service.project_id(account)}).encode(),
        headers={"Content-Type": "application/json", "X-Auth-Token": service.token(account)},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        credential: dict[str, str] = json.load(response)["credential"]
    return credential


def signed_query(access: str, secret: str, **parameters: str) -> str:
    params = {
        **parameters,
        "AWSAccessKeyId": access,
        "SignatureMethod": "HmacSHA256",
        "SignatureVersion": "2",
        "Timestamp": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    signature = Ec2Signer(secret).generate(
        {"params": params, "verb": "GET", "host": HOST, "path": "/v1/"}
    )
    return urlencode({**params, "Signature": signature})


@pytest.fixture
def keystone_app(
    tmp_path: Path, keystone_service: keystone.Keystone, engine_client: EngineClient
) -> flask.Flask:
    path = tmp_path / "heat.conf"
    # Heat's default pipeline: EC2 signatures, then Keystone's token middleware.
    path.write_text(
        keystone_service.heat_conf() + "[ec2authtoken]\nauth_type = password\n"
        f"auth_url = {keystone_service.url}\nusername = heat\n"
        f"password = {keystone.HEAT_SERVICE_PASSWORD}\nproject_name = service\n"
        "user_domain_name = Default\nproject_domain_name = Default\n"
        # The catalog's identity endpoint is versioned; Heat appends /v3/ec2tokens.
        f"endpoint_override = {keystone_service.url}\n"
    )
    conf = config.load(["--config-file", str(path)])
    return create_cfn_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})


def test_a_request_signed_with_a_users_ec2_credential_acts_in_its_project(
    keystone_app: flask.Flask,
    keystone_service: keystone.Keystone,
    engine_client: EngineClient,
    run_engine: Any,
) -> None:
    alice_project = keystone_service.project_id(keystone.ALICE)
    owner = RequestContext(user_id="alice", project_id=alice_project, roles=["member"])
    engine_client.create_stack(owner, "alices", CFN_TEMPLATE, {}, {}, {})
    other = RequestContext(user_id="bob", project_id=keystone_service.project_id(keystone.BOB))
    engine_client.create_stack(other, "bobs", CFN_TEMPLATE, {}, {}, {})
    run_engine()
    credential = ec2_credential(keystone_service, keystone.ALICE)
    query = signed_query(
        credential["access"], credential["secret"], Action="ListStacks", ContentType="JSON"
    )

    answer = wsgi_environ.call(
        keystone_app, {"method": "GET", "path": "/v1/", "query": query, "headers": {"Host": HOST}}
    )

    assert answer["status"] == 200, answer["body"]
    summaries = json.loads(answer["body"])["ListStacksResponse"]["ListStacksResult"]
    assert [entry["StackName"] for entry in summaries["StackSummaries"]] == ["alices"]
    assert summaries["StackSummaries"][0]["StackId"].startswith(
        f"arn:openstack:heat::{alice_project}:stacks/alices/"
    )


def test_a_request_signed_with_the_wrong_secret_is_refused(
    keystone_app: flask.Flask, keystone_service: keystone.Keystone
) -> None:
    credential = ec2_credential(keystone_service, keystone.ALICE)
    query = signed_query(credential["access"], "not the secret", Action="ListStacks")

    answer = wsgi_environ.call(
        keystone_app, {"method": "GET", "path": "/v1/", "query": query, "headers": {"Host": HOST}}
    )

    assert (answer["status"], answer["body"]) == (
        403,
        "<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>"
        "User is not authorized to perform action</Message></Error></ErrorResponse>",
    )


def test_an_unsigned_request_acts_with_the_token_it_carries(
    keystone_app: flask.Flask,
    keystone_service: keystone.Keystone,
    engine_client: EngineClient,
    run_engine: Any,
) -> None:
    alice_project = keystone_service.project_id(keystone.ALICE)
    owner = RequestContext(user_id="alice", project_id=alice_project, roles=["member"])
    engine_client.create_stack(owner, "alices", CFN_TEMPLATE, {}, {}, {})
    run_engine()
    headers = {"X-Auth-User": "alice", "X-Auth-Token": keystone_service.token(keystone.ALICE)}

    answer = wsgi_environ.call(
        keystone_app,
        {
            "method": "GET",
            "path": "/v1/",
            "query": urlencode({"Action": "ListStacks", "ContentType": "JSON"}),
            "headers": headers,
        },
    )

    assert answer["status"] == 200, answer["body"]
    summaries = json.loads(answer["body"])["ListStacksResponse"]["ListStacksResult"]
    assert [entry["StackName"] for entry in summaries["StackSummaries"]] == ["alices"]


def test_an_unsigned_request_with_a_bad_token_is_refused_by_keystones_middleware(
    keystone_app: flask.Flask,
) -> None:
    headers = {"X-Auth-User": "alice", "X-Auth-Token": "not-a-token"}

    answer = wsgi_environ.call(
        keystone_app,
        {"method": "GET", "path": "/v1/", "query": "Action=ListStacks", "headers": headers},
    )

    assert answer["status"] == 401
    assert json.loads(answer["body"]) == {
        "error": {
            "code": 401,
            "title": "Unauthorized",
            "message": "The request you have made requires authentication.",
        }
    }
