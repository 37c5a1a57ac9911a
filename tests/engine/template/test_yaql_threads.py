"""The yaql function in a worker's threads: resources of one traversal resolve at once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.template import Template, function
from keel_app.engine.template.stack_definition import StackDefinition

TAGS = {
    "heat_template_version": "2018-08-31",
    "parameters": {"tags": {"type": "json", "default": [{"Key": "team", "Value": "web"}]}},
}


def tags_to_metadata(number: int) -> dict:
    stack = StackDefinition(None, Template(TAGS), HeatIdentifier("t", "s", "1"), {})
    snippet = stack.t.parse(
        stack,
        {
            "yaql": {
                "expression": f"dict($.data.tags.select([$.Key, $.Value + '{number}']))",
                "data": {"tags": {"get_param": "tags"}},
            }
        },
    )
    return function.resolve(snippet)


def test_expressions_parsed_in_many_threads_at_once_each_give_their_own_result() -> None:
    numbers = range(2000)
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(tags_to_metadata, numbers))
    assert results == [{"team": f"web{number}"} for number in numbers]
