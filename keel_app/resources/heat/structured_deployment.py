"""OS::Heat::StructuredDeployment and its group (and the group's hidden alias
OS::Heat::StructuredDeployments): deployments of a structured config (a map) whose
inputs are substituted into the config itself.

For tools that know no inputs (cfn-init reads plain JSON), the derived config is the
config with every ``{get_input: <name>}`` (the key is ``input_key``) replaced by the
input's value; a name with no input is None, or with ``input_values_validate: STRICT``
Heat's UserParameterMissing.
"""

from __future__ import annotations

import collections.abc
from typing import Any

from keel_app.common.exception import UserParameterMissing
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.resources.heat import deployment_inputs
from keel_app.resources.heat.software_deployment import SoftwareDeployment
from keel_app.resources.heat.software_deployment_group import SoftwareDeploymentGroup

INPUT_KEY, INPUT_VALUES_VALIDATE = "input_key", "input_values_validate"
LAX, STRICT = "LAX", "STRICT"

input_key_schema = Schema(
    Schema.STRING,
    "Name of key to use for substituting inputs during deployment.",
    default="get_input",
)
input_values_validate_schema = Schema(
    Schema.STRING,
    "Perform a check on the input values passed to verify that each required input has a "
    "corresponding value. When the property is set to STRICT and no value is passed, an "
    "exception is raised.",
    default=LAX,
    constraints=[constraints.AllowedValues([LAX, STRICT])],
)


def input_key_argument(snippet: collections.abc.Mapping[str, Any], input_key: str) -> Any:
    """The input a ``{<input_key>: <name>}`` mapping names, None for any other mapping."""
    if len(snippet) != 1:
        return None
    name, argument = next(iter(snippet.items()))
    if name == input_key and isinstance(argument, str):
        return argument
    return None


def substitute_inputs(
    inputs: dict[str, Any], input_key: str, snippet: Any, check_input_values: str = LAX
) -> Any:
    """``snippet`` with each input reference replaced by the input's value."""
    if isinstance(snippet, collections.abc.Mapping):
        name = input_key_argument(snippet, input_key)
        if name is not None:
            if check_input_values == STRICT and name not in inputs:
                raise UserParameterMissing(key=name)
            return inputs.get(name)
        return {
            key: substitute_inputs(inputs, input_key, value, check_input_values)
            for key, value in snippet.items()
        }
    if not isinstance(snippet, str) and isinstance(snippet, collections.abc.Iterable):
        return [
            substitute_inputs(inputs, input_key, value, check_input_values) for value in snippet
        ]
    return snippet


class StructuredDeployment(SoftwareDeployment):
    """A deployment of a structured config, its inputs substituted into the config."""

    support_status = SupportStatus(version="2014.1")
    type_description = """\
A resource which has same logic with OS::Heat::SoftwareDeployment.

A deployment resource like OS::Heat::SoftwareDeployment, but which
performs input value substitution on the config defined by a
OS::Heat::StructuredConfig resource.

Some configuration tools have no concept of inputs, so the input value
substitution needs to occur in the deployment resource. An example of this
is the JSON metadata consumed by the cfn-init tool.

Where the config contains {get_input: input_name} this will be substituted
with the value of input_name in this resource's input_values. If get_input
needs to be passed through to the substituted configuration then a
different input_key property value can be specified.
"""

    PROPERTIES = (  # type: ignore[assignment]
        SoftwareDeployment.CONFIG,
        SoftwareDeployment.SERVER,
        SoftwareDeployment.INPUT_VALUES,
        SoftwareDeployment.DEPLOY_ACTIONS,
        SoftwareDeployment.NAME,
        SoftwareDeployment.SIGNAL_TRANSPORT,
        INPUT_KEY,
        INPUT_VALUES_VALIDATE,
    )
    INPUT_KEY, INPUT_VALUES_VALIDATE = INPUT_KEY, INPUT_VALUES_VALIDATE

    properties_schema = {
        **SoftwareDeployment.properties_schema,
        INPUT_KEY: input_key_schema,
        INPUT_VALUES_VALIDATE: input_values_validate_schema,
    }

    def empty_config(self) -> Any:
        return {}

    def _build_derived_config(
        self, action: str, source: dict[str, Any], inputs: list[dict[str, Any]], options: Any
    ) -> Any:
        return substitute_inputs(
            deployment_inputs.input_values(inputs),
            self.properties[self.INPUT_KEY],
            source.get("config"),
            self.properties[self.INPUT_VALUES_VALIDATE],
        )


class StructuredDeploymentGroup(SoftwareDeploymentGroup):
    """A structured deployment to each of a map of servers."""

    support_status = SupportStatus(version="5.0.0")
    type_description = """\
This resource associates a group of servers with some configuration.

This resource works similar as OS::Heat::SoftwareDeploymentGroup, but for
structured resources.
"""

    member_type = "OS::Heat::StructuredDeployment"

    PROPERTIES = (  # type: ignore[assignment]
        *SoftwareDeploymentGroup.PROPERTIES,
        INPUT_KEY,
        INPUT_VALUES_VALIDATE,
    )
    INPUT_KEY, INPUT_VALUES_VALIDATE = INPUT_KEY, INPUT_VALUES_VALIDATE

    properties_schema = {
        **SoftwareDeploymentGroup.properties_schema,
        INPUT_KEY: input_key_schema,
        INPUT_VALUES_VALIDATE: input_values_validate_schema,
    }


class StructuredDeployments(StructuredDeploymentGroup):
    """The group's name before 5.0.0, hidden since 7.0.0."""

    support_status = SupportStatus(
        status="HIDDEN",
        message="Please use OS::Heat::StructuredDeploymentGroup instead.",
        version="7.0.0",
        previous_status=SupportStatus(status="DEPRECATED", version="2014.2"),
        substitute_class=StructuredDeploymentGroup,
    )


RESOURCE_CLASSES = {
    "OS::Heat::StructuredDeployment": StructuredDeployment,
    "OS::Heat::StructuredDeploymentGroup": StructuredDeploymentGroup,
    "OS::Heat::StructuredDeployments": StructuredDeployments,
}
