"""The differential corpus of template functions: loading and expanding its cases.

A corpus file (``corpus/functions/*.yaml``) is a list of entries. An entry is either
a complete case::

    {id, template (text or mapping), parameters?, environment?, files?,
     resource_data?, parent?, availability_zones?, expect: from-heat}

or a snippet to try in many template versions::

    {id, versions: hot | cfn | all | [versions...], snippet, parameters_section?,
     resources?, conditions?, ...the optional keys above}

which expands to one complete case per version (id ``<id>@<version>``), the snippet
being the value of the output ``result``. A version that lacks a function answers
as Heat does there (plain data, or "not supported in this version").

``resource_data`` gives what the engine would know of a resource:
``{name: {reference_id, attributes: {name: value}, action, status}}``; a resource
without it is one that does not exist yet.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml

from keel_app.engine.template.format import TemplateLoader

CORPUS = Path(__file__).parent / "corpus"

HOT_VERSIONS = (
    "2013-05-23",
    "2014-10-16",
    "2015-04-30",
    "2015-10-15",
    "2016-04-08",
    "2016-10-14",
    "2017-02-24",
    "2017-09-01",
    "2018-03-02",
    "2018-08-31",
    "2021-04-16",
)
HOT_ALIASES = ("newton", "ocata", "pike", "queens", "rocky", "wallaby")
CFN_VERSIONS = ("AWSTemplateFormatVersion", "HeatTemplateFormatVersion")
CFN_VERSION_VALUES = {
    "AWSTemplateFormatVersion": "2010-09-09",
    "HeatTemplateFormatVersion": "2012-12-12",
}
CASE_KEYS = ("parameters", "environment", "files", "resource_data", "parent", "availability_zones")

_CFN_PARAMETER_TYPES = {
    "string": "String",
    "number": "Number",
    "comma_delimited_list": "CommaDelimitedList",
    "json": "Json",
    "boolean": "Boolean",
}
_CFN_RESOURCE_KEYS = {
    "type": "Type",
    "properties": "Properties",
    "metadata": "Metadata",
    "depends_on": "DependsOn",
    "deletion_policy": "DeletionPolicy",
    "update_policy": "UpdatePolicy",
    "condition": "Condition",
}


def select_versions(selector: Any) -> list[str]:
    if selector == "hot":
        return list(HOT_VERSIONS)
    if selector == "cfn":
        return list(CFN_VERSIONS)
    if selector == "all":
        return list(HOT_VERSIONS) + list(CFN_VERSIONS)
    if isinstance(selector, str) and selector.startswith("hot>="):
        first = selector[len("hot>=") :]
        return [version for version in HOT_VERSIONS if version >= first]
    if isinstance(selector, str) and selector.startswith("hot<"):
        bound = selector[len("hot<") :]
        return [version for version in HOT_VERSIONS if version < bound]
    return list(selector)


def _cfn_parameters(section: dict[str, Any]) -> dict[str, Any]:
    converted = {}
    for name, schema in section.items():
        item = {"Type": _CFN_PARAMETER_TYPES[schema["type"]]}
        if "default" in schema:
            item["Default"] = schema["default"]
        converted[name] = item
    return converted


def _cfn_resources(section: dict[str, Any]) -> dict[str, Any]:
    return {
        name: {_CFN_RESOURCE_KEYS[key]: value for key, value in resource.items()}
        for name, resource in section.items()
    }


def build_template(version: str, entry: dict[str, Any]) -> dict[str, Any]:
    snippet = copy.deepcopy(entry["snippet"])
    if version in CFN_VERSIONS:
        template: dict[str, Any] = {version: CFN_VERSION_VALUES[version]}
        if "parameters_section" in entry:
            template["Parameters"] = _cfn_parameters(entry["parameters_section"])
        if "mappings" in entry:
            template["Mappings"] = copy.deepcopy(entry["mappings"])
        if "conditions" in entry and version == "AWSTemplateFormatVersion":
            template["Conditions"] = copy.deepcopy(entry["conditions"])
        if "resources" in entry:
            template["Resources"] = _cfn_resources(entry["resources"])
        template["Outputs"] = {"result": {"Value": snippet}}
        return template
    template = {"heat_template_version": version}
    if "parameters_section" in entry:
        template["parameters"] = copy.deepcopy(entry["parameters_section"])
    if "conditions" in entry and (version >= "2016-10-14" or version in HOT_ALIASES):
        template["conditions"] = copy.deepcopy(entry["conditions"])
    if "resources" in entry:
        template["resources"] = copy.deepcopy(entry["resources"])
    template["outputs"] = {"result": {"value": snippet}}
    return template


def expand(entry: dict[str, Any]) -> list[dict[str, Any]]:
    if "template_size" in entry:
        # A template of the given length in characters, to test the size limit.
        header = "heat_template_version: 2013-05-23\ndescription: "
        text = header + "x" * (entry["template_size"] - len(header))
        return [{"id": entry["id"], "template": text, "expect": "from-heat"}]
    if "template" in entry:
        return [{**entry, "expect": entry.get("expect", "from-heat")}]
    cases = []
    for version in select_versions(entry["versions"]):
        case = {"id": f"{entry['id']}@{version}", "template": build_template(version, entry)}
        case.update({key: copy.deepcopy(entry[key]) for key in CASE_KEYS if key in entry})
        case["expect"] = entry.get("expect", "from-heat")
        cases.append(case)
    return cases


def load_cases(area: str) -> list[dict[str, Any]]:
    """Every case of one corpus area, expanded, in file then entry order."""
    cases = []
    for path in sorted((CORPUS / area).glob("*.yaml")):
        entries = yaml.load(path.read_text(), Loader=TemplateLoader)
        for entry in entries:
            cases.extend(expand(entry))
    identifiers = [case["id"] for case in cases]
    duplicates = {name for name in identifiers if identifiers.count(name) > 1}
    assert not duplicates, f"duplicate case ids: {sorted(duplicates)}"
    # The oracle receives the cases as JSON: both sides must see exactly that data
    # (mapping keys become strings). Templates written as text keep YAML's own rules.
    return json.loads(json.dumps(cases))
