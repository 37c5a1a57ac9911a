"""The templates the CFN tests create stacks from: no-cloud resources only."""

from __future__ import annotations

from typing import Any

CFN_TEMPLATE: dict[str, Any] = {
    "AWSTemplateFormatVersion": "2010-09-09",
    "Description": "a stack for the CFN API",
    "Parameters": {
        "Greeting": {"Type": "String", "Default": "hello", "Description": "what to say"},
        "Secret": {"Type": "String", "Default": "hidden", "NoEcho": "true"},
    },
    "Resources": {
        "Value": {
            "Type": "OS::Heat::Value",
            "Properties": {"value": {"Ref": "Greeting"}},
            "Metadata": {"config:files": {"/etc/motd": {"content": "hi"}}},
        },
        "Handle": {"Type": "AWS::CloudFormation::WaitConditionHandle"},
    },
    "Outputs": {
        "Said": {"Value": {"Fn::GetAtt": ["Value", "value"]}, "Description": "what was said"},
        "Nested": {"Value": {"a:b": {"c:d": "e"}, "list": [1, "two"]}},
    },
}

UPDATED_TEMPLATE: dict[str, Any] = {
    **CFN_TEMPLATE,
    "Resources": {"Handle": {"Type": "AWS::CloudFormation::WaitConditionHandle"}},
    "Outputs": {},
}
