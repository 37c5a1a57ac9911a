"""RequestContext's dictionary form against Heat 27.0.1's, in both directions."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from keel_app.common.context import (
    CREDENTIAL_FIELDS,
    RequestContext,
    admin_context,
    from_envelope_context,
)
from tests import oracle

pytestmark = pytest.mark.oracle

TOKEN_BODY = {
    "token": {
        "methods": ["password"],
        "user": {"id": "u-1", "name": "demo", "domain": {"id": "default"}},
        "project": {"id": "p-1", "name": "demo", "domain": {"id": "default"}},
        "roles": [{"id": "r-1", "name": "member"}],
        "catalog": [{"type": "orchestration", "endpoints": []}],
        "expires_at": "2030-01-01T00:00:00.000000Z",
    }
}

# Constructor keywords, the same for Heat's RequestContext and ours.
CONTEXTS: dict[str, dict[str, Any]] = {
    "user-token": {
        "auth_token": "gAAAAtoken",
        "auth_token_info": TOKEN_BODY,
        "user_id": "u-1",
        "user_name": "demo",
        "project_id": "p-1",
        "project_name": "demo",
        "user_domain_id": "default",
        "project_domain_id": "default",
        "roles": ["member", "reader"],
        "is_admin": False,
        "request_id": "req-11111111-2222-3333-4444-555555555555",
        "auth_url": "http://keystone:5000/v3",
        "region_name": "RegionOne",
    },
    "trust": {
        "trust_id": "t-1",
        "trustor_user_id": "u-9",
        "user_id": "heat-user",
        "project_id": "p-2",
        "username": "heat",
        "password": "secret",
        "is_admin": False,
        "request_id": "req-2",
        "global_request_id": "req-global",
    },
    "ec2": {
        "aws_creds": '{"ec2Credentials": {"access": "a", "signature": "s"}}',
        "project_id": "p-3",
        "domain_id": "d-1",
        "show_deleted": True,
        "read_only": True,
        "resource_uuid": "r-uuid",
        "system_scope": "all",
        "is_admin_project": False,
        "is_admin": True,
        "request_id": "req-3",
    },
    "admin-role-admin-project": {"roles": ["reader", "Admin"], "request_id": "req-4"},
    "admin-role-other-project": {
        "roles": ["admin"],
        "is_admin_project": False,
        "request_id": "req-5",
    },
    "member-role": {"roles": ["member"], "project_id": "p-6", "request_id": "req-6"},
    "unicode": {"user_name": "dëmo", "project_name": "プロジェクト", "request_id": "req-7"},
}

# Dictionaries as other senders (older Heat, hand-made envelopes) write them.
LEGACY_DICTIONARIES: dict[str, dict[str, Any]] = {
    "tenant-keys": {"tenant": "old-name", "tenant_id": "old-id", "user": "u-1", "request_id": "r"},
    "legacy-keys-win": {
        "tenant_id": "old-id",
        "project_id": "new-id",
        "tenant": "old-name",
        "project_name": "new-name",
        "user_id": "u-legacy",
        "user": "u-new",
        "user_domain_id": "ud-legacy",
        "user_domain": "ud-new",
        "project_domain_id": "pd-legacy",
        "project_domain": "pd-new",
        "request_id": "req-8",
    },
    "empty": {"request_id": "req-9"},
    "admin-undecided": {"is_admin": None, "roles": ["admin"], "request_id": "req-10"},
    "user-name-only": {"user_name": "named", "request_id": "req-11"},
    "null-roles": {"roles": None, "request_id": "req-12"},
}

ORACLE_SOURCE = """
import json, sys
from oslo_config import cfg
cfg.CONF([], project="heat", default_config_files=[])
from oslo_messaging._drivers import amqp
from heat.common import context
from heat.common.messaging import RequestContextSerializer

request = json.loads(sys.argv[1])
admin = context.get_admin_context(show_deleted=True).to_dict()

def envelope(ctxt):
    message = {"method": "list_stacks", "args": {}, "version": "1.36", "_msg_id": "m-1"}
    amqp.pack_context(message, RequestContextSerializer.serialize_context(ctxt))
    return message

def received(message):
    unpacked = amqp.unpack_context(dict(message)).to_dict()
    return RequestContextSerializer.deserialize_context(unpacked).to_dict()

