"""What the CFN API forwards to Keystone is enough to check the client's signature: a
request signed as an EC2 client signs it (keystoneclient's ``Ec2Signer``, the algorithm
Keystone checks with) has the same signature recomputed from the forwarded credentials,
for signature versions 2 and 4 (in the Authorization header).

A pre-signed version 4 query (``X-Amz-Signature``) is forwarded as Heat forwards it, the
signature left among the parameters Keystone signs (test_ec2token.py compares this with
Heat's middleware): Keystone cannot match such a signature, with Heat or with OpenKeel.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import flask
import pytest
from keystoneclient.contrib.ec2.utils import Ec2Signer

from keel_app.rpc.client import EngineClient
from keel_app.web.cfn import create_cfn_app
from tests.web.cfn import wsgi_environ
from tests.web.cfn.fake_keystone import ACCESS_KEY, FakeKeystone, fake_keystone
from tests.web.cfn.test_ec2token import ec2_conf

SECRET = "d1b0ae79b1d1431b9a4e8a6ee7d2c1f0"
HOST = f"{wsgi_environ.SERVER_NAME}:{wsgi_environ.SERVER_PORT}"
DATE = "20261201T120000Z"
SCOPE = f"{ACCESS_KEY}/20261201/RegionOne/cloudformation/aws4_request"
EMPTY_BODY_HASH = hashlib.sha256(b"").hexdigest()


@pytest.fixture
def keystone() -> Iterator[FakeKeystone]:
    with fake_keystone() as running:
        yield running


@pytest.fixture
def ec2_app(tmp_path: Path, keystone: FakeKeystone, engine_client: EngineClient) -> flask.Flask:
    conf = ec2_conf(tmp_path, keystone.url)
    return create_cfn_app({"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client})


def client_signature(**credentials: Any) -> str:
    signature: str = Ec2Signer(SECRET).generate(
        {"verb": "GET", "host": HOST, "path": "/v1/", **credentials}
    )
    return signature


def forwarded(keystone: FakeKeystone) -> dict[str, Any]:
    (request,) = keystone.requests
    credentials: dict[str, Any] = request["body"]["ec2Credentials"]
    return credentials


def test_a_version_2_signature_can_be_recomputed(
    ec2_app: flask.Flask, keystone: FakeKeystone
) -> None:
    params = {
        "Action": "ListStacks",
        "AWSAccessKeyId": ACCESS_KEY,
        "SignatureMethod": "HmacSHA256",
        "SignatureVersion": "2",
        "Timestamp": "2026-12-01T12:00:00Z",
        "StackName": "a name/with:odd~chars",
    }
    signature = client_signature(params=params)
    spec = {
        "method": "GET",
        "path": "/v1/",
        "query": urlencode({**params, "Signature": signature}),
        "headers": {"Host": HOST},
    }

    wsgi_environ.call(ec2_app, spec)

    credentials = forwarded(keystone)
    assert credentials["signature"] == signature
    assert Ec2Signer(SECRET).generate(credentials) == signature


def test_a_version_4_header_signature_can_be_recomputed(
    ec2_app: flask.Flask, keystone: FakeKeystone
) -> None:
    params = {"Action": "DescribeStacks", "StackName": "web"}
    headers = {
        "Host": HOST,
        "X-Amz-Date": DATE,
        "Authorization": (
            f"AWS4-HMAC-SHA256 Credential={SCOPE}, SignedHeaders=host;x-amz-date, Signature="
        ),
    }
    signature = client_signature(params=params, headers=headers, body_hash=EMPTY_BODY_HASH)
    headers["Authorization"] += signature
    spec = {"method": "GET", "path": "/v1/", "query": urlencode(params), "headers": headers}

    wsgi_environ.call(ec2_app, spec)

    credentials = forwarded(keystone)
    assert (credentials["access"], credentials["signature"]) == (ACCESS_KEY, signature)
    assert Ec2Signer(SECRET).generate(credentials) == signature
