"""Stacks as resources: OS::Heat::Stack (through a Heat API, possibly in another region or
cloud) and AWS::CloudFormation::Stack (a nested stack from a template URL).

Declarations only: fetching templates, talking to the remote Heat API, validating the
child stack and the whole life cycle arrive with the engine. OS::Heat::Stack needs the
orchestration service in the caller's catalog, as in Heat.
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import InvalidTemplateAttribute
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.engine.resource.stack_resource import StackResource


class RemoteStack(Resource):
    """A stack created through the orchestration API, in this or another region/cloud."""

    default_client_name = "heat"
    entity = "stacks"
    type_description = """\
A Resource representing a stack.

A resource that allowing for the creating stack, where should be defined
stack template in HOT format, parameters (if template has any parameters
with no default value), and timeout of creating. After creating current
stack will have remote stack.
"""

    PROPERTIES = (CONTEXT, TEMPLATE, TIMEOUT, PARAMETERS) = (
        "context",
        "template",
        "timeout",
        "parameters",
    )
    ATTRIBUTES = (NAME_ATTR, OUTPUTS) = ("stack_name", "outputs")
    CONTEXT_KEYS = (REGION_NAME, CREDENTIAL_SECRET_ID, CA_CERT, SSL_INSECURE) = (
        "region_name",
        "credential_secret_id",
        "ca_cert",
        "insecure",
    )

    properties_schema = {
        CONTEXT: Schema(
            Schema.MAP,
            "Context for this stack.",
            update_allowed=True,
            schema={
                REGION_NAME: Schema(
                    Schema.STRING,
                    "Region name in which this stack will be created.",
                    required=False,
                ),
                CREDENTIAL_SECRET_ID: Schema(
                    Schema.STRING,
                    "A Barbican secret ID. The Barbican secret should contain an OpenStack "
                    "credential that can be used to access a remote cloud.",
                    required=False,
                    update_allowed=True,
                    support_status=SupportStatus(version="12.0.0"),
                ),
                CA_CERT: Schema(
                    Schema.STRING,
                    "CA Cert for SSL.",
                    required=False,
                    update_allowed=True,
                    support_status=SupportStatus(version="12.0.0"),
                ),
                SSL_INSECURE: Schema(
                    Schema.BOOLEAN,
                    "If set, then the server's certificate will not be verified.",
                    default=False,
                    required=False,
                    update_allowed=True,
                    support_status=SupportStatus(version="12.0.0"),
                ),
            },
        ),
        TEMPLATE: Schema(
            Schema.STRING,
            "Template that specifies the stack to be created as a resource.",
            required=True,
            update_allowed=True,
        ),
        TIMEOUT: Schema(
            Schema.INTEGER,
            "Number of minutes to wait for this stack creation.",
            update_allowed=True,
        ),
        PARAMETERS: Schema(
            Schema.MAP,
            "Set of parameters passed to this stack.",
            default={},
            update_allowed=True,
        ),
    }

    attributes_schema = {
        NAME_ATTR: AttributeSchema("Name of the stack.", type=AttributeSchema.STRING),
        OUTPUTS: AttributeSchema(
            "A dict of key-value pairs output from the stack.", type=AttributeSchema.MAP
        ),
    }


class NestedStack(StackResource):
    """A child stack from a template URL, with its parameters and timeout."""

    type_description = "Represents a child stack to allow composition of templates."

    PROPERTIES = (TEMPLATE_URL, TIMEOUT_IN_MINS, PARAMETERS) = (
        "TemplateURL",
        "TimeoutInMinutes",
        "Parameters",
    )

    properties_schema = {
        TEMPLATE_URL: Schema(
            Schema.STRING,
            "The URL of a template that specifies the stack to be created as a resource.",
            required=True,
            update_allowed=True,
        ),
        TIMEOUT_IN_MINS: Schema(
            Schema.INTEGER,
            "The length of time, in minutes, to wait for the nested stack creation.",
            update_allowed=True,
        ),
        PARAMETERS: Schema(
            Schema.MAP,
            "The set of parameters passed to this nested stack.",
            update_allowed=True,
        ),
    }

    def get_attribute(self, key: str, *path: Any) -> Any:
        # Only the nested stack's outputs are attributes ("Outputs.<name>"); their
        # values come with the engine.
        if key and not key.startswith("Outputs."):
            raise InvalidTemplateAttribute(resource=self.name, key=key)
        return None
