"""The catalog routes over a real engine: resource types and their schemata, templates
made from a type, template versions and functions, and template validation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from keel_app.engine.resource.service_catalog import CLIENT_SERVICE_TYPES
from keel_app.resources.cloud_types import STUB_TYPES
from keel_app.web import create_app
from tests.web.conftest import heat_conf
from tests.web.v1.conftest import HEADERS, v1

JSON_HEADERS = {**HEADERS, "Content-Type": "application/json"}
VALID = {
    "heat_template_version": "2018-08-31",
    "description": "two things",
    "parameters": {"size": {"type": "number", "default": 1}},
    "resources": {"thing": {"type": "OS::Heat::RandomString"}},
}


def test_resource_types_are_filtered_by_name_and_support_status(
    client: FlaskClient, engine_client: Any, caller: Any
) -> None:
    response = client.get(
        v1("resource_types?name=OS::Heat::Rand.*&support_status=SUPPORTED&version=2014.1"),
        headers=HEADERS,
    )

    assert response.status_code == 200
    assert response.get_json() == {"resource_types": ["OS::Heat::RandomString"]}
    assert response.get_json()["resource_types"] == engine_client.list_resource_types(
        caller, support_status="SUPPORTED", type_name="OS::Heat::Rand.*", heat_version="2014.1"
    )


def test_resource_types_come_with_descriptions_when_asked(client: FlaskClient) -> None:
    response = client.get(
        v1("resource_types?name=OS::Heat::None&with_description=true"), headers=HEADERS
    )

    assert response.status_code == 200
    (described,) = response.get_json()["resource_types"]
    assert described["resource_type"] == "OS::Heat::None"
    assert set(described) == {"resource_type", "description"}


def test_a_schema_ignores_with_description_as_heats_does(
    client: FlaskClient, engine_client: Any, caller: Any
) -> None:
    response = client.get(
        v1("resource_types/OS::Heat::RandomString?with_description=true"), headers=HEADERS
    )

    assert response.status_code == 200
    assert response.get_json() == engine_client.resource_schema(
        caller, "OS::Heat::RandomString", False
    )
    assert "description" not in response.get_json()


def test_an_unknown_resource_type_is_not_found(client: FlaskClient) -> None:
    response = client.get(v1("resource_types/OS::Nothing::Here"), headers=HEADERS)

    assert response.status_code == 404
    assert response.get_json()["error"]["type"] == "EntityNotFound"
    assert response.get_json()["error"]["message"] == (
        "The Resource Type (OS::Nothing::Here) could not be found."
    )


def test_a_template_is_generated_in_the_type_asked(
    client: FlaskClient, engine_client: Any, caller: Any
) -> None:
    response = client.get(
        v1("resource_types/OS::Heat::RandomString/template?template_type=HOT"), headers=HEADERS
    )

    assert response.status_code == 200
    assert response.get_json() == engine_client.generate_template(
        caller, "OS::Heat::RandomString", "hot"
    )
    assert response.get_json()["heat_template_version"] == "2016-10-14"


def test_a_template_is_cfn_by_default(client: FlaskClient) -> None:
    response = client.get(v1("resource_types/OS::Heat::RandomString/template"), headers=HEADERS)

    assert response.status_code == 200
    assert response.get_json()["HeatTemplateFormatVersion"] == "2012-12-12"


def test_template_versions_are_listed(client: FlaskClient, engine_client: Any, caller: Any) -> None:
    response = client.get(v1("template_versions"), headers=HEADERS)

    assert response.status_code == 200
    assert response.get_json() == {
        "template_versions": engine_client.list_template_versions(caller)
    }


def test_template_functions_include_condition_functions_when_asked(
    client: FlaskClient, engine_client: Any, caller: Any
) -> None:
    version = "heat_template_version.2016-10-14"

    plain = client.get(v1(f"template_versions/{version}/functions"), headers=HEADERS)
    with_conditions = client.get(
        v1(f"template_versions/{version}/functions?with_condition_func=True"), headers=HEADERS
    )

    assert plain.get_json() == {
        "template_functions": engine_client.list_template_functions(caller, version, False)
    }
    assert with_conditions.get_json() == {
        "template_functions": engine_client.list_template_functions(caller, version, True)
    }
    names = {function["functions"] for function in with_conditions.get_json()["template_functions"]}
    assert "equals" in names - {f["functions"] for f in plain.get_json()["template_functions"]}


def test_functions_of_an_unknown_version_are_not_found(client: FlaskClient) -> None:
    response = client.get(v1("template_versions/nothing.1/functions"), headers=HEADERS)

    assert response.status_code == 404
    assert response.get_json()["error"]["message"] == "Template with version nothing.1 not found"


def test_a_valid_template_is_described(
    client: FlaskClient, engine_client: Any, caller: Any
) -> None:
    response = client.post(
        v1("validate"), headers=JSON_HEADERS, data=json.dumps({"template": VALID})
    )

    assert response.status_code == 200
    expected = engine_client.validate_template(
        caller, VALID, {"parameters": {}, "resource_registry": {}}
    )
    assert response.get_json() == expected
    assert response.get_json()["Description"] == "two things"


def test_an_invalid_template_is_a_bad_request_with_the_engines_reason(
    client: FlaskClient,
) -> None:
    template = {**VALID, "resources": {"thing": {"type": "OS::Nothing::Here"}}}

    response = client.post(
        v1("validate"), headers=JSON_HEADERS, data=json.dumps({"template": template})
    )

    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "type": "HTTPBadRequest",
        "traceback": None,
        "message": "The Resource Type (OS::Nothing::Here) could not be found.",
    }


def test_validation_reads_parameters_and_ignores_the_errors_named(client: FlaskClient) -> None:
    template = {
        **VALID,
        "resources": {"server": {"type": "OS::Nova::Server", "properties": {"flavor": "m1"}}},
    }

    refused = client.post(
        v1("validate"), headers=JSON_HEADERS, data=json.dumps({"template": template})
    )
    ignored = client.post(
        v1("validate?ignore_errors=99001&show_nested=false"),
        headers=JSON_HEADERS,
        data=json.dumps({"template": template, "parameters": {"size": "3"}}),
    )

    assert refused.status_code == 400
    assert refused.get_json()["error"]["message"].startswith("HEAT-E99001 Service nova")
    assert ignored.status_code == 200
    assert ignored.get_json()["Parameters"]["size"]["Default"] == 1


def _full_catalog_token() -> dict[str, Any]:
    """A token whose catalog has an endpoint of every service a resource type may need."""
    service_types = sorted({kind for kinds in CLIENT_SERVICE_TYPES.values() for kind in kinds})
    catalog = [
        {
            "type": kind,
            "name": kind,
            "endpoints": [
                {"interface": "public", "region": "RegionOne", "url": "http://x.invalid"}
            ],
        }
        for kind in service_types
    ]
    return {"token": {"catalog": catalog, "roles": [{"name": "admin"}]}}


def test_every_listed_type_is_shown_and_made_a_template(tmp_path: Path, engine_client: Any) -> None:
    token = tmp_path / "token.json"
    token.write_text(json.dumps(_full_catalog_token()))
    conf = heat_conf(tmp_path, extra=f"[noauth]\ntoken_response = {token}\n")
    client = create_app(
        {"TESTING": True, "HEAT_CONF": conf, "ENGINE_CLIENT": engine_client}
    ).test_client()

    listed = client.get(v1("resource_types"), headers=HEADERS).get_json()["resource_types"]
    answers = {
        (type_name, suffix): client.get(v1(f"resource_types/{type_name}{suffix}"), headers=HEADERS)
        for type_name in listed
        for suffix in ("", "/template", "/template?template_type=hot")
    }

    assert {"AWS::CloudWatch::Alarm", "AWS::RDS::DBInstance", "OS::Heat::Value"} <= set(listed)
    # Every type with a life cycle; none known by name only, whatever the catalog.
    assert len(listed) >= 25
    assert not set(listed) & STUB_TYPES
    assert {
        key: answer.status_code for key, answer in answers.items() if answer.status_code != 200
    } == {}
