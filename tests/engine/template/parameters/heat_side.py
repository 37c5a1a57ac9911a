"""Runs the parameter corpus through Heat 27.0.1 itself (executed inside the oracle's venv).

Reads a JSON list of cases from the file named by argv[1] and prints a JSON list of
answers. ``keel_side.answer`` computes the same document with OpenKeel's classes; the
two must agree. Keep the two files in step.
"""

import json
import sys
import warnings

warnings.simplefilter("ignore")

from oslo_config import cfg  # noqa: E402

cfg.CONF([], project="heat")

from heat.common import identifier, template_format  # noqa: E402
from heat.engine import api, parameter_groups, resources, template  # noqa: E402

resources.initialise()

DEFAULT_STACK = {"tenant": "tenant-1", "stack_name": "corpus_stack", "stack_id": "stack-id-1"}


def outcome(thunk):
    try:
        return {"value": thunk()}
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}


def make_template(source):
    data = template_format.parse(source) if isinstance(source, str) else source
    return template.Template(data)


def identity(case):
    stack = case.get("stack", DEFAULT_STACK)
    if stack is None:
        return None
    return identifier.HeatIdentifier(stack["tenant"], stack["stack_name"], stack["stack_id"])


def build(tmpl, case, values):
    return tmpl.parameters(
        identity(case),
        values.get("parameters") or {},
        param_defaults=values.get("parameter_defaults") or {},
    )


def schema_view(schema):
    return {"mapping": dict(schema), "constraints": [str(c) for c in schema.constraints]}


def describe(params, case):
    pseudo = params.PSEUDO_PARAMETERS
    return {
        "names": list(params),
        "validate": outcome(
            lambda: params.validate(validate_value=case.get("validate_value", True), context=None)
        ),
        "values": {name: outcome(lambda name=name: params[name]) for name in params},
        "text": params.map(lambda p: outcome(lambda: str(p))),
        "shown": params.map(
            lambda p: outcome(lambda: api.format_validate_parameter(p)),
            filter_func=lambda p: p.name not in pseudo,
        ),
        "schemata": params.map(
            lambda p: outcome(lambda: schema_view(p.schema)),
            filter_func=lambda p: p.name not in pseudo,
        ),
    }


def answer(case):
    made = outcome(lambda: make_template(case["template"]))
    if "error" in made:
        return {"template": made}
    tmpl = made["value"]
    built = outcome(lambda: build(tmpl, case, case))
    result = {"parameters": built if "error" in built else describe(built["value"], case)}
    result["groups"] = outcome(lambda: parameter_groups.ParameterGroups(tmpl).validate())
    update = case.get("update")
    if update is not None and "value" in built:
        new_source = update.get("template", case["template"])

        def modified():
            new_params = build(make_template(new_source), case, update)
            changed = built["value"].immutable_params_modified(
                new_params, update.get("parameters") or {}
            )
            return sorted(changed) if changed else changed

        result["immutable"] = outcome(modified)
    return result


def main():
    with open(sys.argv[1]) as cases_file:
        cases = json.load(cases_file)
    json.dump([answer(case) for case in cases], sys.stdout)


main()
