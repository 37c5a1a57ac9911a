"""OS::Heat::AutoScalingGroup: a nested stack of members that scaling policies resize.

Members are built from the ``resource`` property (a resource in HOT form) and named
with short random ids. The group starts at ``desired_capacity`` (else ``min_size``);
``adjust`` (what an OS::Heat::ScalingPolicy's signal calls) changes the size within
``min_size`` and ``max_size`` unless the group is scaling or in cooldown (``cooldown``'s
metadata). An update replaces the members whose definition changed in batches
(``rolling_updates``), then resizes the group to ``desired_capacity``, kept within the
bounds; when shrinking, the oldest members (failed ones first) go.

Heat's update and resize block their thread until the nested stack is done; here an
update is a list of steps (``group_steps``) run by ``check_update_complete``, and the
resize a signal asks for starts the nested stack's update and returns. Heat records the
end of that resize (the cooldown) when the nested update finishes; here it is recorded
when the group is next adjusted or updated (``complete_scaling``), with the time the
nested stack finished, so the cooldown runs from the same moment.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa

from keel_app.common import exception
from keel_app.common.exception import StackValidationFailed
from keel_app.engine import constraints, notification
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import AttributeSchema
from keel_app.engine.resource.nested_stack import stack_status
from keel_app.engine.template import Template
from keel_app.engine.template.hot import HOTemplate20150430
from keel_app.engine.template.output import OutputDefinition
from keel_app.engine.template.resource_definition import ResourceDefinition
from keel_app.models import Event
from keel_app.resources import group_members
from keel_app.resources.heat import group_steps, scaling
from keel_app.resources.heat.cooldown import SCALING_IN_PROGRESS, CooldownMixin, no_action
from keel_app.resources.heat.group_steps import RESIZE
from keel_app.resources.heat.nested_group import SCALED_RESOURCE_TYPE, NestedMemberGroup

__all__ = ["SCALED_RESOURCE_TYPE", "AutoScalingResourceGroup", "MemberInterpreter"]

LOG = logging.getLogger(__name__)

# resource_data: the cooldown and reason of a resize a signal started, until it is done.
PENDING_RESIZE = "scaling_resize"


class MemberInterpreter(HOTemplate20150430):
    """Reads the ``resource`` property as a HOT resource whose values are all data."""

    def __new__(cls) -> MemberInterpreter:
        return object.__new__(cls)

    def __init__(self) -> None:
        super().__init__({"heat_template_version": "2015-04-30"})

    def parse(self, stack: Any, snippet: Any, path: str = "") -> Any:
        return snippet

    def parse_condition(self, stack: Any, snippet: Any, path: str = "") -> Any:
        return snippet


def scaling_notification(group: Any, suffix: str, **details: Any) -> None:
    """Heat's ``orchestration.autoscaling.<suffix>`` (start, end, error), with Heat's
    payload fields as ``details``: adjustment, adjustment_type, capacity, groupname and
    message."""
    notification.send_autoscaling(group.stack, phase=suffix, **details)


class AutoScalingResourceGroup(CooldownMixin, NestedMemberGroup):
    """A group of resources of any type that scaling policies resize."""

    support_status = SupportStatus(version="2014.1")
    type_description = """\
An autoscaling group that can scale arbitrary resources.

