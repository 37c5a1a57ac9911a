"""Scaling policies: a signal (an alarm) adjusts an AutoScalingGroup of the same stack.

OS::Heat::ScalingPolicy names its group by reference (``auto_scaling_group_id``) and
says how to adjust it: ``change_in_capacity``, ``exact_capacity`` or
``percent_change_in_capacity`` (with ``min_adjustment_step``), and the cooldown to use
instead of the group's. AWS::AutoScaling::ScalingPolicy is the same with
CloudFormation's names; its reference is its signed URL.

The URLs to signal with (``alarm_url``, an EC2-signed CFN URL that never expires;
``signal_url``, the native API's, see ``signal_urls``) belong to the policy's
stack-domain user, as a wait condition handle's credentials do (``stack_user``): without
Keystone there is no user, so the policy has no ``resource_id``, the URLs are None, and
it is signalled through the API only. A URL made for the user is also kept in
resource_data (``ec2_signed_url``, ``heat_signal_url``), which is what an engine without
Keystone can still hand out.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.common import exception
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.engine.resource.siblings import resource_by_refid
from keel_app.resources.heat import scaling, signal_urls
from keel_app.resources.heat.signal_urls import EC2_SIGNED_URL, HEAT_SIGNAL_URL
from keel_app.resources.heat.stack_user import StackUser

LOG = logging.getLogger(__name__)


class AutoScalingPolicy(StackUser):
    """Adjusts the size of an OS::Heat::AutoScalingGroup when signalled."""

    type_description = """\
A resource to manage scaling of `OS::Heat::AutoScalingGroup`.

**Note** while it may incidentally support
`AWS::AutoScaling::AutoScalingGroup` for now, please don't use it for that
purpose and use `AWS::AutoScaling::ScalingPolicy` instead.

