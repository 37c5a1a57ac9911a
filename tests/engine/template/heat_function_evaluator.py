"""Runs inside the oracle (Heat 27.0.1's own environment), never imported by the tests.

Reads a JSON list of function corpus cases from the file named by argv[1] and prints
a JSON list of answers, each ``{"value": ...}`` or ``{"error": class, "message": ...}``.
The steps mirror ``evaluate_case`` in ``function_evaluator.py`` step for step.
"""

import copy
import json
import sys

from oslo_config import cfg

cfg.CONF([], project="heat", default_config_files=[])

from heat.common import exception, identifier, template_format  # noqa: E402
from heat.engine import (  # noqa: E402
    attributes,
    dependencies,
    environment,
    function,
    node_data,
    resources,
    rsrc_defn,
    stk_defn,
    template,
)

resources.initialise()


class ParentResource:
    def __init__(self, spec):
        self._metadata = spec.get("metadata", {})
        self.t = rsrc_defn.ResourceDefinition(
            "parent",
            spec.get("type", "OS::Heat::Stack"),
            deletion_policy=spec.get("deletion_policy"),
            update_policy=spec.get("update_policy"),
        )

    def metadata_get(self):
        return self._metadata


def rewrap(error, prefix, template_):
    path = list(prefix)
    if error.path:
        path.append(template_.get_section_name(error.path[0]))
        path.extend(error.path[1:])
    return exception.StackValidationFailed(
        error=error.error, path=path, message=error.error_message
    )


def fill_attribute_paths(nodes, pairs):
    for resource_name, attribute in pairs:
        node = nodes.get(resource_name)
        if node is None or not isinstance(attribute, tuple):
            continue
        plain = node._attributes.get(attribute[0])
        node._attributes[attribute] = attributes.select_from_attribute(plain, list(attribute[1:]))


def evaluate(case):
    data = case["template"]
    data = template_format.parse(data) if isinstance(data, str) else copy.deepcopy(data)
    env_dict = copy.deepcopy(case.get("environment", {}))
    if "parameters" in case:
        env_dict["parameters"] = copy.deepcopy(case["parameters"])
    tmpl = template.Template(data, files=case.get("files"), env=environment.Environment(env_dict))
    tmpl.validate()

    nodes = {
        name: node_data.NodeData(
            None,
            name,
            None,
            spec.get("reference_id", name),
            dict(spec.get("attributes", {})),
            spec.get("action", "CREATE"),
            spec.get("status", "COMPLETE"),
        )
        for name, spec in case.get("resource_data", {}).items()
    }
    parent = ParentResource(case["parent"]) if "parent" in case else None
    stack_id = identifier.HeatIdentifier("test_tenant", "test_stack", "stack-1234")
    stack = stk_defn.StackDefinition(None, tmpl, stack_id, nodes, parent)
    stack._zones = case.get("availability_zones", ["nova"])
    stack.parameters.validate(validate_value=True)
    tmpl.conditions(stack).validate()

    enabled = stack.enabled_rsrc_names()
    names = [name for name in (tmpl.t.get(tmpl.RESOURCES) or {}) if name in enabled]
    definitions = {name: stack.resource_definition(name) for name in names}
    outputs = tmpl.outputs(stack)
    pairs = []
    for definition in definitions.values():
        pairs.extend(function.all_dep_attrs(definition._properties))
        pairs.extend(function.all_dep_attrs(definition._metadata))
    for output in outputs.values():
        pairs.extend(function.all_dep_attrs(output._value))
    fill_attribute_paths(nodes, pairs)

    for name in sorted(definitions):
        try:
            definitions[name].validate()
        except exception.StackValidationFailed as error:
            raise rewrap(error, [tmpl.RESOURCES, name], tmpl) from None
    for name in sorted(outputs):
        try:
            outputs[name].validate()
        except exception.StackValidationFailed as error:
            raise rewrap(error, [tmpl.OUTPUTS, name], tmpl) from None

    every_name = stack.all_rsrc_names()
    graph = dependencies.Dependencies()
    for name in names:
        for required in sorted(definitions[name].required_resource_names()):
            if required not in stack:
                if required in every_name:
                    continue
                raise exception.InvalidTemplateReference(resource=required, key=name)
            graph += (name, required)
        graph += (name, None)
    order = list(graph)

    answer = {"order": order, "resources": {}, "outputs": {}}
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


def answer_for(case):
    try:
        value = evaluate(case)
        return {"value": json.loads(json.dumps(value, default=repr))}
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}


def main():
    with open(sys.argv[1]) as stream:
        cases = json.load(stream)
    print(json.dumps([answer_for(case) for case in cases]))


main()
