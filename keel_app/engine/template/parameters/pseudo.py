"""The two dialects' parameter collections and their pseudo parameters.

HOT: ``OS::stack_id``, ``OS::project_id`` and, once the stack has a name,
``OS::stack_name``. CFN: ``AWS::StackId`` (the stack's ARN, or "None"), and with a name
``AWS::StackName`` and ``AWS::Region`` (always ``ap-southeast-1`` unless given, from
the seven regions Heat lists). ``OS::region`` is reserved by name but never defined.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from keel_app.engine import constraints
from keel_app.engine.template.parameters.collection import Parameters
from keel_app.engine.template.parameters.parameter import Parameter
from keel_app.engine.template.parameters.schema import Schema

CFN_REGIONS = (
    "us-east-1",
    "us-west-1",
    "us-west-2",
    "sa-east-1",
    "eu-west-1",
    "ap-southeast-1",
    "ap-northeast-1",
)


def _text_parameter(name: str, description: str | None, default: str, **extra: Any) -> Parameter:
    return Parameter(name, Schema(Schema.STRING, description, default=default, **extra))


class HOTParameters(Parameters):
    PARAM_STACK_ID = "OS::stack_id"
    PARAM_STACK_NAME = "OS::stack_name"
    PARAM_REGION = "OS::region"
    PARAM_PROJECT_ID = "OS::project_id"
    PSEUDO_PARAMETERS = (PARAM_STACK_ID, PARAM_STACK_NAME, PARAM_REGION, PARAM_PROJECT_ID)

    def _stack_id_text(self, stack_identifier: Any) -> str:
        return stack_identifier.stack_id

    def _pseudo_parameters(self, stack_identifier: Any) -> Iterator[Parameter]:
        stack_id = getattr(stack_identifier, "stack_id", "")
        stack_name = getattr(stack_identifier, "stack_name", "")
        tenant = getattr(stack_identifier, "tenant", "")
        yield _text_parameter(self.PARAM_STACK_ID, "Stack ID", str(stack_id))
        yield _text_parameter(self.PARAM_PROJECT_ID, "Project ID", str(tenant))
        if stack_name:
            yield _text_parameter(self.PARAM_STACK_NAME, "Stack Name", stack_name)


class CfnParameters(Parameters):
    PARAM_STACK_ID = "AWS::StackId"
    PARAM_STACK_NAME = "AWS::StackName"
    PARAM_REGION = "AWS::Region"
    PSEUDO_PARAMETERS = (PARAM_STACK_ID, PARAM_STACK_NAME, PARAM_REGION)

    def _pseudo_parameters(self, stack_identifier: Any) -> Iterator[Parameter]:
        stack_id = stack_identifier.arn() if stack_identifier is not None else "None"
        stack_name = stack_identifier and stack_identifier.stack_name
        yield _text_parameter(self.PARAM_STACK_ID, "Stack ID", str(stack_id))
        if stack_name:
            yield _text_parameter(self.PARAM_STACK_NAME, "Stack Name", stack_name)
            yield _text_parameter(
                self.PARAM_REGION,
                None,
                "ap-southeast-1",
                constraints=[constraints.AllowedValues(list(CFN_REGIONS))],
            )
