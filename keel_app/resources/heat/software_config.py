"""Software configurations stored by the software_configs API: SoftwareConfig,
StructuredConfig (the config as a map) and CloudConfig (cloud-init's cloud-config).

The input and output schemata here are also what the software config API checks a
config's ``inputs`` and ``outputs`` against. These types use Heat's own API, so they
need the orchestration service in the caller's catalog, as in Heat; the engine calls
that API's functions directly (``service.software_configs``). Creating stores a config
row named after the physical resource name, whose id becomes the resource's; deleting
deletes it (one already gone is no error). Configs are immutable: any change of
properties replaces the resource. The ``config`` attribute is the stored config.
"""

from __future__ import annotations

from typing import Any

import yaml

from keel_app.common.exception import NotFound
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.engine.template.format import TemplateDumper

IO_KEYS = (IO_NAME, DESCRIPTION, TYPE, DEFAULT, REPLACE_ON_CHANGE, VALUE, ERROR_OUTPUT) = (
    "name",
    "description",
    "type",
    "default",
    "replace_on_change",
    "value",
    "error_output",
)
IO_TYPES = (STRING_TYPE, NUMBER_TYPE, LIST_TYPE, JSON_TYPE, BOOLEAN_TYPE) = (
    "String",
    "Number",
    "CommaDelimitedList",
    "Json",
    "Boolean",
)

input_config_schema = {
    IO_NAME: Schema(Schema.STRING, "Name of the input.", required=True),
    DESCRIPTION: Schema(Schema.STRING, "Description of the input."),
    TYPE: Schema(
        Schema.STRING,
        "Type of the value of the input.",
        default=STRING_TYPE,
        constraints=[constraints.AllowedValues(IO_TYPES)],
    ),
    DEFAULT: Schema(Schema.ANY, "Default value for the input if none is specified."),
    REPLACE_ON_CHANGE: Schema(
        Schema.BOOLEAN,
        "Replace the deployment instead of updating it when the input value changes.",
        default=False,
    ),
}

output_config_schema = {
    IO_NAME: Schema(Schema.STRING, "Name of the output.", required=True),
    DESCRIPTION: Schema(Schema.STRING, "Description of the output."),
    TYPE: Schema(
        Schema.STRING,
        "Type of the value of the output.",
        default=STRING_TYPE,
        constraints=[constraints.AllowedValues(IO_TYPES)],
    ),
    ERROR_OUTPUT: Schema(
        Schema.BOOLEAN,
        "Denotes that the deployment is in an error state if this output has a value.",
        default=False,
    ),
}


