"""list_resource_types against Heat 27.0.1's: the same names for the same caller, catalog
and filters. A type is listed when the caller's catalog has its service and the resource
type policy (``resource_types:OS::Keystone::*`` and the others, admins only) lets the
caller use it; resource_schema and generate_template refuse the latter with Heat's
Forbidden."""

from __future__ import annotations

import json
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.common.context import RequestContext
from keel_app.engine.service import catalog, provider_template
from keel_app.engine.settings import EngineSettings
from keel_app.resources.cloud_types import STUB_TYPES
from keel_app.web import policy
from tests import oracle
from tests.web.conftest import heat_conf

# Heat with its shipped environment.d (template URLs pointed at the oracle's copies).
HEAT_ENGINE = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.common import config  # noqa: F401  (registers environment_dir)
cfg.CONF.set_override("environment_dir", sys.argv[1])
from heat.common import context as heat_context
from heat.common import exception
from heat.common import messaging
from heat.engine import resources, service

messaging.setup("fake://")
resources.initialise()
engine = service.EngineService("host", "engine")
answers = []
for case in json.loads(sys.argv[2]):
    token = {"token": {"catalog": case["catalog"], "roles": [{"name": r} for r in case["roles"]]}}
    context = heat_context.RequestContext(
        auth_url="http://keystone.invalid/v3", auth_token="token", auth_token_info=token,
        roles=case["roles"], project_id="p", user_id="u")
    if "list" in case:
        listed = engine.list_resource_types(context, **case["list"])
        answers.append(sorted(item if isinstance(item, str) else item["resource_type"]
                              for item in listed))
        continue
    try:
        if case["call"] == "resource_schema":
            engine.resource_schema(context, case["type"])
        else:
            engine.generate_template(context, case["type"], "cfn")
        answers.append(None)
    except exception.HeatException as error:
        answers.append([type(error).__name__, str(error)])
print(json.dumps(answers))
"""


def _service(service_type: str) -> dict[str, Any]:
    endpoint = {
        "interface": "public",
        "region": "RegionOne",
        "url": f"http://127.0.0.1:9/{service_type}",
    }
    return {"type": service_type, "name": service_type, "endpoints": [endpoint]}


HEAT_ITSELF = [_service("orchestration"), _service("cloudformation")]
CATALOGS = {
    # What the tests' Keystone lists; the all-in-one's embedded catalog; nothing.
    "keystone": [_service("identity"), *HEAT_ITSELF],
    "embedded": HEAT_ITSELF,
    # (Heat asks Keystone for a catalog when the token's is empty.)
    "none": [{"type": "none", "name": "none", "endpoints": []}],
    # A cloud's, less the services whose types Heat also asks for extensions (it would
    # call them).
    "cloud": [_service(kind) for kind in ("identity", "compute", "image")] + HEAT_ITSELF,
}
ROLES = {"member": ["member", "heat_stack_owner"], "admin": ["admin", "member"]}
FILTERS = {
    "all": {},
    "version": {"heat_version": "5.0.0"},
    "deprecated": {"support_status": "DEPRECATED"},
    "name": {"type_name": "OS::(Keystone|Nova)::.*"},
    "described": {"with_description": True},
}
LIST_CASES = [
    (catalog_name, role_name, filter_name)
    for catalog_name in CATALOGS
    for role_name in ROLES
    for filter_name in FILTERS
]
REFUSED_CASES = [
    (call, type_name)
    for call in ("resource_schema", "generate_template")
    for type_name in ("OS::Keystone::User", "OS::Nova::Flavor")
]


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> EngineSettings:
    conf = heat_conf(tmp_path_factory.mktemp("heat-conf"))
    return EngineSettings(resource_type_policy=policy.resource_type_refusal(conf))


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[Any, Any]:
    environment_dir = oracle.shipped_environment_dir(tmp_path_factory.mktemp("heat-env.d"))
    requests = [
        {"catalog": CATALOGS[c], "roles": ROLES[r], "list": FILTERS[f]} for c, r, f in LIST_CASES
    ] + [
        {"catalog": CATALOGS["cloud"], "roles": ROLES["member"], "call": call, "type": type_name}
        for call, type_name in REFUSED_CASES
    ]
    answers = oracle.run_json(HEAT_ENGINE, str(environment_dir), json.dumps(requests))
    return dict(zip(LIST_CASES + REFUSED_CASES, answers, strict=True))


def _context(catalog_name: str, role_name: str) -> RequestContext:
    roles = ROLES[role_name]
    token = {"token": {"catalog": CATALOGS[catalog_name], "roles": [{"name": r} for r in roles]}}
    return RequestContext(project_id="p", user_id="u", roles=roles, auth_token_info=token)


@pytest.mark.parametrize(("catalog_name", "role_name", "filter_name"), LIST_CASES)
def test_resource_types_are_heats(
    heat_answers: dict[Any, Any],
    settings: EngineSettings,
    catalog_name: str,
    role_name: str,
    filter_name: str,
) -> None:
    listed = catalog.list_resource_types(
        _context(catalog_name, role_name), settings, None, None, **FILTERS[filter_name]
    )

    names = sorted(item if isinstance(item, str) else item["resource_type"] for item in listed)
    # Less the types OpenKeel knows by name only: never listed (docs/divergences.md).
    heats = heat_answers[(catalog_name, role_name, filter_name)]
    assert names == [name for name in heats if name not in STUB_TYPES]


def test_the_issues_figures(heat_answers: dict[Any, Any]) -> None:
    # Without the shipped environment.d, Heat listed 36 and 4 for a member with the tests'
    # Keystone catalog; with it, the two global template types come on top of the 36.
    assert len(heat_answers[("keystone", "member", "all")]) == 38
    assert len(heat_answers[("keystone", "member", "version")]) == 4


@pytest.mark.parametrize(("call", "type_name"), REFUSED_CASES)
def test_a_type_the_policy_refuses_is_forbidden_as_in_heat(
    heat_answers: dict[Any, Any], settings: EngineSettings, call: str, type_name: str
) -> None:
    function = (
        catalog.resource_schema
        if call == "resource_schema"
        else provider_template.generate_template
    )
    with pytest.raises(exception.Forbidden) as raised:
        function(_context("cloud", "member"), settings, None, None, type_name=type_name)

    assert [type(raised.value).__name__, str(raised.value)] == heat_answers[(call, type_name)]


def test_without_a_policy_a_member_lists_what_an_admin_lists() -> None:
    def listed(role_name: str) -> list[Any]:
        return catalog.list_resource_types(
            _context("cloud", role_name), EngineSettings(), None, None
        )

    assert listed("member") == listed("admin")


def test_a_type_known_by_name_only_is_never_listed(settings: EngineSettings) -> None:
    listed = catalog.list_resource_types(
        _context("cloud", "admin"), settings, None, None, type_name="OS::(Octavia|Aodh)::"
    )

    assert listed == []
