"""The parameter corpus through OpenKeel: the same answer document ``heat_side`` computes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.template import Template
from keel_app.engine.template.format import parse
from keel_app.engine.template.parameters import ParameterGroups, format_validate_parameter

DEFAULT_STACK = {"tenant": "tenant-1", "stack_name": "corpus_stack", "stack_id": "stack-id-1"}


def outcome(thunk: Callable[[], Any]) -> dict[str, Any]:
    try:
        return {"value": thunk()}
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}


def make_template(source: Any) -> Any:
    data = parse(source) if isinstance(source, str) else source
    return Template(data)


def identity(case: dict[str, Any]) -> HeatIdentifier | None:
    stack = case.get("stack", DEFAULT_STACK)
    if stack is None:
        return None
    return HeatIdentifier(stack["tenant"], stack["stack_name"], stack["stack_id"])


def build(tmpl: Any, case: dict[str, Any], values: dict[str, Any]) -> Any:
    return tmpl.parameters(
        identity(case),
        values.get("parameters") or {},
        param_defaults=values.get("parameter_defaults") or {},
    )


def schema_view(schema: Any) -> dict[str, Any]:
    return {"mapping": dict(schema), "constraints": [str(c) for c in schema.constraints]}


def describe(params: Any, case: dict[str, Any]) -> dict[str, Any]:
    pseudo = params.PSEUDO_PARAMETERS
    return {
        "names": list(params),
        "validate": outcome(
            lambda: params.validate(validate_value=case.get("validate_value", True), context=None)
        ),
        "values": {name: outcome(lambda name=name: params[name]) for name in params},
        "text": params.map(lambda p: outcome(lambda: str(p))),
        "shown": params.map(
            lambda p: outcome(lambda: format_validate_parameter(p)),
            filter_func=lambda p: p.name not in pseudo,
        ),
        "schemata": params.map(
            lambda p: outcome(lambda: schema_view(p.schema)),
            filter_func=lambda p: p.name not in pseudo,
        ),
    }


def answer(case: dict[str, Any]) -> dict[str, Any]:
    made = outcome(lambda: make_template(case["template"]))
    if "error" in made:
        return {"template": made}
    tmpl = made["value"]
    built = outcome(lambda: build(tmpl, case, case))
    result: dict[str, Any] = {
        "parameters": built if "error" in built else describe(built["value"], case)
    }
    result["groups"] = outcome(lambda: ParameterGroups(tmpl).validate())
    update = case.get("update")
    if update is not None and "value" in built:
        new_source = update.get("template", case["template"])

        def modified() -> list[str] | None:
            new_params = build(make_template(new_source), case, update)
            changed = built["value"].immutable_params_modified(
                new_params, update.get("parameters") or {}
            )
            return sorted(changed) if changed else changed

        result["immutable"] = outcome(modified)
    return result
