"""The CFN actions on stacks: list, describe, create, update, delete, cancel, templates.

Each reshapes the engine's answer into the AWS data type Heat gives (``StackSummary``,
``Stack``, ...), with the keys in Heat's order.
"""

from __future__ import annotations

from typing import Any

from keel_app.common.identifier import HeatIdentifier
from keel_app.web.cfn import errors
from keel_app.web.cfn.parameters import extract_param_pairs, reformat_dict_keys
from keel_app.web.cfn.util import (
    context,
    enforce,
    engine,
    format_response,
    id_format,
    joined_status,
    params,
    parsed_template,
    required,
    stack_identity,
)

Answer = dict[str, Any] | errors.CfnError

SUMMARY_KEYS = {
    "creation_time": "CreationTime",
    "updated_time": "LastUpdatedTime",
    "stack_identity": "StackId",
    "stack_name": "StackName",
    "stack_status_reason": "StackStatusReason",
    "template_description": "TemplateDescription",
}

STACK_KEYS = {
    "capabilities": "Capabilities",
    "creation_time": "CreationTime",
    "description": "Description",
    "disable_rollback": "DisableRollback",
    "notification_topics": "NotificationARNs",
    "parameters": "Parameters",
    "stack_identity": "StackId",
    "stack_name": "StackName",
    "stack_status_reason": "StackStatusReason",
    "timeout_mins": "TimeoutInMinutes",
}

OUTPUT_KEYS = {
    "description": "Description",
    "output_key": "OutputKey",
    "output_value": "OutputValue",
}

# CreateStack/UpdateStack parameters the engine takes as arguments, under its names.
STACK_ARGUMENTS = {"TimeoutInMinutes": "timeout_mins", "DisableRollback": "disable_rollback"}


def list_stacks() -> Answer:
    enforce("ListStacks")
    try:
        stacks = engine().list_stacks(context())
    except Exception as error:
        return errors.map_remote_error(error)
    return format_response("ListStacks", {"StackSummaries": [stack_summary(s) for s in stacks]})


def stack_summary(stack: dict[str, Any]) -> dict[str, Any]:
    result = reformat_dict_keys(SUMMARY_KEYS, stack)
    result["StackStatus"] = joined_status(stack, "stack_action", "stack_status")
    if "deletion_time" in stack:
        result["DeletionTime"] = stack["deletion_time"]
    return id_format(result)


def describe_stacks() -> Answer:
    enforce("DescribeStacks")
    given = params()
    try:
        identity = stack_identity(given.get("StackName")) if "StackName" in given else None
        stacks = engine().show_stack(context(), identity)
    except Exception as error:
        return errors.map_remote_error(error)
    return format_response("DescribeStacks", {"Stacks": [stack_detail(s) for s in stacks]})


def colons_to_dots(values: dict[str, Any]) -> dict[str, Any]:
    """Keys with ``:`` turned into ``.`` at every depth, so XML reads no namespace in them."""
    return {
        key.replace(":", "."): colons_to_dots(value) if isinstance(value, dict) else value
        for key, value in values.items()
    }


def stack_detail(stack: dict[str, Any]) -> dict[str, Any]:
    keymap = dict(STACK_KEYS)
    if stack["updated_time"] is not None:
        keymap["updated_time"] = "LastUpdatedTime"
    result = reformat_dict_keys(keymap, stack)
    result["StackStatus"] = joined_status(stack, "stack_action", "stack_status")
    result["Outputs"] = [
        reformat_dict_keys(OUTPUT_KEYS, colons_to_dots(output))
        for output in stack.get("outputs", [])
    ]
    result["Parameters"] = [
        {"ParameterKey": key, "ParameterValue": value}
        for key, value in result["Parameters"].items()
    ]
    return id_format(result)


def create_stack() -> Answer:
    enforce("CreateStack")
    return create_or_update("CreateStack")


def update_stack() -> Answer:
    enforce("UpdateStack")
    return create_or_update("UpdateStack")


def stack_arguments() -> dict[str, Any]:
    given = params()
    if "DisableRollback" in given and "OnFailure" in given:
        raise errors.HeatInvalidParameterCombinationError(
            detail="DisableRollback and OnFailure may not be used together"
        )
    arguments = {name: given.get(key) for key, name in STACK_ARGUMENTS.items() if key in given}
    on_failure = given.get("OnFailure")
    if on_failure == "DO_NOTHING":
        arguments["disable_rollback"] = "true"
    elif on_failure in ("ROLLBACK", "DELETE"):
        arguments["disable_rollback"] = "false"
    return arguments


def create_or_update(action: str) -> Answer:
    stack_parameters = extract_param_pairs(params(), "Parameters", "ParameterKey", "ParameterValue")
    arguments = stack_arguments()
    template = parsed_template()
    if isinstance(template, errors.CfnError):
        return template
    stack_name = required("StackName")
    try:
        if action == "CreateStack":
            result = engine().create_stack(
                context(), stack_name, template, stack_parameters, {}, arguments
            )
        else:
            result = engine().update_stack(
                context(), stack_identity(stack_name), template, stack_parameters, {}, arguments
            )
    except Exception as error:
        return errors.map_remote_error(error)
    try:
        response = {"StackId": HeatIdentifier(**result).arn()}
    except (ValueError, TypeError):
        response = result
    return format_response(action, response)


def cancel_update_stack() -> Answer:
    enforce("CancelUpdateStack")
    stack_name = required("StackName")
    try:
        engine().stack_cancel_update(
            context(), stack_identity(stack_name), cancel_with_rollback=True
        )
    except Exception as error:
        return errors.map_remote_error(error)
    return format_response("CancelUpdateStack", {})


def get_template() -> Answer:
    enforce("GetTemplate")
    stack_name = required("StackName")
    try:
        template = engine().get_template(context(), stack_identity(stack_name))
    except Exception as error:
        return errors.map_remote_error(error)
    return format_response("GetTemplate", {"TemplateBody": template})


def estimate_template_cost() -> Answer:
    enforce("EstimateTemplateCost")
    return format_response("EstimateTemplateCost", {"Url": "http://en.wikipedia.org/wiki/Gratis"})


def validate_template() -> Answer:
    enforce("ValidateTemplate")
    template = parsed_template()
    if isinstance(template, errors.CfnError):
        return template
    try:
        result = engine().validate_template(context(), template)
    except Exception as error:
        return errors.map_remote_error(error)
    if "Error" in result:
        return format_response("ValidateTemplate", result["Error"])
    result["Parameters"] = [
        {
            "ParameterKey": key,
            "DefaultValue": value.get("Default", ""),
            "Description": value.get("Description", ""),
            "NoEcho": value.get("NoEcho", "false"),
        }
        for key, value in result["Parameters"].items()
    ]
    return format_response("ValidateTemplate", result)


def delete_stack() -> Answer:
    enforce("DeleteStack")
    stack_name = required("StackName")
    try:
        result = engine().delete_stack(context(), stack_identity(stack_name), cast=False)
    except Exception as error:
        return errors.map_remote_error(error)
    if result is None:
        return format_response("DeleteStack", "")
    return format_response("DeleteStack", result["Error"])
