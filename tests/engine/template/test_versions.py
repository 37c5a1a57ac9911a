"""Every template version: registered as in Heat, with Heat's sections and function tables."""

from __future__ import annotations

from importlib import metadata
from typing import Any

import pytest

from keel_app.common.exception import InvalidTemplateVersion
from keel_app.engine.template import Template
from keel_app.engine.template.base import ENTRY_POINT_GROUP, template_classes
from tests import oracle

HEAT_DESCRIPTION = """
import json
from oslo_config import cfg
cfg.CONF([], project="heat", default_config_files=[])
from heat.engine import template

template.Template({"heat_template_version": "2013-05-23"})
def name(item):
    return item.__module__ + "." + item.__name__
described = {}
for (key, version), cls in sorted(template._template_classes.items()):
    instance = template.Template({key: version})
    described[key + "." + version] = {
        "class": cls.__name__,
        "sections": list(cls.SECTIONS),
        "hidden_sections": sorted(cls.SECTIONS_NO_DIRECT_ACCESS),
        "resource_keys": list(cls._RESOURCE_KEYS),
        "output_keys": list(cls.OUTPUT_KEYS),
        "deletion_policies": cls.deletion_policies,
        "functions": {n: name(f) for n, f in cls.functions.items()},
        "condition_functions": {
            n: name(f) for n, f in instance._parser_condition_functions.items()
        },
        "merge_sections": instance.merge_sections,
        "iterates": list(instance),
    }
print(json.dumps(described))
"""


def heat_class_name(item: Any) -> str:
    return getattr(item, "heat_class", f"{item.__module__}.{item.__name__}")


def describe_ours() -> dict[str, Any]:
    described = {}
    for (key, version), cls in sorted(template_classes().items()):
        instance = Template({key: version})
        described[f"{key}.{version}"] = {
            "class": cls.__name__,
            "sections": list(cls.SECTIONS),
            "hidden_sections": sorted(cls.SECTIONS_NO_DIRECT_ACCESS),
            "resource_keys": list(cls._RESOURCE_KEYS),  # type: ignore[attr-defined]
            "output_keys": list(cls.OUTPUT_KEYS),  # type: ignore[attr-defined]
            "deletion_policies": cls.deletion_policies,  # type: ignore[attr-defined]
            "functions": {n: heat_class_name(f) for n, f in cls.functions.items()},
            "condition_functions": {
                n: heat_class_name(f) for n, f in instance._parser_condition_functions.items()
            },
            "merge_sections": instance.merge_sections,
            "iterates": list(instance),
        }
    return described


def test_versions_are_registered_by_entry_points_as_in_heat() -> None:
    names = sorted(entry.name for entry in metadata.entry_points(group=ENTRY_POINT_GROUP))
    assert names == [
        "AWSTemplateFormatVersion.2010-09-09",
        "HeatTemplateFormatVersion.2012-12-12",
        "heat_template_version.2013-05-23",
        "heat_template_version.2014-10-16",
        "heat_template_version.2015-04-30",
        "heat_template_version.2015-10-15",
        "heat_template_version.2016-04-08",
        "heat_template_version.2016-10-14",
        "heat_template_version.2017-02-24",
        "heat_template_version.2017-09-01",
        "heat_template_version.2018-03-02",
        "heat_template_version.2018-08-31",
        "heat_template_version.2021-04-16",
        "heat_template_version.newton",
        "heat_template_version.ocata",
        "heat_template_version.pike",
        "heat_template_version.queens",
        "heat_template_version.rocky",
        "heat_template_version.wallaby",
    ]


@pytest.mark.oracle
def test_each_version_has_heats_sections_and_function_tables() -> None:
    assert describe_ours() == oracle.run_json(HEAT_DESCRIPTION)


def test_an_alias_is_the_same_class_as_its_date() -> None:
    dated = Template({"heat_template_version": "2018-03-02"})
    alias = Template({"heat_template_version": "queens"})
    assert type(alias) is type(dated)
    assert alias.version == ("heat_template_version", "queens")


def test_unknown_hot_version_lists_every_valid_one() -> None:
    with pytest.raises(InvalidTemplateVersion) as raised:
        Template({"heat_template_version": "2012-01-01"})
    assert str(raised.value) == (
        'The template version is invalid: "heat_template_version: 2012-01-01". '
        '"heat_template_version" should be one of: 2013-05-23, 2014-10-16, 2015-04-30, '
        "2015-10-15, 2016-04-08, 2016-10-14, 2017-02-24, 2017-09-01, 2018-03-02, 2018-08-31, "
        "2021-04-16, newton, ocata, pike, queens, rocky, wallaby"
    )


def test_two_version_keys_are_ambiguous() -> None:
    with pytest.raises(InvalidTemplateVersion) as raised:
        Template({"heat_template_version": "2013-05-23", "HeatTemplateFormatVersion": "x"})
    assert str(raised.value) in {
        "The template version is invalid: Ambiguous versions "
        "(heat_template_version, HeatTemplateFormatVersion)",
        "The template version is invalid: Ambiguous versions "
        "(HeatTemplateFormatVersion, heat_template_version)",
    }


def test_hot_sections_read_through_cfn_names() -> None:
    template = Template(
        {"heat_template_version": "2013-05-23", "description": "d", "resources": {}}
    )
    assert template["Description"] == "d"
    assert template["Mappings"] == {}
    with pytest.raises(KeyError) as raised:
        template["parameters"]
    assert raised.value.args[0] == "Section parameters can not be accessed directly."
