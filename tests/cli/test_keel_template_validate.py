"""``keel template validate`` on the validate corpus: in-process on all, as a command on a slice.

Each case is written to a directory (template, files, environment) and validated by
our command; Heat's answer for the same directory comes from python-heatclient's
template_utils and Heat's validate_template in the oracle (one subprocess). A valid
template prints Heat's document; an invalid one prints ``ERROR: <type>: <message>``
on standard error with Heat's message, and exits with 1.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml

from keel_app.cli.keel import main
from keel_app.engine.environment import PACKAGED_ENVIRONMENT_DIR
from tests.engine.validate import keel_side
from tests.engine.validate.corpus import load_cases
from tests.engine.validate.heat_runner import run_heat_side
from tests.web import heat_api

KEEL = Path(sys.executable).with_name("keel")
LIMIT_OPTIONS = {
    "max_template_size": "--max-template-size",
    "max_resources_per_stack": "--max-resources-per-stack",
    "max_nested_stack_depth": "--max-nested-stack-depth",
}


# Where python-heatclient itself fails, keel does not copy the failure (tested below).
CLIENT_DIVERGENCES = {"environment-registry-removes-type"}


def _in_slice(case: dict[str, Any], index: int) -> bool:
    """Cases with files to gather, every third one with an environment or limits, and
    a few others: the command's own work is reading files; the rest is the engine's."""
    if case["id"] in CLIENT_DIVERGENCES:
        return False
    if "@" in case["id"]:
        return index % 100 == 0
    if "files" in case:
        return True
    if any(key in case for key in ("environment", "limits")):
        return index % 3 == 0
    return index % 12 == 0


CASES = [case for index, case in enumerate(load_cases()) if _in_slice(case, index)]


def write_case(case: dict[str, Any], directory: Path) -> dict[str, Any]:
    """The case as files on disk, and the command's options for them."""
    directory.mkdir(parents=True)
    for name, content in (case.get("files") or {}).items():
        (directory / name).write_text(content)
    template = case["template"]
    template_path = directory / "template.yaml"
    template_path.write_text(template if isinstance(template, str) else json.dumps(template))
    environment_paths = []
    if "environment" in case:
        environment = case["environment"]
        path = directory / "environment.yaml"
        text = environment if isinstance(environment, str) else yaml.safe_dump(environment)
        path.write_text(text)
        environment_paths.append(str(path))
    environment_paths += [str(directory / name) for name in case.get("environment_files", [])]
    parameters = [f"{key}={value}" for key, value in (case.get("parameters") or {}).items()]
    codes = case.get("ignorable_errors")
    return {
        "template_path": str(template_path),
        "environment_paths": environment_paths,
        "parameters": parameters,
        "show_nested": case.get("show_nested", False),
        "ignore_errors": ",".join(codes) if codes else None,
        "limits": case.get("limits"),
    }


def command_for(cli_case: dict[str, Any]) -> list[str]:
    # Heat's side validates with a catalog that lists no service.
    command = [str(KEEL), "template", "validate", cli_case["template_path"], "--services", ""]
    for path in cli_case["environment_paths"]:
        command += ["-e", path]
    for parameter in cli_case["parameters"]:
        command += ["-P", parameter]
    if cli_case["show_nested"]:
        command.append("--show-nested")
    if cli_case["ignore_errors"] is not None:
        command += ["--ignore-errors", cli_case["ignore_errors"]]
    for name, value in (cli_case["limits"] or {}).items():
        command += [LIMIT_OPTIONS[name], str(value)]
    return command


def expected_output(heat: dict[str, Any]) -> tuple[int, Any]:
    """What our command must print for Heat's answer: (exit status, document or error)."""
    if "result" in heat and "Error" not in heat["result"]:
        return 0, heat["result"]
    if "result" in heat:
        answer = keel_side.comparable({"exception": "*", "message": heat["result"]["Error"]})
        return 1, ("*", answer["message"])
    if "bad_request" in heat:
        return 1, ("HTTPBadRequest", heat["bad_request"])
    if "client_error" in heat:
        kind = heat["client_error"]
        return 1, ("CommandError" if kind == "CommandError" else kind, heat["message"])
    answer = keel_side.comparable(heat)
    return 1, (answer["exception"], answer["message"])


def actual_output(completed: subprocess.CompletedProcess[str], heat: dict[str, Any]) -> Any:
    if completed.returncode == 0:
        return 0, json.loads(completed.stdout)
    line = completed.stderr.strip()
    assert line.startswith("ERROR: "), completed.stderr
    kind, _, message = line[len("ERROR: ") :].partition(": ")
    if "result" in heat:
        # Heat's {"Error": ...} carries no type; the command names the one it had.
        kind = "*"
    # Put what Heat leaves to chance (set orders) in order, as for Heat's answer.
    message = keel_side.comparable({"exception": kind, "message": message})["message"]
    return 1, (kind, message)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("keel-template-validate")
    cli_cases = {case["id"]: write_case(case, root / case["id"]) for case in CASES}
    request = {
        "environment_dir": str(PACKAGED_ENVIRONMENT_DIR),
        "cli_cases": list(cli_cases.values()),
    }
    heat_answers = run_heat_side(request, root)["cli_answers"]

    def run(cli_case: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command_for(cli_case), capture_output=True, text=True, timeout=120)

    with ThreadPoolExecutor(max_workers=8) as pool:
        completed = list(pool.map(run, cli_cases.values()))
    return {
        case_id: (heat, done)
        for case_id, heat, done in zip(cli_cases, heat_answers, completed, strict=True)
    }


