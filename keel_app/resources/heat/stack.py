"""Stacks as resources: OS::Heat::Stack and AWS::CloudFormation::Stack.

OS::Heat::Stack makes a stack of its own (not nested: no owner) through the Heat API of
the region its ``context`` names. OpenKeel makes it through its own engine, so only
in its own region: another region (or a remote cloud's credentials) fails validation
with Heat's "Cannot establish connection to Heat endpoint" error. Errors of the
engine's calls read as heatclient shows the API's answers (``HTTPBadRequest``,
``ERROR: ...``).

AWS::CloudFormation::Stack is a nested stack of the template at ``TemplateURL``
(fetched over http or https), with ``Parameters`` and ``TimeoutInMinutes``; its
attributes are ``Outputs.<name>`` and its reference is the nested stack's ARN.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from keel_app.common import exception, urlfetch
from keel_app.common.exception import InvalidTemplateAttribute, StackValidationFailed
from keel_app.common.fault_map import http_error_for
from keel_app.engine.environment import get_child_environment
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource, service_catalog
from keel_app.engine.resource.nested_stack import EngineCalls
from keel_app.engine.resource.stack_resource import StackResource
from keel_app.engine.template import DEFAULT_LIMITS
from keel_app.engine.template import format as template_format
from keel_app.engine.template.functions.references import select_from_attribute
from keel_app.engine.validate import service as validate_service
from keel_app.engine.validate.answer import BadRequest

# heat.conf's template_fetch_timeout default (seconds).
TEMPLATE_FETCH_TIMEOUT = 60
ONLY_LOCAL = "OpenKeel creates OS::Heat::Stack stacks through its own engine, in its own region"
ORCHESTRATION, KEY_MANAGER = "orchestration", "key-manager"


class RemoteEndpointUnavailable(Exception):
    """Why the Heat endpoint of another region or cloud cannot be reached from here."""


def _api_error(error: Exception, http_error: str | None = None) -> Exception:
    """``error`` as heatclient raises the API's answer to it: the HTTP error's class
    name, and the message's first line after "ERROR: "."""
    name = http_error or http_error_for(type(error)).name
    message = str(error).split("\n", 1)[0]
    return type(name, (Exception,), {})(f"ERROR: {message}")


def _require_endpoint(catalog: Any, service_type: str, region: Any) -> None:
    """keystoneauth's EndpointNotFound when the catalog has no such public endpoint."""
    if service_catalog.endpoint_exists(catalog, service_type, region_name=region):
        return
    where = f" in {region} region" if region else ""
    raise RemoteEndpointUnavailable(f"public endpoint for {service_type} service{where} not found")


