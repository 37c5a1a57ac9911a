"""The parameter corpus, answered by Heat 27.0.1 (one oracle run) and by OpenKeel: equal."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests import oracle
from tests.engine.template.parameters import keel_side
from tests.engine.template.parameters.corpus import load_cases

CASES = load_cases()
HEAT_SIDE = Path(__file__).with_name("heat_side.py")


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    cases_path = tmp_path_factory.mktemp("parameters-corpus") / "cases.json"
    cases_path.write_text(json.dumps(CASES))
    answers = oracle.run_json(HEAT_SIDE.read_text(), str(cases_path))
    return {case["id"]: answer for case, answer in zip(CASES, answers, strict=True)}


def test_corpus_has_at_least_a_hundred_cases_with_unique_ids() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) >= 100
    assert len(set(ids)) == len(ids)
    assert {case["expect"] for case in CASES} == {"from-heat"}


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case_answers_as_heat_does(case: dict[str, Any], heat_answers: dict[str, Any]) -> None:
    ours = keel_side.answer(copy.deepcopy(case))
    # Through JSON, as Heat's answer came: tuples become lists, keys become text.
    assert json.loads(json.dumps(ours)) == heat_answers[case["id"]]
