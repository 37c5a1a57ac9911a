"""AWS::AutoScaling::AutoScalingGroup: a nested stack of AWS::EC2::Instance members made
from a launch configuration, resized by AWS::AutoScaling::ScalingPolicy signals.

The life cycle is OS::Heat::AutoScalingGroup's (``heat.autoscaling_group``): the group
starts at DesiredCapacity (else MinSize), ``adjust`` resizes it within MinSize and
MaxSize unless it is scaling or in cooldown, an update resizes it to DesiredCapacity.
What differs is the members: each is an ``OS::Heat::ScaledResource`` (mapped to
AWS::EC2::Instance in the nested stack's environment) whose properties are those the
launch configuration's template gives (or an existing server's, with InstanceId), with
the group's tags and ``metering.*`` tags naming the group, the subnet of
VPCZoneIdentifier, and the configuration's metadata. The nested template is a
CloudFormation one (HeatTemplateFormatVersion 2012-12-12), as Heat makes it.

Under an ``AutoScalingRollingUpdate`` update policy a new launch configuration replaces
the members in batches (MaxBatchSize at a time, keeping MinInstancesInService, waiting
PauseTime between batches); without one only members made later use it.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.common import exception
from keel_app.common.exception import StackValidationFailed
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.resources.aws.autoscaling_launch_config import server_launch_properties
from keel_app.resources.heat.autoscaling_group import AutoScalingResourceGroup
from keel_app.resources.heat.instance_group import LaunchConfiguredGroup, parse_iso_duration

__all__ = ["AWSAutoScalingGroup", "parse_iso_duration"]

LOG = logging.getLogger(__name__)


class AWSAutoScalingGroup(LaunchConfiguredGroup, AutoScalingResourceGroup):
    """A group of AWS::EC2::Instance members built from a launch configuration."""

    support_status = SupportStatus(version="2014.1")
    type_description = None

    PROPERTIES = (
        AVAILABILITY_ZONES,
        LAUNCH_CONFIGURATION_NAME,
        MAX_SIZE,
        MIN_SIZE,
        COOLDOWN,
        DESIRED_CAPACITY,
        HEALTH_CHECK_GRACE_PERIOD,
        HEALTH_CHECK_TYPE,
        LOAD_BALANCER_NAMES,
        VPC_ZONE_IDENTIFIER,
        TAGS,
        INSTANCE_ID,
    ) = (
        "AvailabilityZones",
        "LaunchConfigurationName",
        "MaxSize",
        "MinSize",
        "Cooldown",
        "DesiredCapacity",
        "HealthCheckGracePeriod",
        "HealthCheckType",
        "LoadBalancerNames",
        "VPCZoneIdentifier",
        "Tags",
        "InstanceId",
    )
    ROLLING_UPDATE = "AutoScalingRollingUpdate"
    TAG_KEY, TAG_VALUE = LaunchConfiguredGroup.TAG_KEYS
    MIN_INSTANCES_IN_SERVICE, MAX_BATCH_SIZE, PAUSE_TIME = LaunchConfiguredGroup.ROLLING_UPDATE_KEYS
    INSTANCE_LIST = LaunchConfiguredGroup.INSTANCE_LIST

    properties_schema = {
        AVAILABILITY_ZONES: Schema(Schema.LIST, "Not Implemented.", required=True),
        LAUNCH_CONFIGURATION_NAME: Schema(
            Schema.STRING,
            "The reference to a LaunchConfiguration resource.",
            update_allowed=True,
        ),
        INSTANCE_ID: Schema(
            Schema.STRING,
            "The ID of an existing instance to use to create the Auto Scaling group. If "
            "specify this property, will create the group use an existing instance instead "
            "of a launch configuration.",
            constraints=[constraints.CustomConstraint("nova.server")],
        ),
        MAX_SIZE: Schema(
            Schema.INTEGER,
            "Maximum number of instances in the group.",
            required=True,
            update_allowed=True,
        ),
        MIN_SIZE: Schema(
            Schema.INTEGER,
            "Minimum number of instances in the group.",
            required=True,
            update_allowed=True,
        ),
        COOLDOWN: Schema(Schema.INTEGER, "Cooldown period, in seconds.", update_allowed=True),
        DESIRED_CAPACITY: Schema(
            Schema.INTEGER, "Desired initial number of instances.", update_allowed=True
        ),
        HEALTH_CHECK_GRACE_PERIOD: Schema(Schema.INTEGER, "Not Implemented.", implemented=False),
        HEALTH_CHECK_TYPE: Schema(
            Schema.STRING,
            "Not Implemented.",
            constraints=[constraints.AllowedValues(["EC2", "ELB"])],
            implemented=False,
        ),
        LOAD_BALANCER_NAMES: Schema(Schema.LIST, "List of LoadBalancer resources."),
        VPC_ZONE_IDENTIFIER: Schema(
            Schema.LIST,
            "Use only with Neutron, to list the internal subnet to which the instance will "
            "be attached; needed only if multiple exist; list length must be exactly 1.",
            schema=Schema(
                Schema.STRING,
                "UUID of the internal subnet to which the instance will be attached.",
            ),
        ),
        TAGS: Schema(
            Schema.LIST,
            "Tags to attach to this group.",
            schema=Schema(
                Schema.MAP,
                schema={
                    TAG_KEY: Schema(Schema.STRING, required=True),
                    TAG_VALUE: Schema(Schema.STRING, required=True),
                },
            ),
        ),
    }

    attributes_schema = {
        INSTANCE_LIST: AttributeSchema(
            "A comma-delimited list of server ip addresses. (Heat extension).",
            type=AttributeSchema.STRING,
        ),
    }

    update_policy_schema = {
        ROLLING_UPDATE: Schema(
            Schema.MAP,
            schema={
                MIN_INSTANCES_IN_SERVICE: Schema(Schema.INTEGER, default=0),
                MAX_BATCH_SIZE: Schema(Schema.INTEGER, default=1),
                PAUSE_TIME: Schema(Schema.STRING, default="PT0S"),
            },
        )
    }

    # Validation

    def validate(self) -> Any:
        self._validate_size()
        zones = self.properties.get(self.VPC_ZONE_IDENTIFIER)
        if zones and len(zones) != 1:
            raise exception.NotSupported(feature="Anything other than one VPCZoneIdentifier")
        if bool(self.properties.get(self.INSTANCE_ID)) == bool(
            self.properties.get(self.LAUNCH_CONFIGURATION_NAME)
        ):
            raise StackValidationFailed(
                message="Either 'InstanceId' or 'LaunchConfigurationName' must be provided."
            )
        return self._validate_launched_members()

    # Members

    def _tags(self) -> list[dict[str, str]]:
        """The instance group's tags, and the one Ceilometer names a scaling group by."""
        reference = self.FnGetRefId()
        return [
            *super()._tags(),
            {self.TAG_KEY: "metering.AutoScalingGroupName", self.TAG_VALUE: reference},
        ]

    def _member_properties(self) -> tuple[dict[str, Any], dict[str, Any]]:
        instance_id = self.properties.get(self.INSTANCE_ID)
        if instance_id:
            # Only what the server tells (Heat adds no tags to these members).
            found = server_launch_properties(self.client_plugin("nova"), instance_id)
            properties, metadata = dict(found), {}
        else:
            properties, metadata = self._launch_configuration_properties()
        zones = self.properties.get(self.VPC_ZONE_IDENTIFIER)
        if zones:
            properties["SubnetId"] = zones[0]
        return properties, metadata

    # Updating

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        self.complete_scaling()
        # Whether or not the group is scaling, it is resized to what it should be.
        return self._update_launched_members(json_snippet, tmpl_diff, prop_diff)

    def check_update_complete(self, token: Any = None) -> bool:
        done = super().check_update_complete(token)
        if done:
            self._reload_load_balancers()
        return done


RESOURCE_CLASSES = {"AWS::AutoScaling::AutoScalingGroup": AWSAutoScalingGroup}
