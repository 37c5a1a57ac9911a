"""OS::Heat::AccessPolicy: which resources of the stack a stack user may describe.

``validate`` checks that every allowed resource is in the stack. Declarations only: the
life-cycle steps arrive with the engine.
"""

from __future__ import annotations

from keel_app.common.exception import StackValidationFailed
from keel_app.engine.properties import Schema
from keel_app.engine.resource import Resource


class AccessPolicy(Resource):
    """The resources that DescribeStackResource may show to the stack's users."""

    type_description = """\
Resource for defining which resources can be accessed by users.

NOTE: Now this resource is actually associated with an AWS user resource,
not any OS:: resource though it is registered under the OS namespace below.

Resource for defining resources that users are allowed to access by the
DescribeStackResource API.
"""

    PROPERTIES = (ALLOWED_RESOURCES,) = ("AllowedResources",)

    properties_schema = {
        ALLOWED_RESOURCES: Schema(
            Schema.LIST,
            "Resources that users are allowed to access by the DescribeStackResource API.",
            required=True,
        ),
    }

    def validate(self) -> None:
        super().validate()
        for name in self.properties[self.ALLOWED_RESOURCES]:
            if name not in self.stack:
                raise StackValidationFailed(message=f"AccessPolicy resource {name} not in stack")

    def access_allowed(self, resource_name: str) -> bool:
        return resource_name in self.properties[self.ALLOWED_RESOURCES]
