"""The CFN actions on a stack's resources and events, in Heat's AWS data types
(``StackEvent``, ``StackResourceDetail``, ``StackResource``, ``StackResourceSummary``)."""

from __future__ import annotations

import json
from typing import Any

from keel_app.common.identifier import ResourceIdentifier
from keel_app.web.cfn import errors
from keel_app.web.cfn.parameters import reformat_dict_keys
from keel_app.web.cfn.util import (
    context,
    enforce,
    engine,
    format_response,
    id_format,
    joined_status,
    params,
    required,
    stack_identity,
)

Answer = dict[str, Any] | errors.CfnError

EVENT_KEYS = {
    "event_identity": "EventId",
    "resource_name": "LogicalResourceId",
    "physical_resource_id": "PhysicalResourceId",
    "resource_properties": "ResourceProperties",
    "resource_status_reason": "ResourceStatusReason",
    "resource_type": "ResourceType",
    "stack_identity": "StackId",
    "stack_name": "StackName",
    "event_time": "Timestamp",
}

RESOURCE_DETAIL_KEYS = {
    "description": "Description",
    "updated_time": "LastUpdatedTimestamp",
    "resource_name": "LogicalResourceId",
    "metadata": "Metadata",
    "physical_resource_id": "PhysicalResourceId",
    "resource_status_reason": "ResourceStatusReason",
    "resource_type": "ResourceType",
    "stack_identity": "StackId",
    "stack_name": "StackName",
}

STACK_RESOURCE_KEYS = {
    "description": "Description",
    "resource_name": "LogicalResourceId",
    "physical_resource_id": "PhysicalResourceId",
    "resource_status_reason": "ResourceStatusReason",
    "resource_type": "ResourceType",
    "stack_identity": "StackId",
    "stack_name": "StackName",
    "updated_time": "Timestamp",
}

RESOURCE_SUMMARY_KEYS = {
    "updated_time": "LastUpdatedTimestamp",
    "resource_name": "LogicalResourceId",
    "physical_resource_id": "PhysicalResourceId",
    "resource_status_reason": "ResourceStatusReason",
    "resource_type": "ResourceType",
}


def resource_status(resource: dict[str, Any]) -> str:
    return joined_status(resource, "resource_action", "resource_status")


def stack_event(event: dict[str, Any]) -> dict[str, Any]:
    result = reformat_dict_keys(EVENT_KEYS, event)
    result["ResourceStatus"] = resource_status(event)
    # The engine lists events without their properties (it sends them for one event
    # only); Heat's formatting then fails on every event, ours leaves the key out.
    if "ResourceProperties" in result:
        result["ResourceProperties"] = json.dumps(result["ResourceProperties"])
    return id_format(result)


def describe_stack_events() -> Answer:
    enforce("DescribeStackEvents")
    stack_name = params().get("StackName")
    try:
        identity = stack_name and stack_identity(stack_name)
        events = engine().list_events(context(), identity)
    except Exception as error:
        return errors.map_remote_error(error)
    return format_response(
        "DescribeStackEvents", {"StackEvents": [stack_event(event) for event in events]}
    )


def describe_stack_resource() -> Answer:
    enforce("DescribeStackResource")
    stack_name = required("StackName")
    try:
        detail = engine().describe_stack_resource(
            context(),
            stack_identity=stack_identity(stack_name),
            resource_name=params().get("LogicalResourceId"),
        )
    except Exception as error:
        return errors.map_remote_error(error)
    result = reformat_dict_keys(RESOURCE_DETAIL_KEYS, detail)
    result["ResourceStatus"] = resource_status(detail)
    return format_response("DescribeStackResource", {"StackResourceDetail": id_format(result)})


def describe_stack_resources() -> Answer:
    enforce("DescribeStackResources")
    given = params()
    stack_name = given.get("StackName")
    physical_resource_id = given.get("PhysicalResourceId")
    if stack_name and physical_resource_id:
        return errors.HeatInvalidParameterCombinationError(
            detail="Use `StackName` or `PhysicalResourceId` but not both"
        )
    try:
        if stack_name is not None:
            identity = stack_identity(stack_name)
        else:
            # The engine finds the resource; its stack is what the listing wants (Heat
            # passes the resource's own identity, which no stack lookup ever matches).
            found = engine().find_physical_resource(
                context(), physical_resource_id=physical_resource_id
            )
            identity = dict(ResourceIdentifier(**found).stack())
        resources = engine().describe_stack_resources(
            context(), stack_identity=identity, resource_name=given.get("LogicalResourceId")
        )
    except Exception as error:
        return errors.map_remote_error(error)
    result = []
    for resource in resources:
        formatted = reformat_dict_keys(STACK_RESOURCE_KEYS, resource)
        formatted["ResourceStatus"] = resource_status(resource)
        result.append(id_format(formatted))
    return format_response("DescribeStackResources", {"StackResources": result})


def list_stack_resources() -> Answer:
    enforce("ListStackResources")
    stack_name = required("StackName")
    try:
        resources = engine().list_stack_resources(
            context(), stack_identity=stack_identity(stack_name)
        )
    except Exception as error:
        return errors.map_remote_error(error)
    summaries = []
    for resource in resources:
        summary = reformat_dict_keys(RESOURCE_SUMMARY_KEYS, resource)
        summary["ResourceStatus"] = resource_status(resource)
        summaries.append(summary)
    return format_response("ListStackResources", {"StackResourceSummaries": summaries})
