"""OS::Heat::SoftwareComponent: one software config per life-cycle action of a component.

``validate`` refuses two configs for the same action. The component is stored as a
software config of group "component" whose ``config`` is ``{"configs": [...]}``. As in
Heat, the type's only attribute is the inherited ``config``: its ``configs`` attribute
is not in the schema, so templates cannot read it.
"""

from __future__ import annotations

from typing import Any

from keel_app.common.exception import StackValidationFailed
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import Resource
from keel_app.resources.heat.software_config import SoftwareConfig


class SoftwareComponent(SoftwareConfig):
    """Configs for the CREATE, UPDATE, SUSPEND, RESUME and DELETE actions of a component."""

    support_status = SupportStatus(version="2014.2")
    type_description = """\
A resource for describing and storing a software component.

This resource is similar to OS::Heat::SoftwareConfig. In contrast to
SoftwareConfig which allows for storing only one configuration (e.g. one
script), SoftwareComponent allows for storing multiple configurations to
address handling of all lifecycle hooks (CREATE, UPDATE, SUSPEND, RESUME,
DELETE) for a software component in one place.

This resource is backed by the persistence layer and the API of the
SoftwareConfig resource, and only adds handling for the additional
'configs' property and attribute.
"""

    PROPERTIES = (CONFIGS, INPUTS, OUTPUTS, OPTIONS) = ("configs", "inputs", "outputs", "options")
    CONFIG_PROPERTIES = (CONFIG_ACTIONS, CONFIG_CONFIG, CONFIG_TOOL) = (
        "actions",
        "config",
        "tool",
    )
    ATTRIBUTES = (CONFIGS_ATTR,) = ("configs",)

    # One entry of the "configs" list. Actions beyond the standard ones are allowed:
    # in-instance hooks may know what to do with them.
    config_schema = Schema(
        Schema.MAP,
        schema={
            CONFIG_ACTIONS: Schema(
                Schema.LIST,
                "Lifecycle actions to which the configuration applies. The string values "
                "provided for this property can include the standard resource actions CREATE, "
                "DELETE, UPDATE, SUSPEND and RESUME supported by Heat.",
                default=[Resource.CREATE, Resource.UPDATE],
                schema=Schema(Schema.STRING),
                constraints=[constraints.Length(min=1)],
            ),
            CONFIG_CONFIG: SoftwareConfig.properties_schema[SoftwareConfig.CONFIG],
            CONFIG_TOOL: Schema(
                Schema.STRING,
                "The configuration tool used to actually apply the configuration on a server. "
                "This string property has to be understood by in-instance tools running inside "
                "deployed servers.",
                required=True,
            ),
        },
    )

    properties_schema = {
        CONFIGS: Schema(
            Schema.LIST,
            "The list of configurations for the different lifecycle actions of the "
            "represented software component.",
            schema=config_schema,
            constraints=[constraints.Length(min=1)],
            required=True,
        ),
        INPUTS: SoftwareConfig.properties_schema[SoftwareConfig.INPUTS],
        OUTPUTS: SoftwareConfig.properties_schema[SoftwareConfig.OUTPUTS],
        OPTIONS: SoftwareConfig.properties_schema[SoftwareConfig.OPTIONS],
    }

    def handle_create(self) -> None:
        arguments = dict(self.properties)
        configs = arguments.pop(self.CONFIGS)
        # The group tells in-instance hooks to treat the config as a component.
        self.store_config(config={self.CONFIGS: configs}, group="component", **arguments)

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.CONFIGS_ATTR:
            stored = self.stored_config()
            return None if stored is None else stored[self.CONFIG].get(self.CONFIGS)
        return super()._resolve_attribute(name)

    def validate(self) -> None:
        super().validate()
        # One action, one config: there would be no way to order two.
        seen: set[str] = set()
        for config in self.properties[self.CONFIGS]:
            actions = config.get(self.CONFIG_ACTIONS)
            if any(action in seen for action in actions):
                raise StackValidationFailed(
                    message="Defining more than one configuration for the same action in "
                    f'SoftwareComponent "{self.name}" is not allowed.'
                )
            seen.update(actions)
