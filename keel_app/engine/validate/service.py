"""validate_template: Heat's engine answer to "is this template valid, and what does it ask?".

The steps are Heat 27.0.1's (EngineService.validate_template, _validate_template and
Stack.validate with ``validate_res_tmpl_only=True`` on a stack built with
``strict_validate=False``): the files' parameter schemata, the environment files
merged in order, the template's sections, the resource count limit, then a stack
that validates parameters, parameter groups, conditions, each resource's definition
and the outputs, without checking property values. The answer is the document an
API user sees (Description, Parameters, ParameterGroups, NestedParameters with
``show_nested``, Environment).

Limits are handed in: the engine reads no configuration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from keel_app.common.exception import (
    ERROR_CODE_MAP,
    RequestLimitExceeded,
    StackResourceLimitExceeded,
    StackValidationFailed,
)
from keel_app.engine.environment import Environment, merge_environments
from keel_app.engine.template import Template, TemplateLimits
from keel_app.engine.template.parameters import ParameterGroups, format_validate_parameter
from keel_app.engine.validate.answer import BadRequest, TemplateInvalid
from keel_app.engine.validate.stack import ValidationStack

STACK_NAME = "dummy"

Answer = dict[str, Any] | BadRequest


def validate_template(
    template: Mapping[str, Any] | None,
    params: dict[str, Any] | None = None,
    files: dict[str, Any] | None = None,
    environment_files: list[str] | None = None,
    show_nested: bool = False,
    ignorable_errors: list[str] | None = None,
    *,
    limits: TemplateLimits,
    context: Any = None,
    global_environment: Any = None,
) -> Answer:
    """Heat's answer for a template: the document, ``{"Error": message}``, or ``BadRequest``.

    ``params`` is the environment document (every section present, user parameters
    under ``parameters``), as the API builds it. ``BadRequest`` is *returned*, as Heat
    returns its ``webob.exc.HTTPBadRequest`` for a missing template and for unknown
    ``ignorable_errors`` codes (spec §1.2); the API layer maps it to HTTP 400. Any other
    error Heat lets escape (an invalid version, a circular dependency, an unavailable
    resource type...) is raised. ``global_environment`` defaults to the process's one.
    """
    try:
        return check_template(
            template,
            params,
            files,
            environment_files,
            show_nested,
            ignorable_errors,
            limits=limits,
            context=context,
            global_environment=global_environment,
        )
    except BadRequest as bad_request:
        return bad_request
    except TemplateInvalid as invalid:
        return invalid.answer()


def check_template(
    template: Mapping[str, Any] | None,
    params: dict[str, Any] | None = None,
    files: dict[str, Any] | None = None,
    environment_files: list[str] | None = None,
    show_nested: bool = False,
    ignorable_errors: list[str] | None = None,
    *,
    limits: TemplateLimits,
    context: Any = None,
    global_environment: Any = None,
) -> dict[str, Any]:
    """validate_template's document; raises ``BadRequest`` and ``TemplateInvalid`` (the
    ``{"Error": ...}`` answers, with the original exception) instead of returning them."""
    if template is None:
        raise BadRequest("No Template provided.")
    if ignorable_errors:
        invalid_codes = set(ignorable_errors) - set(ERROR_CODE_MAP)
        if invalid_codes:
            raise BadRequest(f"Invalid codes in ignore_errors : {list(invalid_codes)}")

    tmpl = Template(
        template, files=files, env=Environment({}, global_env=global_environment), limits=limits
    )
    merge_environments(environment_files, files, params, tmpl.all_param_schemata(files))
    tmpl.env = Environment(params, global_env=global_environment)
    try:
        _validate_template(tmpl, limits)
    except Exception as error:
        raise TemplateInvalid(error) from None

    stack = ValidationStack(context, STACK_NAME, tmpl, strict_validate=False)
    try:
        stack.validate(ignorable_errors=ignorable_errors, validate_res_tmpl_only=True)
    except StackValidationFailed as error:
        raise TemplateInvalid(error) from None

    def not_pseudo(parameter: Any) -> bool:
        return parameter.name not in stack.parameters.PSEUDO_PARAMETERS

    result: dict[str, Any] = {
        "Description": tmpl.get("Description", ""),
        "Parameters": stack.parameters.map(format_validate_parameter, filter_func=not_pseudo),
    }
    groups = ParameterGroups(tmpl)
    if groups.parameter_groups:
        result["ParameterGroups"] = groups.parameter_groups
    if show_nested:
        result.update(stack.get_nested_parameters(not_pseudo))
    result["Environment"] = tmpl.env.user_env_as_dict()
    return result


def _validate_template(tmpl: Any, limits: TemplateLimits) -> None:
    """The template's own sections, then the number of resources against the limit."""
    try:
        tmpl.validate()
    except AssertionError:
        raise
    except Exception as error:
        raise StackValidationFailed(message=str(error)) from None

    if limits.max_resources_per_stack == -1:
        return
    if len(tmpl[tmpl.RESOURCES]) > limits.max_resources_per_stack:
        raise RequestLimitExceeded(message=StackResourceLimitExceeded.msg_fmt)
