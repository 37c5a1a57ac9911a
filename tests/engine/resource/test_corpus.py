"""The resources corpus: resource definitions validated by Heat 27.0.1 and by OpenKeel.

A case (tests/engine/template/corpus/resources/*.yaml, one list of cases a file)::

    id: unique name
    template: text or mapping (every resource in it is built and checked)
    parameters, environment, files: as for any corpus case
    catalog: service types in the caller's Keystone catalog (default: identity and
        orchestration); region / endpoint_region: the context's region and the
        endpoints' region
    strict: the stack's strict_validate (default true)
    resource_data: true to hand every resource's node data to the stack definition
        first, as Stack.validate does
    calls: steps run on each resource, in order (default [validate_template]); one of
        validate_template, validate, properties (every value read), update_policy,
        update_allowed, attributes
    expect: from-heat

The answer of a case is, per resource (sorted by name) and step, the step's value or
the exception class and message; or the error that stopped the resources being built.
Beside the cases, the ``resource_schema`` RPC answer of every type that needs no cloud
service is compared, with and without descriptions, and for the error paths.
Heat's answers come from one oracle subprocess for the whole corpus.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from keel_app.engine.resource.base import NO_LIFE_CYCLE
from keel_app.engine.resource.service_catalog import CLIENT_SERVICE_TYPES
from keel_app.resources.cloud_types import CLOUD_TYPES, STUB_TYPES, CloudResourceStub
from tests import oracle
from tests.engine.resource import keel_side
from tests.engine.template.corpus_cases import load_cases

HEAT_SIDE = Path(__file__).with_name("heat_side.py")

NO_CLOUD_TYPES = (
    "AWS::CloudFormation::Stack",
    "AWS::CloudFormation::WaitCondition",
    "AWS::CloudFormation::WaitConditionHandle",
    "OS::Heat::AccessPolicy",
    "OS::Heat::CloudConfig",
    "OS::Heat::Delay",
    "OS::Heat::MultipartMime",
    "OS::Heat::None",
    "OS::Heat::RandomString",
    "OS::Heat::ResourceChain",
    "OS::Heat::ResourceGroup",
    "OS::Heat::SoftwareComponent",
    "OS::Heat::SoftwareConfig",
    "OS::Heat::Stack",
    "OS::Heat::StructuredConfig",
    "OS::Heat::TestResource",
    "OS::Heat::UpdateWaitConditionHandle",
    "OS::Heat::Value",
    "OS::Heat::WaitCondition",
    "OS::Heat::WaitConditionHandle",
)


def _with_default_catalog(case: dict[str, Any]) -> dict[str, Any]:
    return {"catalog": keel_side.DEFAULT_CATALOG, **case}


CASES = [_with_default_catalog(case) for case in load_cases("resources")]


def _schema_requests() -> list[dict[str, Any]]:
    requests = [
        {"type": type_name, "with_description": with_description}
        for type_name in NO_CLOUD_TYPES
        for with_description in (False, True)
    ]
    requests += [
        {"type": "OS::Heat::SoftwareConfig", "with_description": False, "catalog": ["identity"]},
        {"type": "OS::Heat::Stack", "with_description": False, "catalog": ["cloudformation"]},
        {"type": "OS::Nova::Server", "with_description": False},
        # Every cloud type with a life cycle, with its service in the catalog (and, for a
        # type that needs a service extension, a service that lists every extension).
        *(
            {
                "type": type_name,
                "with_description": with_description,
                "catalog": list(CLIENT_SERVICE_TYPES[CLOUD_TYPES[type_name].client or "heat"]),
                "extensions": CLOUD_TYPES[type_name].extension is not None,
            }
            for type_name in sorted(set(CLOUD_TYPES) - STUB_TYPES)
            for with_description in (False, True)
        ),
        {"type": "OS::Cinder::Volume", "with_description": False, "catalog": ["volumev2"]},
        {"type": "OS::Neutron::LBaaS::Pool", "with_description": False},
        {"type": "OS::Heat::HARestarter", "with_description": True},
        {"type": "OS::Heat::NoSuchType", "with_description": False},
    ]
    return [_with_default_catalog(request) for request in requests]


SCHEMA_REQUESTS = _schema_requests()


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    request = {"cases": CASES, "schemas": SCHEMA_REQUESTS}
    request_path = tmp_path_factory.mktemp("resources-corpus") / "request.json"
    request_path.write_text(json.dumps(request))
    return json.loads(oracle.run(HEAT_SIDE.read_text(), str(request_path)))


def test_corpus_is_large_and_ids_are_unique() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) >= 120
    assert len(ids) == len(set(ids))
    assert all(case.get("expect") == "from-heat" for case in CASES)


def _without_life_cycle(case: dict[str, Any], heat_answer: Any) -> Any:
    """Heat's answer, but for a type OpenKeel knows by name only (docs/divergences.md):
    where Heat goes on validating one, OpenKeel refuses it as unavailable."""
    if "construct" in heat_answer:
        return heat_answer
    resources = keel_side.build_stack(case).resources
    expected = {}
    for name, steps in heat_answer.items():
        resource = resources[name]
        refused_by_heat = steps.get("validate_template", {}).get("error") == (
            "ResourceTypeUnavailable"
        )
        if not isinstance(resource, CloudResourceStub) or refused_by_heat:
            expected[name] = steps
            continue
        refusal = resource.unavailable(resource.t.resource_type, NO_LIFE_CYCLE)
        expected[name] = {
            step: {"error": "ResourceTypeUnavailable", "message": str(refusal)}
            if step == "validate_template"
            else answer
            for step, answer in steps.items()
        }
    return expected


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case_answers_like_heat(case: dict[str, Any], heat_answers: dict[str, Any]) -> None:
    heat_answer = heat_answers["answers"][CASES.index(case)]
    assert keel_side.answer(case) == _without_life_cycle(case, heat_answer)


@pytest.mark.oracle
@pytest.mark.parametrize(
    "request_index",
    range(len(SCHEMA_REQUESTS)),
    ids=[
        f"{item['type']}{'+description' if item['with_description'] else ''}"
        f"{'@' + ','.join(item['catalog']) if item['catalog'] != keel_side.DEFAULT_CATALOG else ''}"
        for item in SCHEMA_REQUESTS
    ],
)
def test_resource_schema_answers_like_heat(
    request_index: int, heat_answers: dict[str, Any]
) -> None:
    ours = keel_side.schema_answer(SCHEMA_REQUESTS[request_index])
    assert ours == heat_answers["schemas"][request_index]
