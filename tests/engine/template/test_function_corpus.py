"""Every function corpus case answers as Heat 27.0.1 answers it (value, or error and message).

All cases go to the oracle in one subprocess; each case is then one test.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests import oracle
from tests.engine.template.corpus_cases import load_cases
from tests.engine.template.function_evaluator import answer_for

CASES = load_cases("functions")
HEAT_EVALUATOR = Path(__file__).with_name("heat_function_evaluator.py")


@pytest.fixture(scope="module")
def heat_answers() -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".json") as cases_file:
        json.dump(CASES, cases_file)
        cases_file.flush()
        answers = oracle.run_json(HEAT_EVALUATOR.read_text(), cases_file.name)
    return {case["id"]: answer for case, answer in zip(CASES, answers, strict=True)}


def test_corpus_covers_at_least_200_function_cases() -> None:
    assert len(CASES) >= 200


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_function_case_answers_as_heat(case: dict[str, Any], heat_answers: dict[str, Any]) -> None:
    assert answer_for(case) == heat_answers[case["id"]]
