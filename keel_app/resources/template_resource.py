"""Template resources: a resource type implemented by another template (a nested stack).

The type is a template's file name or URL (``type: server.yaml``), or a registry
mapping to one (``My::Server: server.yaml``). The nested template's parameters are the
resource's properties and its outputs are the resource's attributes. The template's
text comes from the stack's files map, else it is fetched (only over the schemes the
registry entry allows: a user's entries http and https, the operator's also file),
else it is the nested stack's stored template.

Creating and updating the resource create and update its nested stack with the
property values as parameters; its reference is the nested stack's ``OS::stack_id``
output when it has one, else the nested stack's ARN.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from keel_app.common.exception import (
    EntityNotFound,
    InvalidTemplateAttribute,
    NotFound,
    StackValidationFailed,
    TemplateOutputError,
)
from keel_app.engine.environment import TemplateResourceInfo
from keel_app.engine.properties import Properties, Schema, schemata
from keel_app.engine.resource.attributes import Attributes
from keel_app.engine.resource.attributes import Schema as AttributeSchema
from keel_app.engine.resource.stack_resource import StackResource
from keel_app.engine.template import DEFAULT_LIMITS, Template, TemplateLimits
from keel_app.engine.template import format as template_format
from keel_app.engine.template.functions.references import select_from_attribute
from keel_app.resources import group_members

LOG = logging.getLogger(__name__)

REMOTE_SCHEMES = ("http", "https")
LOCAL_SCHEMES = ("file",)
TEMPLATE_SUFFIXES = (".yaml", ".template")
STACK_ID_OUTPUT = "OS::stack_id"
EMPTY_TEMPLATE = {"HeatTemplateFormatVersion": "2012-12-12"}


def fetch_template(url: str, allowed_schemes: tuple[str, ...], limits: TemplateLimits) -> bytes:
    """The data at ``url``, over an allowed scheme; IOError when it cannot be had."""
    scheme = urllib.parse.urlparse(url).scheme
    if scheme not in allowed_schemes:
        raise OSError(f"Invalid URL scheme {scheme}")
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            # Read one byte past the limit: enough to know it is too large.
            data = bytes(response.read(limits.max_template_size + 1))
    except (urllib.error.URLError, OSError) as error:
        if scheme == "file":
            raise OSError(f"Failed to retrieve template: {error}") from None
        raise OSError(f"Failed to retrieve template from {url}") from None
    if len(data) > limits.max_template_size:
        raise OSError(f"Template exceeds maximum allowed size ({limits.max_template_size} bytes)")
    return data


def schemas_of(template: Any, param_defaults: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """(properties schema, attributes schema) of a resource implemented by ``template``."""
    properties = Properties.schema_from_params(template.param_schemata(param_defaults))
    outputs = template[template.OUTPUTS]
    # Heat reads the CFN key, so a HOT output's description never shows here.
    attributes = {
        name: AttributeSchema(output.get("Description")) for name, output in outputs.items()
    }
    return properties, attributes


class TemplateResource(StackResource):
    """A resource implemented by a nested stack of the named template."""

    def __init__(self, name: str, definition: Any, stack: Any) -> None:
        self._parsed_nested: dict[str, Any] | None = None
        self.stack = stack
        self.validation_exception: Exception | None = None
        self.resource_info = self._get_resource_info(definition)
        self.properties_schema: dict[str, Any] = {}
        self.attributes_schema: dict[str, Any] = {}
        super().__init__(name, definition, stack)
        if self.validation_exception is None:
            self._generate_schema()
            self.reparse()

    # The class the registry hands out for a template name

    @classmethod
    def generate_class(cls, name: str, data: Any, param_defaults: Any) -> type[TemplateResource]:
        template = Template(template_format.parse(data))
        properties, attributes = schemas_of(template, param_defaults)
        return type(
            name,
            (cls,),
            {
                "properties_schema": properties,
                "attributes_schema": attributes,
                "__doc__": template.t.get(template.DESCRIPTION),
                # What the resource type APIs show: the template's description.
                "type_description": template.t.get(template.DESCRIPTION),
            },
        )

    @staticmethod
    def get_template_file(
        template_name: str,
        allowed_schemes: tuple[str, ...],
        limits: TemplateLimits = DEFAULT_LIMITS,
    ) -> bytes:
        try:
            return fetch_template(template_name, allowed_schemes, limits)
        except OSError as error:
            raise NotFound(
                msg_fmt=f'Could not fetch remote template "{template_name}": {error}'
            ) from None

    # Schemas from the nested template

    def _get_resource_info(self, definition: Any) -> Any:
        try:
            info = self.stack.env.get_resource_info(
                definition.resource_type,
                resource_name=definition.name,
                registry_type=TemplateResourceInfo,
            )
        except EntityNotFound:
            self.validation_exception = ValueError(
                "Only Templates with an extension of .yaml or .template are supported"
            )
            return None
        self._template_name = info.template_name
        self.resource_type = info.name
        self.resource_path = info.path
        if info.user_resource:
            self.allowed_schemes = REMOTE_SCHEMES
        else:
            self.allowed_schemes = REMOTE_SCHEMES + LOCAL_SCHEMES
        return info

    def _generate_schema(self) -> None:
        self._parsed_nested = None
        try:
            template = Template(self.child_template(), limits=self.stack.limits)
        except (NotFound, ValueError) as error:
            self.validation_exception = error
            template = Template(dict(EMPTY_TEMPLATE), limits=self.stack.limits)
        self.properties_schema, self.attributes_schema = schemas_of(
            template, self.stack.env.param_defaults
        )
        self.attributes_schema.update(self.base_attributes_schema)
        self.attributes = Attributes(self.name, self.attributes_schema)

    def regenerate_info_schema(self, definition: Any) -> None:
        self._get_resource_info(definition)
        self._generate_schema()

    @property
    def template_url(self) -> str:
        return str(self._template_name)

    def template_data(self) -> Any:
        """The nested template's text: from the files map, else fetched."""
        files = self.stack.t.files
        data = files.get(self.template_url)
        stored = data
        fetch_error: Exception | None = None
        if not data and self.template_url.endswith(TEMPLATE_SUFFIXES):
            try:
                data = self.get_template_file(
                    self.template_url, self.allowed_schemes, self.stack.limits
                )
            except NotFound as error:
                if self.action == self.UPDATE:
                    raise
                fetch_error = error
        if data is None:
            identity = self.nested_identifier()
            if identity is not None:
                data = json.dumps(self._engine().template(identity))
        if data is not None:
            if data != stored:
                files[self.template_url] = data
            self.stack.t.env.register_class(
                self.resource_type, self.template_url, path=self.resource_path
            )
            return data
        if fetch_error is None:
            fetch_error = ValueError(f"Unknown error retrieving {self.template_url}")
        raise fetch_error

    def child_template(self) -> dict[str, Any]:
        if not self._parsed_nested:
            self._parsed_nested = template_format.parse(
                self.template_data(), self.template_url, limits=self.stack.limits
            )
        return self._parsed_nested

    def child_params(self) -> dict[str, Any]:
        """The nested stack's parameter values: the resource's property values."""
        params: dict[str, Any] = {}
        for name, prop in self.properties.props.items():
            if not prop.implemented():
                continue
            try:
                value = self.properties.get_user_value(name)
            except ValueError:
                if self.action != self.INIT:
                    raise
                value = prop.get_value(None)
            if value is None:
                continue
            if prop.type() == Schema.LIST:
                params[name] = _comma_delimited(value)
            else:
                # A map property goes as it is: a json parameter takes either form.
                params[name] = value
        return params

    # Validation

    def validate_template(self) -> Any:
        if self.validation_exception is not None:
            raise StackValidationFailed(message=str(self.validation_exception))
        return super().validate_template()

    def validate(self) -> Any:
        result = super().validate()
        try:
            self.template_data()
        except ValueError as error:
            raise StackValidationFailed(
                message=f"Failed to retrieve template data: {error}"
            ) from None
        # A template standing in for an existing type must offer that type's interface.
        try:
            facade = self.stack.env.get_resource_info(
                self.type(), resource_name=self.name, ignore=self.resource_info
            )
        except EntityNotFound:
            return result
        self._validate_against_facade(facade.get_class(files=self.stack.t.files))
        return result

    def _validate_against_facade(self, facade_class: Any) -> None:
        facade_schemata = schemata(facade_class.properties_schema)
        for name, facade_schema in facade_schemata.items():
            if facade_schema.required and name not in self.properties_schema:
                raise StackValidationFailed(
                    message=(
                        f"Required property {name} for facade {self.type()} missing in provider"
                    )
                )
            provider_schema = self.properties_schema.get(name)
            if (
                provider_schema is not None
                and facade_schema.allowed_param_prop_type() != provider_schema.type
            ):
                raise StackValidationFailed(
                    message=(
                        f"Property {name} type mismatch between facade {self.type()} "
                        f"({facade_schema.type}) and provider ({provider_schema.type})"
                    )
                )
        for name, provider_schema in self.properties_schema.items():
            if provider_schema.required and name not in facade_schemata:
                raise StackValidationFailed(
                    message=f"Provider requires property {name} unknown in facade {self.type()}"
                )
        facade_attributes = {
            **facade_class.attributes_schema,
            **facade_class.base_attributes_schema,
        }
        for name in facade_attributes:
            if name not in self.attributes_schema:
                raise StackValidationFailed(
                    message=f"Attribute {name} for facade {self.type()} missing in provider"
                )

    # The life cycle

    def handle_create(self) -> None:
        self.create_with_template(self.child_template(), self.child_params())

    def handle_adopt(self, resource_data: Any = None) -> None:
        self.create_with_template(
            self.child_template(), self.child_params(), adopt_data=resource_data
        )

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        self.properties = json_snippet.properties(self.properties_schema, self.context)
        return self.update_child()

    # Attributes

    def get_reference_id(self) -> str:
        if self.resource_id is None:
            return str(self.name)
        cached = self._cached_attributes or {}
        if STACK_ID_OUTPUT in cached:
            return str(cached[STACK_ID_OUTPUT])
        identity = self.nested_identifier()
        assert identity is not None
        reference: Any = identity.arn()
        try:
            if STACK_ID_OUTPUT in self.attributes:
                reference = self.get_output(STACK_ID_OUTPUT)
        except TemplateOutputError as error:
            LOG.info("%s", error)
        except NotFound:
            pass
        if self._cached_attributes is None:
            self._cached_attributes = {}
        self._cached_attributes[STACK_ID_OUTPUT] = reference
        self._has_new_cached_attributes = True
        return str(reference)

    def get_attribute(self, key: str, *path: Any) -> Any:
        # Before the nested stack exists every output reads as nothing.
        if self.resource_id is None:
            return None
        if key.startswith("resource."):
            return group_members.nested_attribute(self, key, False, *path)
        try:
            return select_from_attribute(self.get_output(key), list(path))
        except NotFound:
            raise InvalidTemplateAttribute(resource=self.name, key=key) from None


def _comma_delimited(value: Any) -> str:
    """A list property as a comma_delimited_list parameter value."""
    if len(value) == 0:
        return ""
    if isinstance(value[0], dict):
        members = (
            f".member.{index}.{key}={item}"
            for index, member in enumerate(value)
            for key, item in member.items()
        )
        return ",".join(members)
    # get_attr of a resource not created yet gives None: an empty member, not "None".
    return ",".join(item if item is not None else "" for item in value)
