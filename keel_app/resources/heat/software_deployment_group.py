"""OS::Heat::SoftwareDeploymentGroup (and its hidden alias OS::Heat::SoftwareDeployments):
one config deployed to each server of a ``servers`` map.

The group is a ResourceGroup whose members are deployments named by the map's keys,
each given the group's deployment properties and its own ``server``. Any change of the
properties updates every member; under a ``rolling_update`` policy, a batch of
``max_batch_size`` members at a time, with ``pause_time`` between batches. An attribute
of the group is a map of member names to that attribute of each member:
``deploy_stdouts``, ``deploy_stderrs`` and ``deploy_status_codes`` for the standard
outputs, and any other name a member answers (a config's declared output) as it is.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from typing import Any

from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.engine.template.functions.references import select_from_attribute
from keel_app.engine.template.output import OutputDefinition
from keel_app.engine.template.resource_definition import ResourceDefinition
from keel_app.resources.configured_defaults import given_or_configured
from keel_app.resources.heat.resource_group import ResourceGroup
from keel_app.resources.heat.software_deployment import SoftwareDeployment


class SoftwareDeploymentGroup(ResourceGroup):
    """A deployment of one config to each of a map of servers."""

    support_status = SupportStatus(version="5.0.0")
    type_description = """\
This resource associates a group of servers with some configuration.

The configuration is to be deployed to all servers in the group.