@contextlib.contextmanager
def api_errors() -> Iterator[None]:
    try:
        yield
    except Exception as error:
        raise _api_error(error) from None


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

    def _context_properties(self) -> Any:
        return self.properties.get(self.CONTEXT) or {}

    def _region_name(self) -> Any:
        region = self._context_properties().get(self.REGION_NAME)
        return region or getattr(self.context, "region_name", None)

    def _location(self) -> str:
        if self._context_properties().get(self.CREDENTIAL_SECRET_ID):
            return "remote cloud"
        return f'region "{self._region_name()}"'

    def _check_local(self) -> None:
        """Raise unless the stack is made where this engine runs (Heat would reach the Heat
        API of another region, or of another cloud with credentials from Barbican)."""
        catalog = service_catalog.context_catalog(self.context)
        own_region = getattr(self.context, "region_name", None)
        if self._context_properties().get(self.CREDENTIAL_SECRET_ID):
            _require_endpoint(catalog, KEY_MANAGER, own_region)
            raise RemoteEndpointUnavailable(ONLY_LOCAL)
        region = self._context_properties().get(self.REGION_NAME)
        if not region or region == own_region:
            return
        _require_endpoint(catalog, ORCHESTRATION, region)
        regions = {
            endpoint.get("region")
            for service in catalog
            if service.get("type") == ORCHESTRATION
            for endpoint in service.get("endpoints", [])
        }
        # Without a region of its own, the engine is in the catalog's only region.
        if own_region is not None or regions != {region}:
            raise RemoteEndpointUnavailable(ONLY_LOCAL)

    def _stack_arguments(self) -> dict[str, Any]:
        parameters = self.properties[self.PARAMETERS]
        environment = get_child_environment(self.stack.env, parameters)
        return {
            "template": template_format.parse(self.properties[self.TEMPLATE]),
            "params": environment.user_env_as_dict(),
            "files": dict(self.stack.t.files),
        }

    def validate(self) -> Any:
        result = super().validate()
        location = self._location()
        try:
            self._check_local()
        except Exception as error:
            message = f'Cannot establish connection to Heat endpoint at {location} due to "{error}"'
            raise StackValidationFailed(message=message) from None
        try:
            arguments = self._stack_arguments()
            answer = validate_service.validate_template(
                arguments["template"],
                arguments["params"],
                arguments["files"],
                None,
                False,
                None,
                limits=getattr(self.stack, "limits", DEFAULT_LIMITS),
                context=self.context,
            )
            # The API answers both with a 400.
            if isinstance(answer, BadRequest):
                raise _api_error(answer, "HTTPBadRequest")
            if isinstance(answer, dict) and "Error" in answer:
                raise _api_error(ValueError(answer["Error"]), "HTTPBadRequest")
        except Exception as error:
            raise StackValidationFailed(
                message=(
                    f"Failed validating stack template using Heat endpoint at {location} "
                    f'due to "{error}"'
                )
            ) from None
        return result

    def handle_create(self) -> None:
        self._check_local()
        arguments = self._stack_arguments()
        arguments.update(
            stack_name=self.physical_resource_name() or self.FnGetRefId(),
            args={"timeout_mins": self.properties[self.TIMEOUT], "disable_rollback": True},
        )
        with api_errors():
            identity = EngineCalls.of(self).create_stack(**arguments)
        self.resource_id_set(identity["stack_id"])

    def _identity(self) -> dict[str, str]:
        engine = EngineCalls.of(self)
        identity = engine.call("stacks", "identify_stack", stack_name=self.resource_id)
        return identity  # type: ignore[no-any-return]

    def _show(self, resolve_outputs: bool = True) -> dict[str, Any]:
        engine = EngineCalls.of(self)
        with api_errors():
            (shown,) = engine.call(
                "stacks",
                "show_stack",
                stack_identity=self._identity(),
                resolve_outputs=resolve_outputs,
            )
        return shown  # type: ignore[no-any-return]

    def _check_action_complete(self, action: str) -> bool:
        shown = self._show(resolve_outputs=False)
        if shown["stack_action"] != action:
            return False
        status = shown["stack_status"]
        if status == self.IN_PROGRESS:
            return False
        if status == self.COMPLETE:
            return True
        stack_status = f"{shown['stack_action']}_{status}"
        if status == self.FAILED:
            raise exception.ResourceInError(
                resource_status=stack_status, status_reason=shown["stack_status_reason"]
            )
        raise exception.ResourceUnknownStatus(
            resource_status=stack_status, status_reason=shown["stack_status_reason"]
        )

    def check_create_complete(self, token: Any = None) -> bool:
        return self._check_action_complete(self.CREATE)

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> None:
        # Always sent on: the stack's own resources decide what changes.
        if self.resource_id is None:
            return
        self.properties = json_snippet.properties(self.properties_schema, self.context)
        arguments = self._stack_arguments()
        arguments.update(
            stack_identity=self._identity(),
            args={
                "timeout_mins": self.properties[self.TIMEOUT],
                "disable_rollback": self.stack.disable_rollback,
            },
        )
        with api_errors():
            EngineCalls.of(self).update_stack(**arguments)

    def check_update_complete(self, token: Any = None) -> bool:
        if self.resource_id is None:
            return True
        return self._check_action_complete(self.UPDATE)

    def handle_delete(self) -> Any:
        if self.resource_id is None:
            return None
        try:
            with api_errors():
                EngineCalls.of(self).delete_stack(self._identity())
        except Exception as error:
            if type(error).__name__ != "HTTPNotFound":
                raise
        return self.resource_id

    def check_delete_complete(self, deleting_id: Any = None) -> bool:
        if deleting_id is None:
            return True
        try:
            return self._check_action_complete(self.DELETE)
        except Exception as error:
            if type(error).__name__ != "HTTPNotFound":
                raise
        return True

    def _needs_update(
        self,
        after: Any,
        before: Any,
        after_properties: Any,
        before_properties: Any,
        prev_resource: Any,
        check_init_complete: bool = True,
    ) -> bool:
        # A stack that failed its check is made anew.
        if self.state == (self.CHECK, self.FAILED):
            raise exception.UpdateReplace(str(self))
        return True

    def needs_replace_with_prop_diff(
        self, changed_properties_set: Any, after_props: Any, before_props: Any
    ) -> Any:
        # The region cannot change in place.
        if self.CONTEXT not in changed_properties_set:
            return False
        after_region = (after_props.get(self.CONTEXT) or {}).get(self.REGION_NAME)
        before_region = (before_props.get(self.CONTEXT) or {}).get(self.REGION_NAME)
        return after_region != before_region

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        shown = self._show()
        if name == self.NAME_ATTR:
            return shown.get("stack_name") or self.physical_resource_name() or self.FnGetRefId()
        if name == self.OUTPUTS:
            return {
                output["output_key"]: output.get("output_value")
                for output in shown.get("outputs") or []
            }
        return None

    def get_reference_id(self) -> Any:
        return self.resource_id


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

    def child_template(self) -> Any:
        url = self.properties[self.TEMPLATE_URL]
        limits = getattr(self.stack, "limits", DEFAULT_LIMITS)
        try:
            data = urlfetch.get(
                url, timeout=TEMPLATE_FETCH_TIMEOUT, max_size=limits.max_template_size
            )
        except OSError as error:
            raise ValueError(f"Could not fetch remote template '{url}': {error}") from None
        return template_format.parse(data, url, limits=limits)

    def child_params(self) -> Any:
        return self.properties[self.PARAMETERS]

    def handle_create(self) -> None:
        self.create_with_template(
            self.child_template(), self.child_params(), self.properties[self.TIMEOUT_IN_MINS]
        )

    def handle_adopt(self, resource_data: Any = None) -> None:
        self.create_with_template(
            self.child_template(),
            self.child_params(),
            self.properties[self.TIMEOUT_IN_MINS],
            adopt_data=resource_data,
        )

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        # The template at the URL may have changed even when no property did.
        self.properties = json_snippet.properties(self.properties_schema, self.context)
        return self.update_child()

    def update_child(self) -> dict[str, Any]:
        return self.update_with_template(
            self.child_template(),
            self.properties[self.PARAMETERS],
            self.properties[self.TIMEOUT_IN_MINS],
        )

    def get_attribute(self, key: str, *path: Any) -> Any:
        # Only the nested stack's outputs are attributes ("Outputs.<name>").
        if key and not key.startswith("Outputs."):
            raise InvalidTemplateAttribute(resource=self.name, key=key)
        try:
            value = self.get_output(key.partition(".")[-1])
        except exception.NotFound:
            raise InvalidTemplateAttribute(resource=self.name, key=key) from None
        return select_from_attribute(value, list(path))

    def get_reference_id(self) -> str:
        identity = self.nested_identifier()
        if identity is None:
            return str(self.name)
        return identity.arn()
