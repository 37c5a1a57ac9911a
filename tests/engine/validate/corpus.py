"""The validate_template corpus (tests/engine/template/corpus/validate/*.yaml): loading it.

A file is a list of entries. An entry is a complete case::

    {id, template (text or mapping), environment?, environment_files?, files?,
     parameters?, show_nested?, ignorable_errors?, limits?, expect: from-heat}

(``limits`` overrides some of max_resources_per_stack, max_template_size and
max_nested_stack_depth for that case), or a snippet to try in many versions::

    {id, versions: hot | cfn | all | hot>=V | hot<V | [versions...], snippet,
     place?: property | output | both (default) | condition, parameters_section?,
     conditions?, resources?, ...the optional case keys}

which expands to one case per version (id ``<id>@<version>``): a template whose
resource ``probe`` (``OS::Heat::None``) has the snippet as its property ``value``
and whose output ``result`` has it as its value; with ``place: condition`` the
snippet is the condition ``probe_condition`` that the resource ``probe`` is under.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml

from keel_app.engine.template.format import TemplateLoader
from tests.engine.template.corpus_cases import (
    CFN_VERSION_VALUES,
    CFN_VERSIONS,
    HOT_ALIASES,
    select_versions,
)

CORPUS = Path(__file__).parents[1] / "template" / "corpus" / "validate"
CASE_KEYS = (
    "environment",
    "environment_files",
    "files",
    "parameters",
    "show_nested",
    "ignorable_errors",
    "limits",
)
PROBE_TYPE = "OS::Heat::None"

_CFN_KEYS = {
    "type": "Type",
    "properties": "Properties",
    "metadata": "Metadata",
    "depends_on": "DependsOn",
    "deletion_policy": "DeletionPolicy",
    "update_policy": "UpdatePolicy",
    "condition": "Condition",
}
_CFN_PARAMETER_KEYS = {
    "type": "Type",
    "default": "Default",
    "description": "Description",
    "hidden": "NoEcho",
}
_CFN_PARAMETER_TYPES = {
    "string": "String",
    "number": "Number",
    "comma_delimited_list": "CommaDelimitedList",
    "json": "Json",
    "boolean": "Boolean",
}


def _has_conditions(version: str) -> bool:
    return (
        version == "AWSTemplateFormatVersion"
        or version in HOT_ALIASES
        or (version not in CFN_VERSIONS and version >= "2016-10-14")
    )


def _cfn_parameter(schema: dict[str, Any]) -> dict[str, Any]:
    converted = {_CFN_PARAMETER_KEYS[key]: value for key, value in schema.items()}
    converted["Type"] = _CFN_PARAMETER_TYPES[schema["type"]]
    return converted


def build_template(version: str, entry: dict[str, Any]) -> dict[str, Any]:
    place = entry.get("place", "both")
    snippet = entry["snippet"]
    resources = copy.deepcopy(entry.get("resources", {}))
    if place in ("property", "both"):
        resources["probe"] = {"type": PROBE_TYPE, "properties": {"value": snippet}}
    outputs = {"result": {"value": snippet}} if place in ("output", "both") else {}
    parameters = entry.get("parameters_section")
    conditions = entry.get("conditions") if _has_conditions(version) else None
    if place == "condition":
        conditions = {**(conditions or {}), "probe_condition": snippet}
        resources["probe"] = {"type": PROBE_TYPE, "condition": "probe_condition"}

    if version in CFN_VERSIONS:
        template: dict[str, Any] = {version: CFN_VERSION_VALUES[version]}
        if parameters:
            template["Parameters"] = {
                name: _cfn_parameter(schema) for name, schema in parameters.items()
            }
        if "mappings" in entry:
            template["Mappings"] = entry["mappings"]
        if conditions:
            template["Conditions"] = conditions
        template["Resources"] = {
            name: {_CFN_KEYS[key]: value for key, value in resource.items()}
            for name, resource in resources.items()
        }
        if outputs:
            template["Outputs"] = {"result": {"Value": snippet}}
        return copy.deepcopy(template)

    template = {"heat_template_version": version}
    if parameters:
        template["parameters"] = parameters
    if conditions:
        template["conditions"] = conditions
    template["resources"] = resources
    if outputs:
        template["outputs"] = outputs
    return copy.deepcopy(template)


def expand(entry: dict[str, Any]) -> list[dict[str, Any]]:
    if "template" in entry:
        return [{**entry, "expect": entry.get("expect", "from-heat")}]
    cases = []
    for version in select_versions(entry["versions"]):
        case = {"id": f"{entry['id']}@{version}", "template": build_template(version, entry)}
        case.update({key: copy.deepcopy(entry[key]) for key in CASE_KEYS if key in entry})
        case["expect"] = entry.get("expect", "from-heat")
        cases.append(case)
    return cases


def load_cases() -> list[dict[str, Any]]:
    """Every case, expanded, in file then entry order, as the JSON the oracle receives."""
    cases = []
    for path in sorted(CORPUS.glob("*.yaml")):
        for entry in yaml.load(path.read_text(), Loader=TemplateLoader):
            cases.extend(expand(entry))
    identifiers = [case["id"] for case in cases]
    duplicates = sorted({name for name in identifiers if identifiers.count(name) > 1})
    assert not duplicates, f"duplicate case ids: {duplicates}"
    return json.loads(json.dumps(cases))
