"""list_template_functions against Heat 27.0.1's: a fresh Heat engine's answers.

Heat merges the condition functions into the template class's own function table when
asked for them (``with_condition_func``), so every later answer of that engine process
lists them (21 functions for 2018-08-31 become 25) and its templates resolve them
outside conditions too. OpenKeel answers as Heat does before that happens, each time
(docs/divergences.md)."""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.engine.service import catalog
from keel_app.engine.settings import EngineSettings
from tests import oracle

VERSION = "heat_template_version.2018-08-31"

HEAT_ENGINE = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from oslo_config import cfg
cfg.CONF([], project="heat")
from heat.common import context as heat_context
from heat.common import messaging
from heat.engine import resources, service, stack, template

messaging.setup("fake://")
resources.initialise()
engine = service.EngineService("host", "engine")
context = heat_context.RequestContext(is_admin=True, project_id="p", user_id="u")
body = {"heat_template_version": "2018-08-31", "outputs": {"o": {"value": {"equals": [1, 1]}}}}

def names(with_condition):
    listed = engine.list_template_functions(context, sys.argv[1], with_condition)
    return sorted(entry["functions"] for entry in listed)

def output():
    return stack.Stack(context, "s", template.Template(body)).outputs["o"].get_value()

answers = {"plain": names(False), "output": output(), "conditions": names(True)}
answers.update({"plain_after": names(False), "output_after": output()})
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def heat_answers() -> dict[str, Any]:
    return oracle.run_json(HEAT_ENGINE, VERSION)


def _names(with_condition: bool) -> list[str]:
    listed = catalog.list_template_functions(
        None, EngineSettings(), None, None, template_version=VERSION, with_condition=with_condition
    )
    return sorted(entry["functions"] for entry in listed)


def test_functions_are_a_fresh_heat_engines(heat_answers: dict[str, Any]) -> None:
    assert (len(heat_answers["plain"]), len(heat_answers["conditions"])) == (21, 25)
    assert _names(False) == heat_answers["plain"]
    assert _names(True) == heat_answers["conditions"]


def test_asking_for_condition_functions_changes_nothing_after(
    heat_answers: dict[str, Any],
) -> None:
    _names(True)

    assert _names(False) == heat_answers["plain"]
    # What Heat does instead: the listing grows, and a template means something else.
    assert heat_answers["plain_after"] == heat_answers["conditions"]
    assert (heat_answers["output"], heat_answers["output_after"]) == ({"equals": [1, 1]}, True)
