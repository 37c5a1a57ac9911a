"""The request parameters of a CFN query, read as heat-api-cfn reads them (webob's rules).

Parameters come from the query string, then from a form body (``x-www-form-urlencoded``
or ``multipart/form-data``; a POST without a content type counts as a form too). A name
given more than once is the last of its values in the first of those two places that
has it. AWS lists arrive flattened: ``Parameters.member.1.ParameterKey=...``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import parse_qsl

import flask
from werkzeug.wrappers import Request

FORM_CONTENT_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class Parameters:
    """The query's and the form's (name, value) pairs, in their order."""

    def __init__(self, query: list[tuple[str, str]], form: list[tuple[str, str]]) -> None:
        self.query = query
        self.form = form

    def get(self, name: str, default: Any = None) -> Any:
        for pairs in (self.query, self.form):
            values = [value for key, value in pairs if key == name]
            if values:
                return values[-1]
        return default

    def __contains__(self, name: object) -> bool:
        return any(key == name for key, _ in self.items())

    def items(self) -> Iterator[tuple[str, str]]:
        yield from self.query
        yield from self.form

    def as_dict(self) -> dict[str, str]:
        """Every name with the value ``get`` gives it (``dict(request.params)`` in webob)."""
        return {name: self.get(name) for name, _ in self.items()}


def form_pairs(request: Request) -> list[tuple[str, str]]:
    content_type = (request.mimetype or "").lower()
    if content_type not in FORM_CONTENT_TYPES:
        if request.method != "POST" or content_type:
            return []
        # webob reads a POST without a content type as a form; werkzeug does not.
        return parse_qsl(request.get_data(cache=True).decode("utf-8", "replace"), True)
    # Read the body first so that it stays available (an EC2 v4 signature hashes it).
    request.get_data(cache=True)
    return list(request.form.items(multi=True))


def request_parameters(request: Request | None = None) -> Parameters:
    """The parameters of the request being served (read once, then kept on it)."""
    request = request or flask.request
    found = request.environ.get("keel.cfn.parameters")
    if found is None:
        found = Parameters(list(request.args.items(multi=True)), form_pairs(request))
        request.environ["keel.cfn.parameters"] = found
    return found


def extract_param_list(params: Parameters, prefix: str = "") -> list[dict[str, str]]:
    """``<prefix>.member.<N>.<name>=<value>`` pairs as one dict a member, by ``N``'s order."""
    pattern = re.compile(rf"{prefix}\.member\.([0-9]+)\.(.*)")
    numbered = []
    for name, value in params.items():
        match = pattern.match(name)
        if match:
            numbered.append((int(match.group(1)), (match.group(2), value)))
    numbered.sort(key=lambda entry: entry[0])
    return [
        dict(pair for _, pair in group)
        for _, group in itertools.groupby(numbered, key=lambda entry: entry[0])
    ]


def extract_param_pairs(
    params: Parameters, prefix: str, key_name: str, value_name: str
) -> dict[str, str]:
    """The members that have both ``key_name`` and ``value_name``, as one dict."""
    return {
        member[key_name]: member[value_name]
        for member in extract_param_list(params, prefix)
        if key_name in member and value_name in member
    }


def reformat_dict_keys(keymap: Mapping[str, str], source: Mapping[str, Any]) -> dict[str, Any]:
    """``source``'s values under new names, in ``keymap``'s order, present keys only."""
    return {new: source[old] for old, new in keymap.items() if old in source}
