"""OS::Heat::InstanceGroup: ``Size`` AWS::EC2::Instance members built from a launch
configuration, in a CloudFormation nested stack.

``LaunchConfiguredGroup`` is what it shares with AWS::AutoScaling::AutoScalingGroup,
which Heat builds on it (``aws.autoscaling_group``): the launch configuration referred to
(not just named), the members' properties taken from it as its template gives them with
the group's ``Tags`` and a ``metering.groupname`` tag naming the group, a new
configuration rolled out in batches under the ``RollingUpdate``-style policy, the
``LoadBalancerNames`` handed the members, and ``InstanceList`` (the members' PublicIp,
comma-separated, "0.0.0.0" for a member without one).

An update replaces the members in batches when the configuration changed and the
RollingUpdate policy is given (MaxBatchSize at a time, keeping MinInstancesInService,
PauseTime between batches), then resizes the group to ``Size``, the oldest members going
first. Heat's loops block a thread; here they are steps (``group_steps``) run by
``check_update_complete``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

from keel_app.common import exception
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema, Resource
from keel_app.engine.resource.siblings import resource_by_refid
from keel_app.engine.resource.stack_resource import StackResource
from keel_app.engine.template import Template
from keel_app.engine.template.output import OutputDefinition
from keel_app.engine.template.resource_definition import ResourceDefinition
from keel_app.resources import group_members
from keel_app.resources.heat import group_steps, scaling
from keel_app.resources.heat.group_steps import RESIZE
from keel_app.resources.heat.nested_group import SCALED_RESOURCE_TYPE, NestedMemberGroup

LOG = logging.getLogger(__name__)

CFN_2012_12_12 = ("HeatTemplateFormatVersion", "2012-12-12")
ISO_DURATION = re.compile(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$")
MAX_PAUSE_SECONDS = 3600
# Where a launch configuration's properties name lists of maps, only the keys given.
GIVEN_KEYS_ONLY = ("BlockDeviceMappings", "NovaSchedulerHints")


def parse_iso_duration(duration: str) -> int:
    """Seconds of an ISO 8601 duration of the form PT#H#M#S (the only one Heat reads)."""
    match = ISO_DURATION.match(duration)
    if not match:
        raise ValueError("Only ISO 8601 duration format of the form PT#H#M#S is supported.")
    hours, minutes, seconds = (int(part) if part else 0 for part in match.groups())
    return hours * 3600 + minutes * 60 + seconds