ALL_CASES = [case for case in load_cases() if case["id"] not in CLIENT_DIVERGENCES]


def _run_in_process(cli_case: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """The command's main() on the same argument list, its output captured."""
    arguments = command_for(cli_case)[1:]
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(arguments)
    return subprocess.CompletedProcess(arguments, status, stdout.getvalue(), stderr.getvalue())


@pytest.fixture(scope="module")
def in_process_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("keel-template-validate-all")
    cli_cases = {case["id"]: write_case(case, root / case["id"]) for case in ALL_CASES}
    request = {
        "environment_dir": str(PACKAGED_ENVIRONMENT_DIR),
        "cli_cases": list(cli_cases.values()),
    }
    heat_answers = run_heat_side(request, root)["cli_answers"]
    return {
        case_id: (heat, _run_in_process(cli_case))
        for (case_id, cli_case), heat in zip(cli_cases.items(), heat_answers, strict=True)
    }


@pytest.mark.oracle
@pytest.mark.parametrize("case", ALL_CASES, ids=[case["id"] for case in ALL_CASES])
def test_command_answers_like_heat_on_the_whole_corpus(
    case: dict[str, Any], in_process_runs: dict[str, Any]
) -> None:
    heat, completed = in_process_runs[case["id"]]
    assert actual_output(completed, heat) == expected_output(heat)


def test_the_slice_is_a_real_sample() -> None:
    assert len(CASES) >= 50
    assert any("files" in case for case in CASES)
    assert any("environment_files" in case for case in CASES)


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_command_answers_like_heat(case: dict[str, Any], runs: dict[str, Any]) -> None:
    heat, completed = runs[case["id"]]
    assert actual_output(completed, heat) == expected_output(heat)


def test_a_valid_template_prints_sorted_indented_json(tmp_path: Path) -> None:
    template = tmp_path / "t.yaml"
    template.write_text("heat_template_version: 2018-08-31\nparameters:\n  b: {type: string}\n")
    completed = subprocess.run(
        [str(KEEL), "template", "validate", str(template), "-P", "b=x"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0
    document = json.loads(completed.stdout)
    assert completed.stdout == json.dumps(document, indent=2, sort_keys=True) + "\n"
    assert document["Parameters"]["b"]["Value"] == "x"


def test_a_missing_template_file_is_a_command_error(tmp_path: Path) -> None:
    completed = subprocess.run(
        [str(KEEL), "template", "validate", str(tmp_path / "nothere.yaml")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 1
    missing = tmp_path / "nothere.yaml"
    assert completed.stderr == f"ERROR: CommandError: Could not fetch template from {missing}\n"


def test_a_null_registry_entry_reaches_the_engine(tmp_path: Path) -> None:
    # python-heatclient raises TypeError on it; the engine's merge of environment
    # files then drops the entry, as Heat's does.
    template = tmp_path / "t.yaml"
    template.write_text("heat_template_version: 2018-08-31\n")
    environment = tmp_path / "e.yaml"
    environment.write_text("resource_registry:\n  OS::Heat::None: null\n")
    completed = subprocess.run(
        [str(KEEL), "template", "validate", str(template), "-e", str(environment)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["Environment"]["resource_registry"] == {"resources": {}}


@pytest.mark.oracle
def test_an_environment_file_with_a_wrong_section_gets_the_apis_answer(tmp_path: Path) -> None:
    template = "heat_template_version: 2018-08-31\n"
    environment = "parameters: {}\nfoo: {}\n"
    (tmp_path / "template.yaml").write_text(template)
    (tmp_path / "environment.yaml").write_text(environment)
    validate = json.dumps({"template": template, "environment": environment})
    json_body = {"Content-Type": "application/json"}
    heat = heat_api.replay_cases(
        tmp_path, [("validate", "POST", "/v1/admin/validate", json_body, validate)]
    )[0]

    completed = subprocess.run(
        [str(KEEL), "template", "validate", "template.yaml", "-e", "environment.yaml"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )

    heat_error = json.loads(heat["body"])["error"]
    assert (heat["status"], heat_error["type"]) == (400, "HTTPBadRequest")
    assert completed.returncode == 1
    assert completed.stdout == ""
    assert completed.stderr == (
        "ERROR: HTTPBadRequest: Environment not in valid format: "
        'environment has wrong section "foo"\n'
    )
    assert completed.stderr == f"ERROR: {heat_error['type']}: {heat_error['message']}\n"
