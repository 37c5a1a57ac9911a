"""The environment corpus: every case run through Heat 27.0.1 and through OpenKeel.

A case (tests/engine/template/corpus/environments/*.yaml, one list of cases a file):

    id: unique name
    environment: text (parsed as a user's environment file) or mapping (validated only)
    direct: true to hand the mapping straight to Environment (nested stacks' path)
    parameters: values given with -P (added to the environment's parameters)
    environment_files: names, merged in order from `files`
    files: name -> content
    template: text or mapping (its parameter schemata drive the merges)
    probes: ordered steps on the built environment, each one of
        lookup: [type, resource name?]      instantiate: [type, resource name?]
        hook: [resource name, hook]         restricted: resource name
        types: {filters}                    global_types: {filters}
        child: {params, resource_name}      sinks: true
    expect: from-heat

Heat's answers come from one oracle subprocess for the whole corpus.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from keel_app.engine.environment import PACKAGED_ENVIRONMENT_DIR
from tests import oracle
from tests.engine.environment import keel_side

CORPUS_DIR = Path(__file__).parents[1] / "template" / "corpus" / "environments"
HEAT_SIDE = Path(__file__).with_name("heat_side.py")


def load_cases() -> list[dict[str, Any]]:
    cases = []
    for path in sorted(CORPUS_DIR.glob("*.yaml")):
        cases.extend(yaml.safe_load(path.read_text()))
    return cases


CASES = load_cases()


def template_with_files(template: Any, files: dict[str, Any]) -> Any:
    from keel_app.engine.template import Template
    from keel_app.engine.template.format import parse

    data = template if isinstance(template, dict) else parse(template)
    return Template(data, files=files)


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    request = {"environment_dir": str(PACKAGED_ENVIRONMENT_DIR), "cases": CASES}
    request_path = tmp_path_factory.mktemp("environment-corpus") / "request.json"
    request_path.write_text(json.dumps(request))
    return json.loads(oracle.run(HEAT_SIDE.read_text(), str(request_path)))


def test_corpus_is_large_and_ids_are_unique() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) >= 60
    assert len(ids) == len(set(ids))
    assert all(case.get("expect") == "from-heat" for case in CASES)


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case_answers_like_heat(case: dict[str, Any], heat_answers: dict[str, Any]) -> None:
    index = CASES.index(case)
    plugins = keel_side.plugin_classes(heat_answers["plugins"])
    ours = keel_side.answer(case, plugins, PACKAGED_ENVIRONMENT_DIR, template_with_files)
    assert ours == heat_answers["answers"][index]
