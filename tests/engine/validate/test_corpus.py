"""The validate corpus: every template answers as Heat 27.0.1's validate_template answers it.

Heat's answers come from one oracle subprocess for the whole corpus (heat_side.py);
ours from keel_side.py. See corpus.py for the case format.
"""

from __future__ import annotations

from typing import Any

import pytest

from keel_app.engine.environment import PACKAGED_ENVIRONMENT_DIR
from tests.engine.validate import keel_side
from tests.engine.validate.corpus import CORPUS, load_cases
from tests.engine.validate.heat_runner import run_heat_side

CASES = load_cases()


@pytest.fixture(scope="module")
def heat_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    request = {"environment_dir": str(PACKAGED_ENVIRONMENT_DIR), "cases": CASES}
    answers = run_heat_side(request, tmp_path_factory.mktemp("validate-corpus"))["answers"]
    return {case["id"]: answer for case, answer in zip(CASES, answers, strict=True)}


def test_corpus_has_at_least_300_templates_in_every_area() -> None:
    assert len(CASES) >= 300
    areas = {path.stem for path in CORPUS.glob("*.yaml")}
    assert {"functions_hot", "functions_cfn", "parameters", "conditions", "environments"} <= areas
    assert {"nested", "outputs", "resources", "sections"} <= areas
    assert all(case["expect"] == "from-heat" for case in CASES)


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case_answers_like_heat(case: dict[str, Any], heat_answers: dict[str, Any]) -> None:
    ours = keel_side.answer_for(case)
    assert keel_side.comparable(ours) == keel_side.comparable(heat_answers[case["id"]])
