"""Template versions, functions, resource types and schemata against Heat's EngineService."""

from __future__ import annotations

import json
from typing import Any

import pytest

from keel_app.common import exception
from keel_app.common.context import RequestContext
from keel_app.engine.service import catalog, provider_template
from keel_app.engine.settings import EngineSettings
from tests import oracle

HEAT_ENGINE = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.common import context as heat_context
from heat.common import messaging
from heat.engine import resources, service

messaging.setup("fake://")
resources.initialise()
engine = service.EngineService("host", "engine")
TOKEN = {"token": {
    "catalog": [], "user": {"id": "u", "name": "u", "domain": {"id": "default"}},
    "project": {"id": "p", "name": "p", "domain": {"id": "default"}},
    "roles": [{"id": "r", "name": "admin"}], "methods": ["token"],
    "expires_at": "2099-01-01T00:00:00.000000Z", "issued_at": "2020-01-01T00:00:00.000000Z"}}
context = heat_context.RequestContext(
    auth_url="http://keystone.invalid/v3", auth_token="token", auth_token_info=TOKEN,
    is_admin=True, project_id="p", user_id="u")
request = json.loads(sys.argv[1])
answers = {"versions": engine.list_template_versions(context), "functions": {}, "schemata": {}}
for version in request["versions"]:
    for with_condition in (False, True):
        functions = engine.list_template_functions(context, version, with_condition)
        key = version + (" with conditions" if with_condition else "")
        answers["functions"][key] = [entry["functions"] for entry in functions]
for type_name in request["types"]:
    answers["schemata"][type_name] = engine.resource_schema(context, type_name, True)
def generated(type_name, kind):
    try:
        return engine.generate_template(context, type_name, kind)
    except Exception as error:
        return {"exception": type(error).__name__, "message": str(error)}
answers["generated"] = {
    type_name + " " + kind: generated(type_name, kind)
    for type_name in request["types"] for kind in ("cfn", "hot")}
answers["types"] = sorted(engine.list_resource_types(context, type_name="OS::Heat::(None|Value)"))
print(json.dumps(answers, default=str))
"""

TYPES = ["OS::Heat::None", "OS::Heat::Value", "OS::Heat::RandomString", "OS::Heat::TestResource"]
SETTINGS = EngineSettings()
CONTEXT = RequestContext(project_id="p", user_id="u", roles=["admin"], is_admin=True)


def _call(function: Any, **arguments: Any) -> Any:
    return function(CONTEXT, SETTINGS, None, None, **arguments)


@pytest.fixture(scope="module")
def heat_answers() -> dict[str, Any]:
    versions = [entry["version"] for entry in _call(catalog.list_template_versions)]
    request = {"versions": versions, "types": TYPES}
    return oracle.run_json(HEAT_ENGINE, json.dumps(request))


def test_template_versions_are_heats(heat_answers) -> None:
    assert _call(catalog.list_template_versions) == heat_answers["versions"]


def test_each_version_lists_heats_functions(heat_answers) -> None:
    ours = {}
    for entry in heat_answers["versions"]:
        version = entry["version"]
        for with_condition in (False, True):
            key = version + (" with conditions" if with_condition else "")
            functions = _call(
                catalog.list_template_functions,
                template_version=version,
                with_condition=with_condition,
            )
            ours[key] = [function["functions"] for function in functions]

    assert {key: sorted(names) for key, names in ours.items()} == {
        key: sorted(names) for key, names in heat_answers["functions"].items()
    }


def test_every_function_has_a_description() -> None:
    functions = _call(
        catalog.list_template_functions, template_version="heat_template_version.2021-04-16"
    )

    assert [entry for entry in functions if not entry["description"]] == []


def test_an_unknown_version_is_not_found() -> None:
    with pytest.raises(exception.NotFound, match="Template with version nope not found"):
        _call(catalog.list_template_functions, template_version="nope")


@pytest.mark.parametrize("type_name", TYPES)
def test_resource_schema_is_heats(heat_answers, type_name) -> None:
    ours = _call(catalog.resource_schema, type_name=type_name, with_description=True)

    heat = heat_answers["schemata"][type_name]
    assert {key: value for key, value in ours.items() if key != "description"} == {
        key: value for key, value in heat.items() if key != "description"
    }
    assert sorted(ours) == sorted(heat)


def test_resource_types_filtered_by_name_are_heats(heat_answers) -> None:
    ours = _call(catalog.list_resource_types, type_name="OS::Heat::(None|Value)")

    assert sorted(ours) == heat_answers["types"]


# Heat answers 500 (a KeyError) for a type with an ``Any`` property: no parameter type.
GENERATED_DIVERGENCES = {"OS::Heat::Value"}


@pytest.mark.parametrize("template_type", ["cfn", "hot"])
@pytest.mark.parametrize("type_name", sorted(set(TYPES) - GENERATED_DIVERGENCES))
def test_generated_template_is_heats(heat_answers, type_name, template_type) -> None:
    ours = _call(
        provider_template.generate_template, type_name=type_name, template_type=template_type
    )

    assert ours == heat_answers["generated"][f"{type_name} {template_type}"]


@pytest.mark.parametrize(("template_type", "json_type"), [("cfn", "Json"), ("hot", "json")])
def test_an_any_property_is_a_json_parameter_where_heat_fails(
    heat_answers, template_type, json_type
) -> None:
    ours = _call(
        provider_template.generate_template,
        type_name="OS::Heat::Value",
        template_type=template_type,
    )

    assert heat_answers["generated"][f"OS::Heat::Value {template_type}"]["exception"] == "KeyError"
    parameters = ours["parameters" if template_type == "hot" else "Parameters"]
    assert parameters["value"]["type" if template_type == "hot" else "Type"] == json_type


def test_generate_template_of_an_unknown_type() -> None:
    # Heat's lookup raises EntityNotFound, which its NotFound handler does not catch.
    with pytest.raises(exception.EntityNotFound) as raised:
        _call(provider_template.generate_template, type_name="No::Such")

    assert str(raised.value) == "The Resource Type (No::Such) could not be found."