class LaunchConfiguredGroup:
    """The members of a group made from an AWS::AutoScaling::LaunchConfiguration."""

    LAUNCH_CONFIGURATION_NAME = "LaunchConfigurationName"
    LOAD_BALANCER_NAMES = "LoadBalancerNames"
    TAGS = "Tags"
    TAG_KEYS = (TAG_KEY, TAG_VALUE) = ("Key", "Value")
    ROLLING_UPDATE_KEYS = (MIN_INSTANCES_IN_SERVICE, MAX_BATCH_SIZE, PAUSE_TIME) = (
        "MinInstancesInService",
        "MaxBatchSize",
        "PauseTime",
    )
    ATTRIBUTES = (INSTANCE_LIST,) = ("InstanceList",)
    OUTPUT_MEMBER_IDS = "references"
    NESTED_TEMPLATE_VERSION = CFN_2012_12_12
    # The name of the rolling update policy (Heat's AWS group spells it otherwise).
    ROLLING_UPDATE = "RollingUpdate"

    # Attributes are the schema's only (not the OS group's member attributes).
    get_attribute = Resource.get_attribute

    properties: Any
    update_policy: Any
    stack: Any
    name: str

    # Validation

    def _validate_launched_members(self) -> Any:
        """The launch configuration, the group's own properties, then the pause time."""
        self._validate_launch_configuration()
        result = StackResource.validate(self)
        self._validate_pause_time()
        return result

    def _validate_pause_time(self) -> None:
        policy = self.update_policy[self.ROLLING_UPDATE]
        if policy is not None:
            if parse_iso_duration(policy[self.PAUSE_TIME]) > MAX_PAUSE_SECONDS:
                raise ValueError(f"Maximum {self.PAUSE_TIME} is 1 hour.")

    def _validate_launch_configuration(self) -> None:
        """The configuration must be a resource of the stack, referred to (not named)."""
        reference = self.properties.get(self.LAUNCH_CONFIGURATION_NAME)
        if not reference:
            return
        configuration = resource_by_refid(self.stack, reference)
        if configuration is None:
            raise ValueError(
                f"{self.LAUNCH_CONFIGURATION_NAME} ({reference}) reference can not be found."
            )
        requirers = [
            requirer.name for requirer in self.stack.dependencies.required_by(configuration)
        ]
        if self.name not in requirers:
            raise ValueError(
                f"{self.LAUNCH_CONFIGURATION_NAME} ({reference}) requires a reference to the "
                "configuration not just the name of the resource."
            )

    # Members

    def _tags(self) -> list[dict[str, str]]:
        """The group's tags, with one Ceilometer's meters name the group by unless the
        template gives a ``metering.`` tag of its own."""
        tags = list(self.properties.get(self.TAGS) or [])
        if any(tag[self.TAG_KEY].startswith("metering.") for tag in tags):
            return tags
        reference = self.FnGetRefId()  # type: ignore[attr-defined]
        return [*tags, {self.TAG_KEY: "metering.groupname", self.TAG_VALUE: reference}]

    def _launch_configuration_properties(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The members' properties and metadata, from the launch configuration the group
        refers to: the properties its template gives, as they were when it was made."""
        configuration = resource_by_refid(
            self.stack, self.properties[self.LAUNCH_CONFIGURATION_NAME]
        )
        given = configuration.frozen_definition().properties(
            configuration.properties_schema, configuration.context
        )
        properties = {key: value for key, value in given.items() if key in given.data}
        for key in GIVEN_KEYS_ONLY:
            if properties.get(key) is not None:
                # Only the keys the template gives, not the schema's defaults.
                properties[key] = [
                    {name: value for name, value in item.items() if name in given.data[key][index]}
                    for index, item in enumerate(properties[key])
                ]
        if "InstanceId" in properties:
            properties = configuration.rebuild_lc_properties(properties["InstanceId"])
        properties["Tags"] = self._tags()
        properties.pop("InstanceId", None)
        return properties, configuration.t.metadata()

    def _member_properties(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return self._launch_configuration_properties()

    def _member_definition(self) -> ResourceDefinition:
        properties, metadata = self._member_properties()
        return ResourceDefinition(None, SCALED_RESOURCE_TYPE, properties, metadata)

    def _rolling_update_steps(self) -> list[list[Any]]:
        """Heat's ``_replace``: the batches that give every member the new definition."""
        policy = self.update_policy[self.ROLLING_UPDATE]
        capacity = group_members.GroupInspector(self).size(include_failed=True)
        target = min(self.get_size() or capacity, capacity)  # type: ignore[attr-defined]
        batches = scaling.instance_group_batches(
            target,
            capacity,
            policy[self.MAX_BATCH_SIZE],
            policy[self.MIN_INSTANCES_IN_SERVICE],
        )
        pause_seconds = parse_iso_duration(policy[self.PAUSE_TIME])
        return group_steps.batch_steps(self.stack, batches, pause_seconds, with_timeout=False)

    def _update_steps(self, prop_diff: Any) -> list[list[Any]]:
        """A rolling replacement when the configuration changed under the policy, then
        whatever resize the group's size asks for."""
        steps: list[list[Any]] = []
        policy = self.update_policy[self.ROLLING_UPDATE]
        if prop_diff and policy and self.LAUNCH_CONFIGURATION_NAME in prop_diff:
            steps = self._rolling_update_steps()
        steps.append([RESIZE])
        return steps

    def _update_launched_members(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        """Take the new update policy and properties, then start the update's steps."""
        if tmpl_diff and tmpl_diff.update_policy_changed():
            self.update_policy = json_snippet.update_policy(self.update_policy_schema, self.context)
        self.properties = json_snippet.properties(self.properties_schema, self.context)
        token = group_steps.steps_token(self._update_steps(prop_diff))
        group_steps.run_steps(self, token, self._start_step)  # type: ignore[attr-defined]
        return token

    def check_create_complete(self, token: Any = None) -> bool:
        # The group class this is mixed into (before it in the MRO) builds the members.
        done = super().check_create_complete(token)  # type: ignore[misc]
        if done:
            self._reload_load_balancers()
        return bool(done)

    def _reload_load_balancers(self) -> None:
        """Heat hands the members to the load balancers named; none of the types it can
        hand them to (those with Instances or members) has a life cycle in OpenKeel yet,
        so any resource named is one Heat refuses."""
        for name in self.properties.get(self.LOAD_BALANCER_NAMES) or []:
            balancer = self.stack.resources[name]
            if not {"Instances", "members"} & set(balancer.properties_schema):
                raise exception.Error(f"Unsupported resource '{name}' in LoadBalancerNames")

    # Attributes

    def _output(self, key: str, path: tuple[Any, ...]) -> Any:
        """The nested stack's output ``key``; NotFound when there is no nested stack."""
        output = self.get_output(key)  # type: ignore[attr-defined]
        if output is None:
            raise exception.NotFound("The group has no nested stack")
        return output

    def _resolve_attribute(self, name: str) -> Any:
        if name != self.INSTANCE_LIST:
            return None
        try:
            output = self._output(self.INSTANCE_LIST, ())
        except (exception.NotFound, exception.TemplateOutputError) as error:
            LOG.debug("Reading the members of %s, since %s", self.name, error)
        else:
            if isinstance(output, dict):
                names = group_members.GroupInspector(self).member_names(include_failed=False)
                return ",".join(output[name] for name in names if name in output) or None
        addresses = [
            member.FnGetAtt("PublicIp") or "0.0.0.0" for member in group_members.members(self)
        ]
        return ",".join(addresses) or None

    def _nested_output_definitions(
        self, member_names: list[str], get_attr: Any, get_resource: Any
    ) -> Iterator[OutputDefinition]:
        """The members' addresses when InstanceList is read, and the member references."""
        for attribute in self.referenced_attrs():  # type: ignore[attr-defined]
            key = attribute if isinstance(attribute, str) else attribute[0]
            if key == self.INSTANCE_LIST:
                addresses = {member: get_attr([member, "PublicIp"]) for member in member_names}
                yield OutputDefinition(key, addresses)
        references = {member: get_resource(member) for member in member_names}
        yield OutputDefinition(self.OUTPUT_MEMBER_IDS, references)


class InstanceGroup(LaunchConfiguredGroup, NestedMemberGroup):
    """``Size`` instances of a launch configuration."""

    support_status = SupportStatus()
    type_description = """\
An instance group that can scale arbitrary instances.

A resource allowing for the creating number of defined with
AWS::AutoScaling::LaunchConfiguration instances. Allows to associate
scaled resources with loadbalancer resources.
"""

    PROPERTIES = (
        AVAILABILITY_ZONES,
        LAUNCH_CONFIGURATION_NAME,
        SIZE,
        LOAD_BALANCER_NAMES,
        TAGS,
    ) = ("AvailabilityZones", "LaunchConfigurationName", "Size", "LoadBalancerNames", "Tags")

    properties_schema = {
        AVAILABILITY_ZONES: Schema(Schema.LIST, "Not Implemented.", required=True),
        LAUNCH_CONFIGURATION_NAME: Schema(
            Schema.STRING,
            "The reference to a LaunchConfiguration resource.",
            required=True,
            update_allowed=True,
        ),
        SIZE: Schema(
            Schema.INTEGER,
            "Desired number of instances.",
            required=True,
            update_allowed=True,
        ),
        LOAD_BALANCER_NAMES: Schema(
            Schema.LIST,
            "List of LoadBalancer resources. Currently only the "
            "AWS::ElasticLoadBalancing::LoadBalancer resource type is supported.",
        ),
        TAGS: Schema(
            Schema.LIST,
            "Tags to attach to this group.",
            schema=Schema(
                Schema.MAP,
                schema={
                    LaunchConfiguredGroup.TAG_KEY: Schema(Schema.STRING, "Tag key.", required=True),
                    LaunchConfiguredGroup.TAG_VALUE: Schema(
                        Schema.STRING, "Tag value.", required=True
                    ),
                },
            ),
        ),
    }

    attributes_schema = {
        LaunchConfiguredGroup.INSTANCE_LIST: AttributeSchema(
            "A comma-delimited list of server ip addresses. (Heat extension).",
            type=AttributeSchema.STRING,
        ),
    }

    update_policy_schema = {
        LaunchConfiguredGroup.ROLLING_UPDATE: Schema(
            Schema.MAP,
            schema={
                LaunchConfiguredGroup.MIN_INSTANCES_IN_SERVICE: Schema(Schema.INTEGER, default=0),
                LaunchConfiguredGroup.MAX_BATCH_SIZE: Schema(Schema.INTEGER, default=1),
                LaunchConfiguredGroup.PAUSE_TIME: Schema(Schema.STRING, default="PT0S"),
            },
        )
    }

    def get_size(self) -> Any:
        return self.properties[self.SIZE]

    def validate(self) -> Any:
        return self._validate_launched_members()

    def child_template(self) -> Template:
        return self._create_template(int(self.properties[self.SIZE]))

    def handle_create(self) -> Any:
        self.create_with_template(self.child_template(), self.child_params())
        return None

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        return self._update_launched_members(json_snippet, tmpl_diff, prop_diff)

    def check_update_complete(self, token: Any = None) -> bool:
        if token is None:
            done = super().check_update_complete(token)
        else:
            done = group_steps.run_steps(self, token, self._start_step)
        if done:
            self._reload_load_balancers()
        return done

    def _start_step(self, step: list[Any]) -> dict[str, Any]:
        if step[0] == RESIZE:
            size = self.properties[self.SIZE]
            if size is None:
                size = group_members.GroupInspector(self).size(include_failed=False)
            template = self._create_template(size)
        else:
            _kind, capacity, max_updates, _timeout = step
            template = self._create_template(capacity, max_updates)
        return self.update_with_template(template, self.child_params())


RESOURCE_CLASSES = {"OS::Heat::InstanceGroup": InstanceGroup}
