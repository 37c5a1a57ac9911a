"""What every group whose members live in a nested stack of ScaledResources shares: the
nested template made from the group's member definition (the oldest members going first
when it shrinks, new ones first given a new definition), the outputs the group reads its
attributes from, the environment mapping OS::Heat::ScaledResource to AWS::EC2::Instance,
and the files members of the previous template may still need during an update.

A group class gives ``_member_definition``, ``_nested_output_definitions`` and
``NESTED_TEMPLATE_VERSION``: OS::Heat::AutoScalingGroup (``autoscaling_group``),
OS::Heat::InstanceGroup (``instance_group``) and AWS::AutoScaling::AutoScalingGroup.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

from keel_app.engine.resource.lifecycle import short_id
from keel_app.engine.resource.stack_resource import StackResource
from keel_app.engine.stack import template_store
from keel_app.engine.template import Template
from keel_app.resources import group_members
from keel_app.resources.heat import scaling

SCALED_RESOURCE_TYPE = "OS::Heat::ScaledResource"


def new_member_name() -> str:
    return short_id(uuid.uuid4())


class NestedMemberGroup(StackResource):
    """A group whose nested stack's members are built from one definition."""

    NESTED_TEMPLATE_VERSION: Any = scaling.HOT_2015_04_30

    def _create_template(self, num_instances: int, num_replace: int = 0) -> Template:
        """The nested template of ``num_instances`` members, ``num_replace`` of them (new
        ones first) given the current definition; the oldest members go first."""
        definitions = list(
            scaling.member_definitions(
                group_members.member_definitions(self, include_failed=True),
                self._member_definition(),
                num_instances,
                num_replace,
                new_member_name,
                lambda _name, definition: definition,
            )
        )
        template = scaling.make_template(definitions, self.NESTED_TEMPLATE_VERSION)
        attribute_function, reference_function = "get_attr", "get_resource"
        if attribute_function not in template.functions:
            # A CloudFormation template's (the AWS groups').
            attribute_function, reference_function = "Fn::GetAtt", "Ref"
        get_attr = functools.partial(
            template.functions[attribute_function], None, attribute_function
        )
        get_resource = functools.partial(
            template.functions[reference_function], None, reference_function
        )
        names = [name for name, _definition in definitions]
        for definition in self._nested_output_definitions(names, get_attr, get_resource):
            template.add_output(definition)
        return template

    def child_params(self) -> dict[str, Any]:
        # What Heat's InstanceGroup gives, and the groups built on it inherit.
        return {
            "parameters": {},
            "resource_registry": {SCALED_RESOURCE_TYPE: "AWS::EC2::Instance"},
        }

    def get_nested_parameters_stack(self) -> Any:
        """A nested group of one member: what validation shows the parameters of."""
        return self._parse_nested_stack(
            f"{self.stack.name}-{self.name}", self._create_template(1), self.child_params()
        )

    def child_template_files(self, child_env: Any) -> Any:
        """During an update members may still be of the old template's files."""
        previous_id = getattr(self.stack, "prev_raw_template_id", None)
        if not (self.action == self.UPDATE and previous_id and hasattr(self.stack, "database")):
            return self.stack.t.files
        previous = template_store.load_template(self.stack.database, previous_id, self.stack.limits)
        files = dict(previous.files)
        files.update(dict(self.stack.t.files))
        return files