print(json.dumps({
    "built": {
        name: context.RequestContext(**kwargs).to_dict()
        for name, kwargs in request["contexts"].items()
    },
    "envelopes": {
        name: envelope(context.RequestContext(**kwargs))
        for name, kwargs in request["contexts"].items()
    },
    "legacy": {
        name: context.RequestContext.from_dict(values).to_dict()
        for name, values in request["legacy"].items()
    },
    "reread": {
        name: context.RequestContext.from_dict(values).to_dict()
        for name, values in request["ours"].items()
    },
    "received": {name: received(message) for name, message in request["our_envelopes"].items()},
    "admin": admin,
}))
"""


def our_envelope(context: RequestContext) -> dict[str, Any]:
    message: dict[str, Any] = {"method": "list_stacks", "args": {}, "version": "1.36"}
    message.update((f"_context_{key}", value) for key, value in context.to_dict().items())
    return message


def json_copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.fixture(scope="module")
def heat() -> dict[str, Any]:
    ours = {name: RequestContext(**kwargs) for name, kwargs in CONTEXTS.items()}
    request = {
        "contexts": CONTEXTS,
        "legacy": LEGACY_DICTIONARIES,
        "ours": {name: context.to_dict() for name, context in ours.items()},
        "our_envelopes": {name: our_envelope(context) for name, context in ours.items()},
    }
    return oracle.run_json(ORACLE_SOURCE, json.dumps(request))


@pytest.mark.parametrize("name", list(CONTEXTS))
def test_built_from_same_arguments_gives_heats_dict(heat: dict[str, Any], name: str) -> None:
    assert json_copy(RequestContext(**CONTEXTS[name]).to_dict()) == heat["built"][name]


@pytest.mark.parametrize("name", list(CONTEXTS))
def test_reads_heats_dict_back_to_the_same_dict(heat: dict[str, Any], name: str) -> None:
    context = RequestContext.from_dict(heat["built"][name])
    assert json_copy(context.to_dict()) == heat["built"][name]


@pytest.mark.parametrize("name", list(CONTEXTS))
def test_heat_reads_our_dict_back_to_the_same_dict(heat: dict[str, Any], name: str) -> None:
    ours = json_copy(RequestContext(**CONTEXTS[name]).to_dict())
    assert heat["reread"][name] == ours


@pytest.mark.parametrize("name", list(LEGACY_DICTIONARIES))
def test_reads_legacy_dicts_as_heat_does(heat: dict[str, Any], name: str) -> None:
    context = RequestContext.from_dict(LEGACY_DICTIONARIES[name])
    assert json_copy(context.to_dict()) == heat["legacy"][name]


@pytest.mark.parametrize("name", list(CONTEXTS))
def test_reads_heats_envelope(heat: dict[str, Any], name: str) -> None:
    context = from_envelope_context(heat["envelopes"][name])
    assert json_copy(context.to_dict()) == heat["built"][name]


@pytest.mark.parametrize("name", list(CONTEXTS))
def test_heat_reads_our_envelope(heat: dict[str, Any], name: str) -> None:
    assert heat["received"][name] == heat["built"][name]


def test_dict_has_exactly_heats_keys(heat: dict[str, Any]) -> None:
    assert set(RequestContext().to_dict()) == set(heat["admin"])


def test_admin_context_matches_heats_apart_from_request_id(heat: dict[str, Any]) -> None:
    ours = admin_context(show_deleted=True).to_dict()
    assert re.fullmatch(r"req-[0-9a-f-]{36}", ours.pop("request_id"))
    theirs = dict(heat["admin"])
    theirs.pop("request_id")
    assert ours == theirs


def test_each_context_gets_its_own_request_id() -> None:
    assert RequestContext().request_id != RequestContext().request_id


def test_envelope_keys_without_prefix_are_ignored() -> None:
    message = {"_context_user": "u-1", "user": "intruder", "_msg_id": "m", "args": {"a": 1}}
    context = from_envelope_context(message)
    assert (context.user_id, context.project_id) == ("u-1", None)


def test_redacted_drops_credentials_and_keeps_the_rest() -> None:
    context = RequestContext(**CONTEXTS["user-token"], password="pw", aws_creds="creds")
    redacted = context.redacted().to_dict()
    assert {key: redacted[key] for key in CREDENTIAL_FIELDS} == dict.fromkeys(CREDENTIAL_FIELDS)
    expected = {**context.to_dict(), **dict.fromkeys(CREDENTIAL_FIELDS)}
    assert redacted == expected
    assert context.auth_token == "gAAAAtoken"


def test_redacted_copy_does_not_share_roles() -> None:
    context = RequestContext(roles=["member"])
    context.redacted().roles.append("admin")
    assert context.roles == ["member"]


def test_tenant_aliases() -> None:
    context = RequestContext(project_id="p-1", project_name="demo")
    assert (context.tenant_id, context.tenant) == ("p-1", "demo")
