"""Template text to data: JSON or YAML, read by the rules Heat's users rely on.

YAML is read safely, with every scalar string kept as ``str`` and timestamps such as
``2013-05-23`` kept as the string they were written as (a version date must not turn
into a ``datetime``). A YAML error is reported through the pure-Python loader, whose
message quotes the offending snippet.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Iterator
from typing import Any

import yaml

from keel_app.common.exception import RequestLimitExceeded
from keel_app.engine.template.limits import DEFAULT_LIMITS, TemplateLimits

VERSION_KEYS = ("HeatTemplateFormatVersion", "heat_template_version", "AWSTemplateFormatVersion")

_LoaderBase: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DumperBase: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class TemplateLoader(_LoaderBase):  # type: ignore[misc]
    """Safe YAML loading that leaves strings and timestamps as text."""

    def construct_text(self, node: yaml.Node) -> Any:
        return self.construct_scalar(node)


TemplateLoader.add_constructor("tag:yaml.org,2002:str", TemplateLoader.construct_text)
TemplateLoader.add_constructor("tag:yaml.org,2002:timestamp", TemplateLoader.construct_text)


class TemplateDumper(_DumperBase):  # type: ignore[misc]
    """Safe YAML dumping that writes ordered mappings in their own order."""

    def represent_ordered_dict(self, data: collections.OrderedDict[Any, Any]) -> Any:
        return self.represent_dict(data.items())


TemplateDumper.add_representer(collections.OrderedDict, TemplateDumper.represent_ordered_dict)


def simple_parse(template_text: str | bytes, template_url: str | None = None) -> dict[str, Any]:
    """Read JSON, or else YAML, and insist on a mapping at the top."""
    try:
        data = json.loads(template_text)
    except ValueError:
        try:
            data = yaml.load(template_text, Loader=TemplateLoader)
        except yaml.YAMLError:
            try:
                data = yaml.load(template_text, Loader=yaml.SafeLoader)
            except yaml.YAMLError as error:
                where = "[root stack]" if template_url is None else template_url
                raise ValueError(f"Error parsing template {where} {error}") from None
        else:
            if data is None:
                data = {}
    if not isinstance(data, dict):
        raise ValueError("The template is not a JSON object or YAML mapping.")
    return data


def validate_template_limit(text: Any, limits: TemplateLimits = DEFAULT_LIMITS) -> None:
    """Refuse a template longer than ``max_template_size`` characters."""
    # Heat measures str(text): for bytes that is their repr, which we keep.
    length = len(str(text))
    if length > limits.max_template_size:
        message = (
            f"Template size ({length} bytes) exceeds maximum allowed size "
            f"({limits.max_template_size} bytes)."
        )
        raise RequestLimitExceeded(message=message)


def parse(
    template_text: str | bytes,
    template_url: str | None = None,
    limits: TemplateLimits = DEFAULT_LIMITS,
) -> dict[str, Any]:
    """Read a template and check that it names a template format version."""
    validate_template_limit(template_text, limits)
    data = simple_parse(template_text, template_url)
    if not any(key in data for key in VERSION_KEYS):
        raise ValueError("Template format version not found.")
    return data


def convert_json_to_yaml(json_text: str) -> str:
    """Rewrite an AWS JSON template as a Heat (2012-12-12) YAML template."""
    data = json.loads(json_text, object_pairs_hook=collections.OrderedDict)

    def top_level_items() -> Iterator[tuple[str, Any]]:
        yield "HeatTemplateFormatVersion", "2012-12-12"
        for key, value in data.items():
            if key != "AWSTemplateFormatVersion":
                yield key, value

    return str(yaml.dump(collections.OrderedDict(top_level_items()), Dumper=TemplateDumper))