An autoscaling group allows the creation of a desired count of similar
resources, which are defined with the resource property in HOT format.
If there is a need to create many of the same resources (e.g. one
hundred sets of Server, WaitCondition and WaitConditionHandle or even
Neutron Nets), AutoScalingGroup is a convenient and easy way to do that.
"""

    PROPERTIES = (RESOURCE, MAX_SIZE, MIN_SIZE, COOLDOWN, DESIRED_CAPACITY, ROLLING_UPDATES) = (
        "resource",
        "max_size",
        "min_size",
        "cooldown",
        "desired_capacity",
        "rolling_updates",
    )
    ROLLING_UPDATES_KEYS = (MIN_IN_SERVICE, MAX_BATCH_SIZE, PAUSE_TIME) = (
        "min_in_service",
        "max_batch_size",
        "pause_time",
    )
    ATTRIBUTES = (OUTPUTS, OUTPUTS_LIST, CURRENT_SIZE, REFS, REFS_MAP) = (
        "outputs",
        "outputs_list",
        "current_size",
        "refs",
        "refs_map",
    )
    # The nested stack's output of member references (also read for refs and refs_map).
    OUTPUT_MEMBER_IDS = REFS_MAP
    NESTED_TEMPLATE_VERSION = scaling.HOT_2015_04_30

    properties_schema = {
        RESOURCE: Schema(
            Schema.MAP,
            "Resource definition for the resources in the group, in HOT format. The value of "
            "this property is the definition of a resource just as if it had been declared in "
            "the template itself.",
            required=True,
            update_allowed=True,
        ),
        MAX_SIZE: Schema(
            Schema.INTEGER,
            "Maximum number of resources in the group.",
            required=True,
            update_allowed=True,
            constraints=[constraints.Range(min=0)],
        ),
        MIN_SIZE: Schema(
            Schema.INTEGER,
            "Minimum number of resources in the group.",
            required=True,
            update_allowed=True,
            constraints=[constraints.Range(min=0)],
        ),
        COOLDOWN: Schema(Schema.INTEGER, "Cooldown period, in seconds.", update_allowed=True),
        DESIRED_CAPACITY: Schema(
            Schema.INTEGER, "Desired initial number of resources.", update_allowed=True
        ),
        ROLLING_UPDATES: Schema(
            Schema.MAP,
            "Policy for rolling updates for this scaling group.",
            update_allowed=True,
            schema={
                MIN_IN_SERVICE: Schema(
                    Schema.INTEGER,
                    "The minimum number of resources in service while rolling updates are "
                    "being executed.",
                    constraints=[constraints.Range(min=0)],
                    default=0,
                ),
                MAX_BATCH_SIZE: Schema(
                    Schema.INTEGER,
                    "The maximum number of resources to replace at once.",
                    constraints=[constraints.Range(min=1)],
                    default=1,
                ),
                PAUSE_TIME: Schema(
                    Schema.NUMBER,
                    "The number of seconds to wait between batches of updates.",
                    constraints=[constraints.Range(min=0)],
                    default=0,
                ),
            },
            # Without a policy every field still has its default.
            default={MIN_IN_SERVICE: 0, MAX_BATCH_SIZE: 1, PAUSE_TIME: 0},
        ),
    }

    attributes_schema = {
        OUTPUTS: AttributeSchema(
            "A map of resource names to the specified attribute of each individual resource "
            "that is part of the AutoScalingGroup. This map specifies output parameters that "
            "are available once the AutoScalingGroup has been instantiated.",
            support_status=SupportStatus(version="2014.2"),
            type=AttributeSchema.MAP,
        ),
        OUTPUTS_LIST: AttributeSchema(
            "A list of the specified attribute of each individual resource that is part of "
            "the AutoScalingGroup. This list of attributes is available as an output once "
            "the AutoScalingGroup has been instantiated.",
            support_status=SupportStatus(version="2014.2"),
            type=AttributeSchema.LIST,
        ),
        CURRENT_SIZE: AttributeSchema(
            "The current size of AutoscalingResourceGroup.",
            support_status=SupportStatus(version="2015.1"),
            type=AttributeSchema.INTEGER,
        ),
        REFS: AttributeSchema(
            "A list of resource IDs for the resources in the group.",
            type=AttributeSchema.LIST,
            support_status=SupportStatus(version="7.0.0"),
        ),
        REFS_MAP: AttributeSchema(
            "A map of resource names to IDs for the resources in the group.",
            type=AttributeSchema.MAP,
            support_status=SupportStatus(version="7.0.0"),
        ),
    }

    update_policy_schema: dict[str, Any] = {}
    _shown_metadata: Any = None

    # Size

    def get_size(self) -> Any:
        """The desired size (None when the template gives none)."""
        return self.properties[self.DESIRED_CAPACITY]

    def current_size(self) -> int:
        return group_members.GroupInspector(self).size(include_failed=False)

    def _get_new_capacity(
        self,
        capacity: int,
        adjustment: Any,
        adjustment_type: str = scaling.CFN_EXACT_CAPACITY,
        min_adjustment_step: int | None = None,
    ) -> Any:
        return scaling.calculate_new_capacity(
            capacity,
            adjustment,
            adjustment_type,
            min_adjustment_step,
            self.properties[self.MIN_SIZE],
            self.properties[self.MAX_SIZE],
        )

    def validate(self) -> Any:
        self._validate_size()
        return super().validate()

    def _validate_size(self) -> None:
        min_size = self.properties[self.MIN_SIZE]
        max_size = self.properties[self.MAX_SIZE]
        # Heat words these as the CloudFormation group's properties, for both types.
        if max_size < min_size:
            raise StackValidationFailed(message="MinSize can not be greater than MaxSize")
        if min_size < 0:
            raise StackValidationFailed(
                message="The size of AutoScalingGroup can not be less than zero"
            )
        desired = self.properties[self.DESIRED_CAPACITY]
        if desired is not None and (desired < min_size or desired > max_size):
            raise StackValidationFailed(
                message="DesiredCapacity must be between MinSize and MaxSize"
            )

    # The nested stack

    def _member_definition(self) -> ResourceDefinition:
        arguments = dict(
            MemberInterpreter()._rsrc_defn_args(None, "member", self.properties[self.RESOURCE])
        )
        return ResourceDefinition(None, **arguments)

    def child_template(self) -> Template:
        size = self.properties[self.DESIRED_CAPACITY] or self.properties[self.MIN_SIZE]
        return self._create_template(size)

    # Creating and updating

    def _finished_as_exact_capacity(self) -> None:
        self._finished_scaling(
            self.properties[self.COOLDOWN],
            f"{scaling.CFN_EXACT_CAPACITY} : {self.current_size()}",
        )

    def handle_create(self) -> Any:
        self.create_with_template(self.child_template(), self.child_params())
        return None

    def check_create_complete(self, token: Any = None) -> bool:
        done = super().check_create_complete(token)
        if done:
            self._finished_as_exact_capacity()
        return done

    def handle_update(self, json_snippet: Any, tmpl_diff: Any, prop_diff: Any) -> Any:
        self.complete_scaling()
        self.properties = json_snippet.properties(self.properties_schema, self.context)
        steps: list[list[Any]] = []
        if prop_diff and self.RESOURCE in prop_diff:
            steps = self._rolling_update_steps()
        # Whether or not the group is scaling, it is resized to what it should be.
        steps.append([RESIZE])
        token = group_steps.steps_token(steps)
        group_steps.run_steps(self, token, self._start_step)
        return token

    def check_update_complete(self, token: Any = None) -> bool:
        if token is None:
            done = super().check_update_complete(token)
        else:
            done = group_steps.run_steps(self, token, self._start_step)
        if done:
            self._finished_as_exact_capacity()
        return done

    def _rolling_update_steps(self) -> list[list[Any]]:
        """Heat's ``_replace``: the batches that give every member the new definition."""
        policy = self.properties[self.ROLLING_UPDATES]
        capacity = group_members.GroupInspector(self).size(include_failed=True)
        target = min(self.get_size() or capacity, capacity)
        batches = scaling.instance_group_batches(
            target, capacity, policy[self.MAX_BATCH_SIZE], policy[self.MIN_IN_SERVICE]
        )
        return group_steps.batch_steps(
            self.stack, batches, policy[self.PAUSE_TIME], with_timeout=False
        )

    def _start_step(self, step: list[Any]) -> dict[str, Any]:
        if step[0] == RESIZE:
            capacity = self.current_size()
            desired = self.properties[self.DESIRED_CAPACITY] or capacity
            template = self._create_template(self._get_new_capacity(capacity, desired))
            self.clear_stored_attributes()
        else:
            _kind, capacity, max_updates, _timeout = step
            template = self._create_template(capacity, max_updates)
        return self.update_with_template(template, self.child_params())

    # Scaling

    def adjust(
        self,
        adjustment: Any,
        adjustment_type: str = scaling.CFN_CHANGE_IN_CAPACITY,
        min_adjustment_step: int | None = None,
        cooldown: Any = None,
    ) -> None:
        """Start resizing by ``adjustment`` if nothing (a scaling, a cooldown) forbids it."""
        self.complete_scaling()
        if self.status != self.COMPLETE:
            LOG.info("%s NOT performing scaling adjustment, when status is not COMPLETE", self)
            raise no_action()
        capacity = self.current_size()
        new_capacity = self._get_new_capacity(
            capacity, adjustment, adjustment_type, min_adjustment_step
        )
        if new_capacity == capacity:
            LOG.info("%s NOT performing scaling adjustment, as there is no change", self)
            raise no_action()
        if cooldown is None:
            cooldown = self.properties[self.COOLDOWN]
        self._check_scaling_allowed(cooldown)
        reason = f"{adjustment_type} : {adjustment}"
        group_name = self.FnGetRefId()
        details = {
            "adjustment": adjustment,
            "adjustment_type": adjustment_type,
            "capacity": capacity,
            "groupname": group_name,
            "message": f"Start resizing the group {group_name}",
        }
        scaling_notification(self, "start", **details)
        try:
            self.update_with_template(self._create_template(new_capacity), self.child_params())
        except Exception as error:
            details.update(capacity=self.current_size(), message=str(error))
            scaling_notification(self, "error", **details)
            LOG.error("Error in performing scaling adjustment for group %s.", self.name)
            self._finished_scaling(cooldown, reason, size_changed=False)
            raise
        finally:
            # The attributes are read afresh from the resized group.
            self.clear_stored_attributes()
        details["capacity"] = new_capacity
        pending = {"cooldown": cooldown, "reason": reason, "notification": details}
        self.data_set(PENDING_RESIZE, json.dumps(pending))

    def complete_scaling(self) -> bool:
        """Record the end of a resize a signal started, once the nested stack is done;
        whether none is left running."""
        pending = self.data().get(PENDING_RESIZE)
        if not pending:
            return True
        state = stack_status(self.stack.database, self.resource_id)
        if state is not None and state.status == self.IN_PROGRESS:
            return False
        resize = json.loads(pending)
        details = resize["notification"]
        resized = state is not None and state.status == self.COMPLETE
        if resized:
            details["message"] = f"End resizing the group {details['groupname']}"
            scaling_notification(self, "end", **details)
        else:
            details.update(
                capacity=self.current_size(),
                message=state.status_reason if state is not None else "",
            )
            scaling_notification(self, "error", **details)
        self._finished_scaling(
            resize["cooldown"], resize["reason"], resized, self._nested_finished_at()
        )
        self.data_delete(PENDING_RESIZE)
        return True

    @property
    def stored_metadata(self) -> Any:
        """The metadata the API shows: a resize that has finished is recorded first."""
        metadata = self._shown_metadata
        if isinstance(metadata, dict) and metadata.get(SCALING_IN_PROGRESS) and self.id:
            try:
                if self.complete_scaling():
                    return self.metadata_get(refresh=True)
            except exception.HeatException as error:
                LOG.info("Could not record the end of the scaling of %s: %s", self, error)
        return metadata

    @stored_metadata.setter
    def stored_metadata(self, metadata: Any) -> None:
        self._shown_metadata = metadata

    def _nested_finished_at(self) -> Any:
        """When the nested stack's last change was recorded (its newest event)."""
        with self.stack.database.transaction() as session:
            return session.scalar(
                sa.select(sa.func.max(Event.created_at)).where(Event.stack_id == self.resource_id)
            )

    # Attributes

    def _attribute_output_name(self, *attribute_path: Any) -> str:
        return ", ".join(str(item) for item in attribute_path)

    def _output(self, key: str, path: tuple[Any, ...]) -> Any:
        """The nested stack's output for the attribute; NotFound when it has none."""
        output = self.get_output(self._attribute_output_name(key, *path))
        if output is None:
            # No nested stack (yet) to have outputs.
            raise exception.NotFound("The group has no nested stack")
        return output

    def get_attribute(self, key: str, *path: Any) -> Any:
        if key == self.CURRENT_SIZE:
            return self.current_size()
        output_key, output_path = key, path
        key_parts = None
        if key == self.OUTPUTS_LIST:
            output_key = self.OUTPUTS
        elif key == self.REFS:
            output_key = self.REFS_MAP
        elif key.startswith("resource."):
            key_parts = key.split(".", 2)
            if len(key_parts) > 2:
                output_path = (key_parts[2], *path)
            output_key = self.OUTPUTS if output_path else self.REFS_MAP
        try:
            output = self._output(output_key, output_path)
        except (exception.NotFound, exception.TemplateOutputError) as error:
            LOG.debug("Reading the members of %s, since %s", self.name, error)
            return self._attribute_from_members(key, key_parts, path)
        names = list(group_members.GroupInspector(self).member_names(include_failed=False))
        if key in (self.REFS, self.OUTPUTS_LIST) and (key == self.REFS or path):
            return [output[name] for name in names if name in output]
        if key == self.REFS_MAP or (key == self.OUTPUTS and path):
            return {name: output[name] for name in names if name in output}
        if key_parts is not None:
            index = key_parts[1]
            try:
                return output[names[int(index)]]
            except (IndexError, KeyError):
                raise exception.NotFound(
                    f"Member '{index}' not found in group resource '{self.name}'."
                ) from None
        raise exception.InvalidTemplateAttribute(resource=self.name, key=key)

    def _attribute_from_members(self, key: str, key_parts: Any, path: tuple[Any, ...]) -> Any:
        """What Heat's ``grouputils`` answers when no output of the nested stack does."""
        if key == self.REFS:
            return [member.FnGetRefId() for member in group_members.members(self)]
        if key == self.REFS_MAP:
            return {member.name: member.resource_id for member in group_members.members(self)}
        if path and key in (self.OUTPUTS, self.OUTPUTS_LIST):
            values = [
                (member.name, member.FnGetAtt(*path)) for member in group_members.members(self)
            ]
            if key == self.OUTPUTS:
                return dict(values)
            return [value for _name, value in values]
        if key_parts is not None:
            return group_members.nested_attribute(self, key, True, *path)
        raise exception.InvalidTemplateAttribute(resource=self.name, key=key)

    def _nested_output_definitions(
        self, member_names: list[str], get_attr: Any, get_resource: Any
    ) -> Iterator[OutputDefinition]:
        """A map output for every member attribute of the group that is read (a list's
        order is not known when the template is made), and the map of references."""
        for attribute in self.referenced_attrs():
            if isinstance(attribute, str):
                key, path = attribute, []
            else:
                key, path = attribute[0], list(attribute[1:])
            if key == self.OUTPUTS_LIST:
                key = self.OUTPUTS
            if key.startswith("resource."):
                path = key.split(".", 2)[2:] + path
                if path:
                    key = self.OUTPUTS
            if key == self.OUTPUTS and path:
                value = {member: get_attr([member, *path]) for member in member_names}
                yield OutputDefinition(self._attribute_output_name(key, *path), value)
        references = {member: get_resource(member) for member in member_names}
        yield OutputDefinition(self.OUTPUT_MEMBER_IDS, references)
