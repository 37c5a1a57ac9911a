"""OpenKeel's side of the function corpus: the same steps as ``heat_function_evaluator``."""

from __future__ import annotations

import copy
import json
from typing import Any

from keel_app.common.exception import InvalidTemplateReference, StackValidationFailed
from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.environment import Environment
from keel_app.engine.graph import Dependencies
from keel_app.engine.template import Template, function
from keel_app.engine.template.format import parse
from keel_app.engine.template.functions.references import select_from_attribute
from keel_app.engine.template.resource_definition import ResourceDefinition
from keel_app.engine.template.stack_definition import ResourceData, StackDefinition


class ParentResource:
    def __init__(self, spec: dict[str, Any]) -> None:
        self._metadata = spec.get("metadata", {})
        self.t = ResourceDefinition(
            "parent",
            spec.get("type", "OS::Heat::Stack"),
            deletion_policy=spec.get("deletion_policy"),
            update_policy=spec.get("update_policy"),
        )

    def metadata_get(self) -> Any:
        return self._metadata


def rewrap(error: StackValidationFailed, prefix: list[str], template: Any) -> Exception:
    path: list[Any] = list(prefix)
    if error.path:
        path.append(template.get_section_name(error.path[0]))
        path.extend(error.path[1:])
    return StackValidationFailed(error=error.error, path=path, message=error.error_message)


def fill_attribute_paths(nodes: dict[str, ResourceData], pairs: list[tuple[str, Any]]) -> None:
    """Give each resource the values of the attribute paths the template reads, as the
    engine does before it resolves a definition."""
    for resource_name, attribute in pairs:
        node = nodes.get(resource_name)
        if node is None or not isinstance(attribute, tuple):
            continue
        plain = node.attribute_values.get(attribute[0])
        node.attribute_values[attribute] = select_from_attribute(plain, list(attribute[1:]))


def evaluate(case: dict[str, Any]) -> dict[str, Any]:
    data = case["template"]
    data = parse(data) if isinstance(data, str) else copy.deepcopy(data)
    env_dict = copy.deepcopy(case.get("environment", {}))
    if "parameters" in case:
        env_dict["parameters"] = copy.deepcopy(case["parameters"])
    template = Template(data, files=case.get("files"), env=Environment(env_dict))
    template.validate()

    nodes = {
        name: ResourceData(
            name,
            spec.get("reference_id", name),
            dict(spec.get("attributes", {})),
            spec.get("action", "CREATE"),
            spec.get("status", "COMPLETE"),
        )
        for name, spec in case.get("resource_data", {}).items()
    }
    parent = ParentResource(case["parent"]) if "parent" in case else None
    zones = case.get("availability_zones", ["nova"])
    stack_id = HeatIdentifier("test_tenant", "test_stack", "stack-1234")
    stack = StackDefinition(None, template, stack_id, nodes, parent, lambda: zones)
    stack.parameters.validate(validate_value=True)
    template.conditions(stack).validate()

    enabled = stack.enabled_rsrc_names()
    names = [name for name in (template.t.get(template.RESOURCES) or {}) if name in enabled]
    definitions = {name: stack.resource_definition(name) for name in names}
    outputs = template.outputs(stack)
    pairs: list[tuple[str, Any]] = []
    for definition in definitions.values():
        pairs.extend(function.all_dep_attrs(definition._properties))
        pairs.extend(function.all_dep_attrs(definition._metadata))
    for output in outputs.values():
        pairs.extend(function.all_dep_attrs(output._value))
    fill_attribute_paths(nodes, pairs)

    for name in sorted(definitions):
        try:
            definitions[name].validate()
        except StackValidationFailed as error:
            raise rewrap(error, [template.RESOURCES, name], template) from None
    for name in sorted(outputs):
        try:
            outputs[name].validate()
        except StackValidationFailed as error:
            raise rewrap(error, [template.OUTPUTS, name], template) from None

    every_name = stack.all_rsrc_names()
    graph = Dependencies()
    for name in names:
        for required in sorted(definitions[name].required_resource_names()):
            if required not in stack:
                if required in every_name:
                    continue
                raise InvalidTemplateReference(resource=required, key=name)
            graph += (name, required)
        graph += (name, None)
    order = list(graph)

    answer: dict[str, Any] = {"order": order, "resources": {}, "outputs": {}}
    for name in names:
        definition = definitions[name]
        answer["resources"][name] = {
            "type": definition.resource_type,
            "properties": function.resolve(definition._properties),
            "metadata": definition.metadata(),
            "deletion_policy": definition.deletion_policy(),
            "update_policy": function.resolve(definition._update_policy),
            "external_id": definition.external_id(),
            "depends": sorted(definition.required_resource_names()),
        }
    for name in sorted(outputs):
        answer["outputs"][name] = outputs[name].get_value()
    return answer


def answer_for(case: dict[str, Any]) -> dict[str, Any]:
    try:
        value = evaluate(case)
        return {"value": json.loads(json.dumps(value, default=repr))}
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}
