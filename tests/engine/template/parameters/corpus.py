"""The parameter corpus: every case of tests/engine/template/corpus/parameters/*.yaml.

A case is ``{id, template, parameters?, parameter_defaults?, stack?, validate_value?,
update?, expect: from-heat}``: ``template`` is a mapping (or HOT/CFN text); ``stack`` the
identity ``{tenant, stack_name, stack_id}`` (``null`` for none; a fixed one if left
out); ``update`` ``{template?, parameters?, parameter_defaults?}`` asks which immutable
parameters an update would change. The YAML is read with dates kept as text, as Heat's
own template loader does, so ``heat_template_version: 2013-05-23`` stays a string.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

CORPUS_DIRECTORY = Path(__file__).resolve().parent.parent / "corpus" / "parameters"


class _CorpusLoader(yaml.SafeLoader):
    pass


# Drop the timestamp rule: a version date must stay text.
_CorpusLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for path in sorted(CORPUS_DIRECTORY.glob("*.yaml")):
        with open(path) as corpus_file:
            for case in yaml.load(corpus_file, Loader=_CorpusLoader):
                case["file"] = path.name
                cases.append(case)
    return cases
