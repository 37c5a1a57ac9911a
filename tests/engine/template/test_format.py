"""Template text to data, with Heat's YAML rules, messages and size limit."""

from __future__ import annotations

import json

import pytest

from keel_app.common.exception import RequestLimitExceeded
from keel_app.engine.template import TemplateLimits
from keel_app.engine.template.format import convert_json_to_yaml, parse, simple_parse
from tests import oracle


def test_yaml_dates_and_times_stay_strings() -> None:
    data = simple_parse("heat_template_version: 2013-05-23\nwhen: 2001-12-14 21:59:43.10\n")
    assert data == {"heat_template_version": "2013-05-23", "when": "2001-12-14 21:59:43.10"}


def test_json_is_read_as_json() -> None:
    assert simple_parse('{"a": [1, 2.5, null]}') == {"a": [1, 2.5, None]}


def test_empty_text_is_an_empty_template() -> None:
    assert simple_parse("") == {}


def test_a_list_is_not_a_template() -> None:
    with pytest.raises(ValueError, match=r"^The template is not a JSON object or YAML mapping\.$"):
        simple_parse("[1, 2]")


def test_yaml_error_names_the_template_url() -> None:
    with pytest.raises(ValueError) as raised:
        simple_parse("a: [", template_url="http://example.com/t.yaml")
    assert str(raised.value).startswith(
        "Error parsing template http://example.com/t.yaml while parsing a flow node"
    )


def test_version_key_is_required() -> None:
    with pytest.raises(ValueError, match=r"^Template format version not found\.$"):
        parse("description: nothing\n")


def test_size_limit_comes_from_the_limits_given() -> None:
    text = "heat_template_version: 2013-05-23\n"
    assert parse(text, limits=TemplateLimits(max_template_size=len(text))) == {
        "heat_template_version": "2013-05-23"
    }
    with pytest.raises(RequestLimitExceeded) as raised:
        parse(text, limits=TemplateLimits(max_template_size=10))
    assert str(raised.value) == (
        "Request limit exceeded: Template size (34 bytes) exceeds maximum allowed size (10 bytes)."
    )


AWS_TEMPLATE = json.dumps(
    {
        "Description": "d",
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {"B": {"Type": "T"}, "A": {"Type": "T", "Properties": {"x": [1, "2"]}}},
        "Outputs": {},
    }
)


@pytest.mark.oracle
def test_json_to_yaml_conversion_matches_heat() -> None:
    heat = oracle.run(
        """
        import sys
        from heat.common import template_format
        sys.stdout.write(template_format.convert_json_to_yaml(sys.argv[1]))
        """,
        AWS_TEMPLATE,
    )
    assert convert_json_to_yaml(AWS_TEMPLATE) == heat
    assert heat.startswith("HeatTemplateFormatVersion: '2012-12-12'\nDescription: d\n")
