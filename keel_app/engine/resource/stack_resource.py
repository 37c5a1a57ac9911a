"""The base of resources that own a nested stack (groups, chains, nested templates).

A subclass gives its child template and parameters (``child_template``,
``child_params``); from them a nested stack is built as the same kind of stack as the
parent (``type(self.stack)(...)``, Heat's ``parser.Stack`` arguments), with the child
environment and the parent's limits on depth and total resources. Validation builds
it to validate the child (``validate_nested_stack``) and to show its parameters
(``get_nested_parameters_stack``). Creating, updating and deleting the nested stack
arrive with the engine.
"""

from __future__ import annotations

import logging
from typing import Any

from keel_app.common.exception import (
    RequestLimitExceeded,
    StackResourceLimitExceeded,
    StackValidationFailed,
)
from keel_app.engine.environment import get_child_environment
from keel_app.engine.resource.base import Resource
from keel_app.engine.template import DEFAULT_LIMITS, Template

LOG = logging.getLogger(__name__)


class StackResource(Resource):
    """A resource implemented by a nested stack."""

    requires_deferred_auth = True
    # The registry entry a template resource came from: its child must not use it again.
    resource_info: Any = None

    def validate(self) -> Any:
        result = super().validate()
        # A nested stack is validated once, before the root stack is created, not
        # again while each child stack is being created.
        if getattr(self.stack, "nested_depth", 0) == 0 or not self.stack.strict_validate:
            self.validate_nested_stack()
        return result

    def validate_nested_stack(self) -> None:
        """Build the child stack and validate it, leniently (as Heat does)."""
        if not callable(getattr(type(self.stack), "validate", None)):
            # The stack given cannot build and validate stacks of its kind.
            return
        try:
            child_template = self.child_template()
            child_params = self.child_params()
        except NotImplementedError:
            LOG.warning("Nested validation of %s not yet implemented", type(self).__name__)
            return
        try:
            nested = self._parse_nested_stack(
                f"{self.stack.name}-{self.name}", child_template, child_params
            )
            nested.strict_validate = False
            nested.validate()
        except AssertionError:
            raise
        except Exception as error:
            raise StackValidationFailed(
                error=str(error),
                path=[self.stack.t.RESOURCES, f"{self.name}<{self.template_url}>"],
            ) from None

    @property
    def template_url(self) -> str:
        """Where the nested template comes from; generated templates have no location."""
        return "nested_stack"

    def nested_identifier(self) -> Any:
        """The nested stack's identifier; there is none before it is created."""
        if self.resource_id is None:
            return None
        raise NotImplementedError("stored nested stacks arrive with the engine")

    def child_template(self) -> Any:
        raise NotImplementedError

    def child_params(self) -> Any:
        raise NotImplementedError

    def child_template_files(self, child_env: Any) -> Any:
        return self.stack.t.files

    def get_nested_parameters_stack(self) -> Any:
        """The nested stack whose parameters validation shows, if the type has one."""
        try:
            child_template = self.child_template()
            child_params = self.child_params()
        except NotImplementedError:
            LOG.warning("Nested parameters of %s not yet implemented", type(self).__name__)
            return None
        return self._parse_nested_stack(
            f"{self.stack.name}-{self.name}", child_template, child_params
        )

    def _limits(self) -> Any:
        return getattr(self.stack, "limits", DEFAULT_LIMITS)

    def _parse_child_template(self, child_template: Any, child_env: Any) -> Template:
        data = child_template.t if isinstance(child_template, Template) else child_template
        return Template(
            data,
            files=self.child_template_files(child_env),
            env=child_env,
            limits=self._limits(),
        )

    def _parse_nested_stack(
        self,
        stack_name: str,
        child_template: Any,
        child_params: Any,
        timeout_mins: int | None = None,
        adopt_data: Any = None,
    ) -> Any:
        if timeout_mins is None:
            timeout_mins = self.stack.timeout_mins
        depth = self._child_nested_depth()
        child_env = get_child_environment(
            self.stack.env,
            child_params,
            child_resource_name=self.name,
            item_to_remove=self.resource_info,
        )
        parsed = self._parse_child_template(child_template, child_env)
        self._validate_nested_resources(parsed)
        # Rollback belongs to the parent stack, never to a nested one.
        nested = type(self.stack)(
            self.context,
            stack_name,
            parsed,
            timeout_mins=timeout_mins,
            disable_rollback=True,
            parent_resource=self.name,
            owner_id=self.stack.id,
            user_creds_id=self.stack.user_creds_id,
            stack_user_project_id=self.stack.stack_user_project_id,
            adopt_stack_data=adopt_data,
            nested_depth=depth,
        )
        nested.set_parent_stack(self.stack)
        return nested

    def _child_nested_depth(self) -> int:
        maximum = self._limits().max_nested_stack_depth
        if self.stack.nested_depth >= maximum:
            raise RequestLimitExceeded(message=f"Recursion depth exceeds {maximum}.")
        return int(self.stack.nested_depth) + 1

    def _validate_nested_resources(self, template: Any) -> None:
        maximum = self._limits().max_resources_per_stack
        if maximum == -1:
            return
        total = len(template[template.RESOURCES]) + self.stack.total_resources(None)
        if total > maximum:
            raise RequestLimitExceeded(message=StackResourceLimitExceeded.msg_fmt)
