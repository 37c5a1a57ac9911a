"""The global environment's template types (AWS::CloudWatch::Alarm, AWS::RDS::DBInstance):
listed, shown and turned into templates as Heat 27.0.1 does with the files it installs in
/etc/heat, from the copies OpenKeel ships with its package."""

from __future__ import annotations

import json
from typing import Any

import pytest

from keel_app.common.context import RequestContext
from keel_app.engine.environment import PACKAGED_ENVIRONMENT_DIR
from keel_app.engine.service import catalog, provider_template
from keel_app.engine.settings import EngineSettings
from tests import oracle

TEMPLATE_TYPES = ["AWS::CloudWatch::Alarm", "AWS::RDS::DBInstance"]

# Heat with its shipped environment.d, the template URLs pointed at the oracle's copies
# (nothing is installed in /etc/heat on the test machine).
HEAT_ENGINE = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.common import config  # noqa: F401  (registers environment_dir)
cfg.CONF.set_override("environment_dir", sys.argv[1])
from heat.common import context as heat_context
from heat.common import messaging
from heat.engine import resources, service

messaging.setup("fake://")
resources.initialise()
engine = service.EngineService("host", "engine")
context = heat_context.RequestContext(is_admin=True, project_id="p", user_id="u")
listed = engine.list_resource_types(context, type_name="AWS::(CloudWatch|RDS)::.*")
answers = {"types": sorted(listed)}
for type_name in json.loads(sys.argv[2]):
    answers[type_name] = {
        "schema": engine.resource_schema(context, type_name, True),
        "cfn": engine.generate_template(context, type_name, "cfn"),
        "hot": engine.generate_template(context, type_name, "hot"),
    }
print(json.dumps(answers, default=str))
"""

CONTEXT = RequestContext(project_id="p", user_id="u", roles=["admin"], is_admin=True)


def _call(function: Any, **arguments: Any) -> Any:
    return function(CONTEXT, EngineSettings(), None, None, **arguments)


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    environment_dir = oracle.shipped_environment_dir(tmp_path_factory.mktemp("heat-env.d"))
    return oracle.run_json(HEAT_ENGINE, str(environment_dir), json.dumps(TEMPLATE_TYPES))


def test_the_shipped_mappings_are_heats() -> None:
    ours = (PACKAGED_ENVIRONMENT_DIR / "default.yaml").read_text()
    heats = (oracle.VENV / "etc" / "heat" / "environment.d" / "default.yaml").read_text()

    def mappings(text: str) -> list[str]:
        return sorted(line.strip() for line in text.splitlines() if line.strip().startswith('"'))

    assert mappings(ours) == mappings(heats)


def test_template_types_are_listed_as_heats(heat_answers: dict[str, Any]) -> None:
    ours = _call(catalog.list_resource_types, type_name="AWS::(CloudWatch|RDS)::.*")

    assert sorted(ours) == heat_answers["types"] == TEMPLATE_TYPES


@pytest.mark.parametrize("type_name", TEMPLATE_TYPES)
def test_template_type_schema_is_heats(heat_answers: dict[str, Any], type_name: str) -> None:
    ours = _call(catalog.resource_schema, type_name=type_name, with_description=True)

    assert ours == heat_answers[type_name]["schema"]


@pytest.mark.parametrize("template_type", ["cfn", "hot"])
@pytest.mark.parametrize("type_name", TEMPLATE_TYPES)
def test_template_type_generated_template_is_heats(
    heat_answers: dict[str, Any], type_name: str, template_type: str
) -> None:
    ours = _call(
        provider_template.generate_template, type_name=type_name, template_type=template_type
    )

    assert ours == heat_answers[type_name][template_type]