The properties work in a similar way to OS::Heat::SoftwareDeployment,
and in addition to the attributes documented, you may pass any
attribute supported by OS::Heat::SoftwareDeployment, including those
exposing arbitrary outputs, and return a map of deployment names to
the specified attribute.
"""

    # The type of the members.
    member_type = "OS::Heat::SoftwareDeployment"

    PROPERTIES = (SERVERS, CONFIG, INPUT_VALUES, DEPLOY_ACTIONS, NAME, SIGNAL_TRANSPORT) = (
        "servers",
        SoftwareDeployment.CONFIG,
        SoftwareDeployment.INPUT_VALUES,
        SoftwareDeployment.DEPLOY_ACTIONS,
        SoftwareDeployment.NAME,
        SoftwareDeployment.SIGNAL_TRANSPORT,
    )
    ATTRIBUTES = (STDOUTS, STDERRS, STATUS_CODES) = (  # type: ignore[assignment]
        "deploy_stdouts",
        "deploy_stderrs",
        "deploy_status_codes",
    )
    # The member attribute each of the group's own attributes maps.
    MEMBER_ATTRIBUTES = {
        STDOUTS: SoftwareDeployment.STDOUT,
        STDERRS: SoftwareDeployment.STDERR,
        STATUS_CODES: SoftwareDeployment.STATUS_CODE,
    }

    _deployment_schema = SoftwareDeployment.properties_schema
    properties_schema = {
        SERVERS: Schema(
            Schema.MAP,
            "A map of names and server IDs to apply configuration to. The name is arbitrary "
            "and is used as the Heat resource name for the corresponding deployment.",
            update_allowed=True,
            required=True,
        ),
        CONFIG: _deployment_schema[CONFIG],
        INPUT_VALUES: _deployment_schema[INPUT_VALUES],
        DEPLOY_ACTIONS: _deployment_schema[DEPLOY_ACTIONS],
        NAME: _deployment_schema[NAME],
        SIGNAL_TRANSPORT: _deployment_schema[SIGNAL_TRANSPORT],
    }

    attributes_schema = {
        STDOUTS: AttributeSchema(
            "A map of Nova names and captured stdouts from the configuration execution to "
            "each server.",
            type=AttributeSchema.MAP,
        ),
        STDERRS: AttributeSchema(
            "A map of Nova names and captured stderrs from the configuration execution to "
            "each server.",
            type=AttributeSchema.MAP,
        ),
        STATUS_CODES: AttributeSchema(
            "A map of Nova names and returned status code from the configuration execution.",
            type=AttributeSchema.MAP,
        ),
    }

    rolling_update_schema = {
        ResourceGroup.MAX_BATCH_SIZE: Schema(
            Schema.INTEGER,
            "The maximum number of deployments to replace at once.",
            constraints=ResourceGroup.rolling_update_schema[
                ResourceGroup.MAX_BATCH_SIZE
            ].constraints,
            default=1,
        ),
        ResourceGroup.PAUSE_TIME: ResourceGroup.rolling_update_schema[ResourceGroup.PAUSE_TIME],
    }

    update_policy_schema = {
        ResourceGroup.ROLLING_UPDATE: Schema(
            Schema.MAP,
            schema=rolling_update_schema,
            support_status=SupportStatus(version="7.0.0"),
        ),
        ResourceGroup.BATCH_CREATE: Schema(
            Schema.MAP,
            schema=ResourceGroup.batch_create_schema,
            support_status=SupportStatus(version="7.0.0"),
        ),
    }

    # Members: one a server, named by the map's keys (no names are ever skipped)

    def get_size(self) -> Any:
        return len(self.properties[self.SERVERS])

    def _resource_names(self, size: int | None = None) -> Iterator[str]:
        names = iter(self.properties[self.SERVERS])
        return names if size is None else itertools.islice(names, size)

    def res_def_changed(self, prop_diff: Any) -> bool:
        # Every property is the members' definition.
        return True

    def _update_name_skiplist(self, properties: Any) -> None:
        return None

    def _name_skiplist(self) -> set[str]:
        return set()

    def get_resource_def(self, include_all: bool = False) -> dict[str, Any]:
        definition = dict(self.properties)
        definition[self.SIGNAL_TRANSPORT] = given_or_configured(
            self.properties,
            self.SIGNAL_TRANSPORT,
            self.stack.settings.default_deployment_signal_transport,
        )
        return definition

    def build_resource_definition(
        self, member_name: str, definition: dict[str, Any]
    ) -> ResourceDefinition:
        member_properties = copy.deepcopy(definition)
        servers = member_properties.pop(self.SERVERS)
        member_properties[SoftwareDeployment.SERVER] = servers.get(member_name)
        return ResourceDefinition(member_name, self.member_type, member_properties, None)

    def _rolling_update_steps(self) -> list[list[Any]]:
        policy = self.update_policy[self.ROLLING_UPDATE]
        if not policy:
            return []
        return self._batch_steps(0, policy[self.MAX_BATCH_SIZE], policy[self.PAUSE_TIME])

    # Attributes: maps of member names to the members' attribute

    def _member_attribute_name(self, key: str) -> str:
        # Any other name may be an output a member's config declares.
        return self.MEMBER_ATTRIBUTES.get(key, key)

    def get_attribute(self, key: str, *path: Any) -> Any:
        member_attribute = self._member_attribute_name(key)
        values = super().get_attribute(self.ATTR_ATTRIBUTES, member_attribute)
        return select_from_attribute(values, list(path))

    def _nested_output_definitions(
        self, member_names: list[str], get_attr: Any, get_resource: Any
    ) -> Iterator[OutputDefinition]:
        for attribute in self.referenced_attrs():
            key = attribute if isinstance(attribute, str) else attribute[0]
            member_attribute = self._member_attribute_name(key)
            output_name = self._attribute_output_name(self.ATTR_ATTRIBUTES, member_attribute)
            value = {member: get_attr([member, member_attribute]) for member in member_names}
            yield OutputDefinition(output_name, value)


class SoftwareDeployments(SoftwareDeploymentGroup):
    """The group's name before 5.0.0, hidden since 7.0.0."""

    support_status = SupportStatus(
        status="HIDDEN",
        message="Please use OS::Heat::SoftwareDeploymentGroup instead.",
        version="7.0.0",
        previous_status=SupportStatus(status="DEPRECATED", version="2014.2"),
        substitute_class=SoftwareDeploymentGroup,
    )


RESOURCE_CLASSES = {
    "OS::Heat::SoftwareDeploymentGroup": SoftwareDeploymentGroup,
    "OS::Heat::SoftwareDeployments": SoftwareDeployments,
}