class SoftwareConfig(Resource):
    """A configuration script with the schemata of its inputs and outputs."""

    support_status = SupportStatus(version="2014.1")
    default_client_name = "heat"
    entity = "software_configs"
    type_description = """\
A resource for describing and storing software configuration.

The software_configs API which backs this resource creates immutable
configs, so any change to the template resource definition will result
in a new config being created, and the old one being deleted.

Configs can be defined in the same template which uses them, or they can
be created in one stack, and passed to another stack via a parameter.

A config resource can be referenced in other resource properties which
are config-aware. This includes the properties OS::Nova::Server user_data,
OS::Heat::SoftwareDeployment config and OS::Heat::MultipartMime parts
config.

Along with the config script itself, this resource can define schemas for
inputs and outputs which the config script is expected to consume and
produce. Inputs and outputs are optional and will map to concepts which
are specific to the configuration tool being used.
"""

    PROPERTIES = (GROUP, CONFIG, OPTIONS, INPUTS, OUTPUTS) = (
        "group",
        "config",
        "options",
        "inputs",
        "outputs",
    )
    ATTRIBUTES = (CONFIG_ATTR,) = ("config",)

    properties_schema = {
        GROUP: Schema(
            Schema.STRING,
            "Namespace to group this software config by when delivered to a server. This may "
            "imply what configuration tool is going to perform the configuration.",
            default="Heat::Ungrouped",
        ),
        CONFIG: Schema(
            Schema.STRING,
            "Configuration script or manifest which specifies what actual configuration is "
            "performed.",
        ),
        OPTIONS: Schema(
            Schema.MAP,
            "Map containing options specific to the configuration management tool used by "
            "this resource.",
        ),
        INPUTS: Schema(
            Schema.LIST,
            "Schema representing the inputs that this software config is expecting.",
            schema=Schema(Schema.MAP, schema=input_config_schema),
        ),
        OUTPUTS: Schema(
            Schema.LIST,
            "Schema representing the outputs that this software config will produce.",
            schema=Schema(Schema.MAP, schema=output_config_schema),
        ),
    }

    attributes_schema = {
        CONFIG_ATTR: AttributeSchema(
            "The config value of the software config.", type=AttributeSchema.STRING
        ),
    }

    def _configs_api(self) -> Any:
        # Imported when first used: the service layer builds on these declarations.
        from keel_app.engine.service import software_configs

        return software_configs

    def _call(self, method: str, /, **arguments: Any) -> Any:
        """One call of the software config API, as this stack's user."""
        call = getattr(self._configs_api(), method)
        return call(self.context, self.stack.settings, self.stack.database, None, **arguments)

    def store_config(self, **arguments: Any) -> None:
        """Store a config named after this resource; its id becomes the physical id."""
        arguments["name"] = self.physical_resource_name()
        created = self._call("create_software_config", **arguments)
        self.resource_id_set(created["id"])

    def stored_config(self) -> Any:
        """The stored config document, None when there is none (any more)."""
        if not self.resource_id:
            return None
        try:
            return self._call("show_software_config", config_id=self.resource_id)
        except NotFound:
            return None

    def handle_create(self) -> None:
        self.store_config(**dict(self.properties))

    def handle_delete(self) -> None:
        if self.resource_id is None:
            return
        try:
            self._call("delete_software_config", config_id=self.resource_id)
        except NotFound:
            pass

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.CONFIG_ATTR:
            stored = self.stored_config()
            return None if stored is None else stored[self.CONFIG]
        return None


class StructuredConfig(SoftwareConfig):
    """A software config whose ``config`` is a map, stored as parsed JSON."""

    support_status = SupportStatus(version="2014.1")
    type_description = """\
A resource which has same logic with OS::Heat::SoftwareConfig.

This resource is like OS::Heat::SoftwareConfig except that the config
property is represented by a Map rather than a String.

This is useful for configuration tools which use YAML or JSON as their
configuration syntax. The resulting configuration is transferred,
stored and returned by the software_configs API as parsed JSON.
"""

    properties_schema = {
        SoftwareConfig.GROUP: SoftwareConfig.properties_schema[SoftwareConfig.GROUP],
        SoftwareConfig.OPTIONS: SoftwareConfig.properties_schema[SoftwareConfig.OPTIONS],
        SoftwareConfig.INPUTS: SoftwareConfig.properties_schema[SoftwareConfig.INPUTS],
        SoftwareConfig.OUTPUTS: SoftwareConfig.properties_schema[SoftwareConfig.OUTPUTS],
        SoftwareConfig.CONFIG: Schema(
            Schema.MAP,
            "Map representing the configuration data structure which will be serialized to "
            "JSON format.",
        ),
    }


class CloudConfig(SoftwareConfig):
    """A cloud-init cloud-config document, written as a map and stored as YAML."""

    support_status = SupportStatus(version="2014.1")
    type_description = """\
A configuration resource for representing cloud-init cloud-config.

This resource allows cloud-config YAML to be defined and stored by the
config API. Any intrinsic functions called in the config will be resolved
before storing the result.

This resource will generally be referenced by OS::Nova::Server user_data,
or OS::Heat::MultipartMime parts config. Since cloud-config is boot-only
configuration, any changes to the definition will result in the
replacement of all servers which reference it.
"""

    PROPERTIES = (CLOUD_CONFIG,) = ("cloud_config",)

    properties_schema = {
        CLOUD_CONFIG: Schema(
            Schema.MAP,
            "Map representing the cloud-config data structure which will be formatted as YAML.",
        ),
    }

    def handle_create(self) -> None:
        document = yaml.dump(self.properties[self.CLOUD_CONFIG], Dumper=TemplateDumper)
        self.store_config(config=f"#cloud-config\n{document}", group="Heat::Ungrouped")