Resource to manage scaling for `OS::Heat::AutoScalingGroup`, i.e. define
which metric should be scaled and scaling adjustment, set cooldown etc.
"""

    # Signals are handled later, with credentials made for the stack's user.
    requires_deferred_auth = True

    PROPERTIES = (
        AUTO_SCALING_GROUP_NAME,
        SCALING_ADJUSTMENT,
        ADJUSTMENT_TYPE,
        COOLDOWN,
        MIN_ADJUSTMENT_STEP,
    ) = (
        "auto_scaling_group_id",
        "scaling_adjustment",
        "adjustment_type",
        "cooldown",
        "min_adjustment_step",
    )
    ATTRIBUTES = (ALARM_URL, SIGNAL_URL) = ("alarm_url", "signal_url")
    PERCENT_TYPE = scaling.PERCENT_CHANGE_IN_CAPACITY

    properties_schema = {
        AUTO_SCALING_GROUP_NAME: Schema(
            Schema.STRING, "AutoScaling group ID to apply policy to.", required=True
        ),
        SCALING_ADJUSTMENT: Schema(
            Schema.NUMBER, "Size of adjustment.", required=True, update_allowed=True
        ),
        ADJUSTMENT_TYPE: Schema(
            Schema.STRING,
            "Type of adjustment (absolute or percentage).",
            required=True,
            constraints=[
                constraints.AllowedValues(
                    [
                        scaling.CHANGE_IN_CAPACITY,
                        scaling.EXACT_CAPACITY,
                        scaling.PERCENT_CHANGE_IN_CAPACITY,
                    ]
                ),
            ],
            update_allowed=True,
        ),
        COOLDOWN: Schema(Schema.NUMBER, "Cooldown period, in seconds.", update_allowed=True),
        MIN_ADJUSTMENT_STEP: Schema(
            Schema.INTEGER,
            "Minimum number of resources that are added or removed when the AutoScaling "
            "group scales up or down. This can be used only when specifying "
            "percent_change_in_capacity for the adjustment_type property.",
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
        ),
    }

    attributes_schema = {
        ALARM_URL: AttributeSchema(
            "A signed url to handle the alarm.",
            type=AttributeSchema.STRING,
            cache_mode=AttributeSchema.CACHE_NONE,
        ),
        SIGNAL_URL: AttributeSchema(
            "A url to handle the alarm using native API.",
            support_status=SupportStatus(version="5.0.0"),
            type=AttributeSchema.STRING,
        ),
    }

    def validate(self) -> Any:
        result = super().validate()
        self._validate_min_adjustment_step()
        return result

    def _validate_min_adjustment_step(self) -> None:
        adjustment_type = self.properties.get(self.ADJUSTMENT_TYPE)
        step = self.properties.get(self.MIN_ADJUSTMENT_STEP)
        if adjustment_type != self.PERCENT_TYPE and step is not None:
            raise exception.ResourcePropertyValueDependency(
                prop1=self.MIN_ADJUSTMENT_STEP, prop2=self.ADJUSTMENT_TYPE, value=self.PERCENT_TYPE
            )

    def handle_create(self) -> Any:
        super().handle_create()
        self.resource_id_set(self._get_user_id())
        return None

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        # The new values are what later signals adjust the group with.
        if prop_diff:
            self.properties = json_snippet.properties(self.properties_schema, self.context)
        return None

    def handle_delete(self) -> Any:
        signal_urls.delete_urls(self)
        return super().handle_delete()

    def handle_signal(self, details: Any = None) -> None:
        # Any alarm action adjusts the group, whatever the alarm's state; the state is
        # only logged (an alarm without one is taken as "alarm").
        if details is None:
            alarm_state = "alarm"
        else:
            alarm_state = str(details.get("current", details.get("state", "alarm"))).lower()
        LOG.info("Alarm %s, new state %s", self.name, alarm_state)
        group_id = self.properties[self.AUTO_SCALING_GROUP_NAME]
        group = resource_by_refid(self.stack, group_id)
        if group is None:
            raise exception.NotFound(
                f'Alarm {self.name} could not find scaling group named "{group_id}"'
            )
        LOG.info(
            "%s alarm, adjusting group %s with id %s by %s",
            self.name,
            group.name,
            group_id,
            self.properties[self.SCALING_ADJUSTMENT],
        )
        with group.frozen_properties():
            group.adjust(
                self.properties[self.SCALING_ADJUSTMENT],
                self.properties[self.ADJUSTMENT_TYPE],
                self.properties[self.MIN_ADJUSTMENT_STEP],
                self.properties[self.COOLDOWN],
            )

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == self.ALARM_URL:
            return self._alarm_url()
        if name == self.SIGNAL_URL:
            if self.keystone() is None:
                return self.data().get(HEAT_SIGNAL_URL)
            return str(signal_urls.heat_signal_url(self))
        return None

    def _alarm_url(self) -> str | None:
        if self.keystone() is None:
            # Only a URL made for the user can be handed out (None until one is).
            return self.data().get(EC2_SIGNED_URL)
        url = signal_urls.ec2_signed_url(self, never_expire=True)
        if url is not None and self.data().get(EC2_SIGNED_URL) != url:
            self.data_set(EC2_SIGNED_URL, url)
        # Heat's quirk: a URL that could not be signed reads "None".
        return str(url)


class AWSScalingPolicy(AutoScalingPolicy):
    """AWS::AutoScaling::ScalingPolicy: the policy with CloudFormation's names."""

    type_description = None
    PROPERTIES = (
        AUTO_SCALING_GROUP_NAME,
        SCALING_ADJUSTMENT,
        ADJUSTMENT_TYPE,
        COOLDOWN,
        MIN_ADJUSTMENT_STEP,
    ) = (
        "AutoScalingGroupName",
        "ScalingAdjustment",
        "AdjustmentType",
        "Cooldown",
        "MinAdjustmentStep",
    )
    ATTRIBUTES = (ALARM_URL,) = ("AlarmUrl",)
    PERCENT_TYPE = scaling.CFN_PERCENT_CHANGE_IN_CAPACITY

    properties_schema = {
        AUTO_SCALING_GROUP_NAME: Schema(
            Schema.STRING, "AutoScaling group name to apply policy to.", required=True
        ),
        SCALING_ADJUSTMENT: Schema(
            Schema.INTEGER, "Size of adjustment.", required=True, update_allowed=True
        ),
        ADJUSTMENT_TYPE: Schema(
            Schema.STRING,
            "Type of adjustment (absolute or percentage).",
            required=True,
            constraints=[
                constraints.AllowedValues(
                    [
                        scaling.CFN_CHANGE_IN_CAPACITY,
                        scaling.CFN_EXACT_CAPACITY,
                        scaling.CFN_PERCENT_CHANGE_IN_CAPACITY,
                    ]
                ),
            ],
            update_allowed=True,
        ),
        COOLDOWN: Schema(Schema.INTEGER, "Cooldown period, in seconds.", update_allowed=True),
        MIN_ADJUSTMENT_STEP: Schema(
            Schema.INTEGER,
            "Minimum number of resources that are added or removed when the AutoScaling "
            "group scales up or down. This can be used only when specifying "
            "PercentChangeInCapacity for the AdjustmentType property.",
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
        ),
    }

    attributes_schema = {
        ALARM_URL: AttributeSchema(
            "A signed url to handle the alarm. (Heat extension).",
            type=AttributeSchema.STRING,
            cache_mode=AttributeSchema.CACHE_NONE,
        ),
    }

    def get_reference_id(self) -> str:
        if self.resource_id is not None:
            # Signed for the user's EC2 keypair, as the CloudFormation handle's is.
            return str(self._alarm_url())
        return str(self.name)
