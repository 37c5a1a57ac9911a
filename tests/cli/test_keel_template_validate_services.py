"""``keel template validate`` answers as Heat's API of a cloud with every service, and
``--services`` answers as one whose catalog lists only the types given (Heat's
validate_template with the same catalog in the oracle)."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from keel_app.cli import offline_cloud
from keel_app.cli.keel import main
from keel_app.engine.resource.base import NO_LIFE_CYCLE
from keel_app.resources.cloud_types import STUB_CLASSES, class_name
from tests import oracle

KEEL = Path(sys.executable).with_name("keel")

# The types the issue found refused offline, and one of each kind of cloud service.
TYPES = {
    "OS::Heat::Stack": "template: {heat_template_version: 2018-08-31}",
    "OS::Heat::SoftwareConfig": "config: echo hi",
    "OS::Heat::MultipartMime": "parts: [{config: echo hi}]",
    "OS::Nova::Server": "image: cirros\n      flavor: {get_param: flavor}",
    "OS::Cinder::Volume": "size: 1",
}
TEMPLATE = """\
heat_template_version: 2018-08-31
description: one resource
parameters:
  flavor: {{type: string, default: m1.small}}
resources:
  thing:
    type: {type_name}
    properties:
      {properties}
"""

# Heat's validate_template of each template with one catalog (Heat keeps what it found
# of a catalog for the process: one process a catalog).
HEAT_API = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.api.openstack.v1 import stacks as stacks_api
from heat.common import context as heat_context
from heat.common import messaging, template_format
from heat.engine import resources, service

messaging.setup("fake://")
resources.initialise()
engine = service.EngineService("host", "engine")
texts, service_types = json.loads(sys.argv[1]), json.loads(sys.argv[2])
catalog = [
    {"type": kind, "name": kind, "endpoints": [
        {"interface": "public", "region": "RegionOne", "url": "http://127.0.0.1:9/" + kind}]}
    for kind in service_types
] or [{"type": "none", "name": "none", "endpoints": []}]
context = heat_context.RequestContext(
    auth_url="http://keystone.invalid/v3", auth_token="token",
    auth_token_info={"token": {"catalog": catalog}}, project_id="p", user_id="u")
answers = []
for text in texts:
    data = stacks_api.InstantiationData({"template": template_format.parse(text)})
    try:
        result = engine.validate_template(
            context, data.template(), data.environment(), files=data.files())
        answers.append({"result": json.loads(json.dumps(result))})
    except Exception as error:
        original = error.exc_info[1] if hasattr(error, "exc_info") else error
        answers.append({"error": type(original).__name__, "message": str(original)})
print(json.dumps(answers))
"""

CATALOGS = {
    "every service": None,
    "heat only": "orchestration,cloudformation",
    "compute": "compute",
    "no service": "",
}
CASES = [(type_name, catalog) for catalog in CATALOGS for type_name in TYPES]


def _template(type_name: str) -> str:
    return TEMPLATE.format(type_name=type_name, properties=TYPES[type_name])


@pytest.fixture(scope="module")
def heat_answers() -> dict[tuple[str, str], Any]:
    texts = [_template(type_name) for type_name in TYPES]
    answers = {}
    for catalog, services in CATALOGS.items():
        kinds = offline_cloud.SERVICE_TYPES if services is None else services.split(",")
        found = oracle.run_json(
            HEAT_API, json.dumps(texts), json.dumps([kind for kind in kinds if kind])
        )
        for type_name, answer in zip(TYPES, found, strict=True):
            answers[(type_name, catalog)] = answer
    return answers


def _validate(directory: Path, type_name: str, *options: str) -> dict[str, Any]:
    """The command's answer in Heat's terms: the document, or the error's type and text."""
    template = directory / "template.yaml"
    template.write_text(_template(type_name))
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(["template", "validate", str(template), *options])
    if status == 0:
        return {"result": json.loads(stdout.getvalue())}
    kind, _, message = stderr.getvalue().strip().removeprefix("ERROR: ").partition(": ")
    return {"error": kind, "message": message}


@pytest.mark.parametrize(("type_name", "catalog"), CASES)
def test_the_answer_is_that_of_heat_with_the_same_catalog(
    heat_answers: dict[tuple[str, str], Any], tmp_path: Path, type_name: str, catalog: str
) -> None:
    services = CATALOGS[catalog]
    options = () if services is None else ("--services", services)

    assert _validate(tmp_path, type_name, *options) == _without_life_cycle(
        type_name, heat_answers[(type_name, catalog)]
    )


def _without_life_cycle(type_name: str, heat_answer: dict[str, Any]) -> dict[str, Any]:
    """Heat's answer, but for a type OpenKeel knows by name only (docs/divergences.md),
    which is unavailable where Heat would validate it."""
    stub = STUB_CLASSES.get(class_name(type_name))
    if stub is None or "error" in heat_answer:
        return heat_answer
    refusal = stub.unavailable(type_name, NO_LIFE_CYCLE)
    return {"error": "ResourceTypeUnavailable", "message": str(refusal)}


@pytest.mark.parametrize("type_name", ["OS::Heat::Stack", "OS::Heat::MultipartMime"])
def test_heats_own_types_validate_unless_left_out(tmp_path: Path, type_name: str) -> None:
    assert "result" in _validate(tmp_path, type_name)
    assert _validate(tmp_path, type_name, "--services", "compute")["error"] == (
        "ResourceTypeUnavailable"
    )


def test_a_service_extension_is_not_what_refuses_a_type(tmp_path: Path) -> None:
    template = tmp_path / "tap.yaml"
    template.write_text(
        "heat_template_version: 2018-08-31\n"
        "resources:\n  r: {type: OS::Neutron::TaaS::TapService}\n"
    )

    everything = subprocess.run(
        [str(KEEL), "template", "validate", str(template)], capture_output=True, text=True
    )
    no_network = subprocess.run(
        [str(KEEL), "template", "validate", str(template), "--services", "compute"],
        capture_output=True,
        text=True,
    )

    # Offline every service has every extension: the tap service is refused for having no
    # life cycle in OpenKeel, never for its extension.
    assert everything.stderr == (
        "ERROR: ResourceTypeUnavailable: HEAT-E99001 Service neutron is not available for "
        "resource type OS::Neutron::TaaS::TapService, reason: OpenKeel has no life cycle for this "
        "resource type yet.\n"
    )
    assert no_network.stderr == (
        "ERROR: ResourceTypeUnavailable: HEAT-E99001 Service neutron is not available for "
        "resource type OS::Neutron::TaaS::TapService, reason: neutron network endpoint is not in "
        "service catalog.\n"
    )


def test_an_unknown_service_type_is_a_usage_error(tmp_path: Path) -> None:
    template = tmp_path / "template.yaml"
    template.write_text(_template("OS::Nova::Server"))
    completed = subprocess.run(
        [str(KEEL), "template", "validate", str(template), "--services", "compute,computer"],
        capture_output=True,
        text=True,
    )

    assert completed.returncode == 2
    assert "argument --services: unknown service type(s) computer; known: alarming," in (
        completed.stderr
    )


def test_help_describes_services() -> None:
    completed = subprocess.run(
        [str(KEEL), "template", "validate", "--help"], capture_output=True, text=True
    )

    assert "--services TYPES" in completed.stdout
    assert "--services orchestration,compute" in completed.stdout
