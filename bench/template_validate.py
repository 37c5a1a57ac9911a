"""Parse and validate a 1,000-resource template with OpenKeel and with Heat 27.0.1.

Both run the same steps — the API reading the template text, then the engine's
validate_template — N times in one process each (Heat's in the oracle's virtual
environment, timed inside that process, so neither interpreter's start-up counts).
Prints the median seconds of each, the ratio, and the command that reproduces them.

    .venv/bin/python bench/template_validate.py [--resources 1000] [--repetitions 5]
        [--require-ratio 5]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from keel_app.engine.environment import PACKAGED_ENVIRONMENT_DIR  # noqa: E402
from keel_app.engine.template import DEFAULT_LIMITS  # noqa: E402
from keel_app.engine.validate import (  # noqa: E402
    request_environment,
    request_template,
    validate_template,
)
from tests.engine.validate.heat_runner import run_heat_side  # noqa: E402
from tests.engine.validate.keel_side import new_context, plain  # noqa: E402


def resource(index: int) -> dict[str, Any]:
    """The index-th resource: four no-cloud types in turn, each tied to the ones before."""
    previous = f"r{index - 1}"
    kind = index % 4
    if index == 0 or kind == 0:
        return {
            "type": "OS::Heat::RandomString",
            "properties": {
                "length": {"get_param": "length"},
                "salt": {
                    "str_replace": {
                        "template": "$prefix-$index",
                        "params": {"$prefix": {"get_param": "prefix"}, "$index": index},
                    }
                },
            },
        }
    if kind == 1:
        return {
            "type": "OS::Heat::Value",
            "properties": {"value": {"get_attr": [previous, "value"]}, "type": "string"},
        }
    if kind == 2:
        return {
            "type": "OS::Heat::TestResource",
            "properties": {
                "value": {"list_join": ["-", [{"get_resource": previous}, {"get_param": "prefix"}]]}
            },
            "depends_on": [f"r{index - 2}"],
        }
    return {
        "type": "OS::Heat::None",
        "properties": {"upstream": {"get_attr": [previous, "output"]}},
        "metadata": {"position": index},
    }


def build_template(count: int) -> str:
    template = {
        "heat_template_version": "2021-04-16",
        "description": f"{count} resources that refer to each other",
        "parameters": {
            "prefix": {"type": "string", "default": "bench"},
            "length": {"type": "number", "default": 16, "constraints": [{"range": {"min": 8}}]},
        },
        "resources": {f"r{index}": resource(index) for index in range(count)},
        "outputs": {
            "first": {"value": {"get_attr": ["r0", "value"]}},
            "last": {"value": {"get_resource": f"r{count - 1}"}},
        },
    }
    return str(yaml.safe_dump(template, sort_keys=False))


def keel_run(text: str) -> tuple[float, Any]:
    started = time.perf_counter()
    body = {"template": text}
    answer = validate_template(
        request_template(body, DEFAULT_LIMITS),
        request_environment(body),
        files={},
        limits=DEFAULT_LIMITS,
        context=new_context(),
    )
    return time.perf_counter() - started, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resources", type=int, default=1000)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument(
        "--require-ratio",
        type=float,
        help="exit with status 1 unless OpenKeel is at least this many times faster",
    )
    arguments = parser.parse_args()
    # The registry's warnings about deprecated types are not part of the answer.
    logging.getLogger().addHandler(logging.NullHandler())
    text = build_template(arguments.resources)

    # One untimed run first: plugin entry points and the global environment load once.
    keel_run(text)
    keel_seconds = []
    for _ in range(arguments.repetitions):
        seconds, keel_answer = keel_run(text)
        keel_seconds.append(seconds)

    request = {
        "environment_dir": str(PACKAGED_ENVIRONMENT_DIR),
        "bench": {"template": text, "repetitions": arguments.repetitions + 1},
    }
    with tempfile.TemporaryDirectory() as directory:
        heat = run_heat_side(request, Path(directory), timeout=3600)["bench"]
    heat_seconds = heat["seconds"][1:]

    same = heat["answer"] == {"result": plain(keel_answer)}
    keel_median = statistics.median(keel_seconds)
    heat_median = statistics.median(heat_seconds)
    print(f"template: {arguments.resources} resources, {len(text)} characters of YAML")
    print(f"answers equal: {same}")
    print(f"OpenKeel: median {keel_median:.3f} s of {arguments.repetitions} runs")
    print(f"Heat 27.0.1: median {heat_median:.3f} s of {arguments.repetitions} runs")
    print(f"OpenKeel is {heat_median / keel_median:.1f}x faster")
    print(
        "reproduce: .venv/bin/python bench/template_validate.py "
        f"--resources {arguments.resources} --repetitions {arguments.repetitions}"
    )
    if not same:
        sys.exit("the two answers differ")
    if arguments.require_ratio and heat_median / keel_median < arguments.require_ratio:
        sys.exit(f"OpenKeel is not {arguments.require_ratio}x faster")


if __name__ == "__main__":
    main()
