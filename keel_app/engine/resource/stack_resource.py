"""The base of resources that own a nested stack (groups, chains, nested templates).

A subclass gives its child template and parameters (``child_template``,
``child_params``). Validation builds from them a nested stack of the same kind as the
parent (``type(self.stack)(...)``, Heat's ``parser.Stack`` arguments), with the child
environment and the parent's limits on depth and total resources, to validate it
(``validate_nested_stack``) and to show its parameters (``get_nested_parameters_stack``).

The life cycle is Heat's: ``create_with_template`` asks the engine to create the child
(owned by this stack, one level deeper, with its credentials) and keeps the child's id
as the resource id; ``update_with_template`` and ``delete_nested`` update and delete it
the same way. The engine runs the child's traversal on the parent's dispatcher; the
``check_*_complete`` steps read the child's row until it reaches the action's COMPLETE,
and a FAILED child fails the resource with the child's reason. The child's outputs are
the resource's attributes (``get_output``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from keel_app.common import exception
from keel_app.common.exception import (
    RequestLimitExceeded,
    StackResourceLimitExceeded,
    StackValidationFailed,
)
from keel_app.common.identifier import HeatIdentifier
from keel_app.engine.environment import get_child_environment
from keel_app.engine.resource.base import Resource
from keel_app.engine.resource.nested_stack import EngineCalls, remote_errors, stack_status
from keel_app.engine.template import DEFAULT_LIMITS, Template

LOG = logging.getLogger(__name__)

# What a child is made of before its first update, when it was never created.
EMPTY_CHILD_TEMPLATE = {"heat_template_version": "2013-05-23"}
# The token of an update step: the child's action to wait for, and whether the child
# had to be created empty first (the update itself then still has to be started).
TARGET_ACTION = "target_action"
RESTART = "restart"
OUTPUT_KEY, OUTPUT_VALUE, OUTPUT_ERROR = "output_key", "output_value", "output_error"


class StackResource(Resource):
    """A resource implemented by a nested stack."""

    requires_deferred_auth = True
    # The registry entry a template resource came from: its child must not use it again.
    resource_info: Any = None
    _nested: Any = None
    # The child's outputs as show_stack answered them, by key.
    _outputs: dict[str, Any] | None = None

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
            nested = self._parse_nested_stack(
                f"{self.stack.name}-{self.name}", self.child_template(), self.child_params()
            )
            nested.strict_validate = False
            nested.validate()
        except AssertionError:
            raise
        except Exception as error:
            raise StackValidationFailed(
                error=error,
                path=[self.stack.t.RESOURCES, f"{self.name}<{self.template_url}>"],
            ) from None

    @property
    def template_url(self) -> str:
        """Where the nested template comes from; generated templates have no location."""
        return "nested_stack"

    def nested_identifier(self) -> HeatIdentifier | None:
        """The nested stack's identifier; there is none before it is created."""
        if self.resource_id is None:
            return None
        return HeatIdentifier(
            self.context.project_id, str(self.physical_resource_name()), self.resource_id
        )

    def has_nested(self) -> bool:
        return self.resource_id is not None or self._nested is not None

    def nested(self) -> Any:
        """The stored nested stack (deleted or not), or None when there is none."""
        if self._nested is None and self.resource_id is not None:
            self._nested = self._engine().load(self.resource_id)
        return self._nested

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
        # A stored stack's kind is built with the parent's database and settings.
        storage = {
            name: getattr(self.stack, name)
            for name in ("database", "settings")
            if hasattr(self.stack, name)
        }
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
            **storage,
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

    # The life cycle of the nested stack

    def _engine(self) -> EngineCalls:
        return EngineCalls.of(self)

    def child_definition(self, child_template: Any = None, user_params: Any = None) -> Template:
        """The child's template with the child environment, as it is handed to the engine."""
        if user_params is None:
            user_params = self.child_params()
        if child_template is None:
            child_template = self.child_template()
        child_env = get_child_environment(
            self.stack.env,
            user_params,
            child_resource_name=self.name,
            item_to_remove=self.resource_info,
        )
        return self._parse_child_template(child_template, child_env)

    def _stack_arguments(self, child_template: Any, user_params: Any) -> dict[str, Any]:
        parsed = self.child_definition(child_template, user_params)
        return {
            "template": parsed.t,
            "params": parsed.env.user_env_as_dict(),
            "files": dict(parsed.files),
        }

    def create_with_template(
        self,
        child_template: Any,
        user_params: Any = None,
        timeout_mins: int | None = None,
        adopt_data: Any = None,
    ) -> None:
        """Ask the engine to create the nested stack; its id becomes the resource id.

        With ``adopt_data`` (what an abandon handed over of the nested stack) the child is
        adopted instead; the data lacking an environment or a template gets the child's.
        """
        if timeout_mins is None:
            timeout_mins = self.stack.timeout_mins
        arguments = self._stack_arguments(child_template, user_params)
        args: dict[str, Any] = {"timeout_mins": timeout_mins, "disable_rollback": True}
        if adopt_data is not None:
            adopt_data = dict(adopt_data)
            adopt_data.setdefault("environment", arguments["params"])
            adopt_data.setdefault("template", arguments["template"])
            args["adopt_stack_data"] = json.dumps(adopt_data)
        arguments.update(
            stack_name=self.physical_resource_name(),
            args=args,
            environment_files=None,
            owner_id=self.stack.id,
            user_creds_id=self.stack.user_creds_id,
            stack_user_project_id=self.stack.stack_user_project_id,
            nested_depth=self._child_nested_depth(),
            parent_resource_name=self.name,
        )
        with remote_errors(self):
            identity = self._engine().create_stack(**arguments)
        self.resource_id_set(identity["stack_id"])

    def update_with_template(
        self, child_template: Any, user_params: Any = None, timeout_mins: int | None = None
    ) -> dict[str, Any]:
        """Start the nested stack's update; the token its ``check_update_complete`` waits on.

        During the parent's rollback an update still running in the child is rolled back
        instead. A child never created is created empty first: the token then says that
        the update itself is still to be started (``RESTART``).
        """
        if self.stack.action == self.stack.ROLLBACK and self._try_rollback():
            LOG.info("Triggered nested stack %s rollback", self.physical_resource_name())
            return {TARGET_ACTION: self.stack.ROLLBACK}
        if self.resource_id is None:
            self.create_with_template(EMPTY_CHILD_TEMPLATE, {})
            return {TARGET_ACTION: self.CREATE, RESTART: True}
        if timeout_mins is None:
            timeout_mins = self.stack.timeout_mins
        if stack_status(self.stack.database, self.resource_id) is None:
            raise exception.UpdateReplace(str(self))
        identity = self.nested_identifier()
        assert identity is not None
        arguments = self._stack_arguments(child_template, user_params)
        arguments.update(
            stack_identity=dict(identity),
            args={"timeout_mins": timeout_mins, "converge": bool(self._converge())},
        )
        with remote_errors(self):
            self._engine().update_stack(**arguments)
        return {TARGET_ACTION: self.UPDATE}

    def _converge(self) -> bool:
        return bool(getattr(self.stack, "converge", False))

    def update_child(self) -> dict[str, Any]:
        """Start updating the child to what the resource's properties now say."""
        return self.update_with_template(self.child_template(), self.child_params())

    def _try_rollback(self) -> bool:
        """Roll back an update still running in the child; whether one was running."""
        identity = self.nested_identifier()
        if identity is None:
            return False
        try:
            self._engine().cancel_update(identity, with_rollback=True)
        except exception.NotSupported:
            return False
        state = stack_status(self.stack.database, self.resource_id)
        return state is not None and state.status == self.stack.IN_PROGRESS

    def _check_status_complete(self, expected_action: str) -> bool:
        """Whether the child finished ``expected_action``; its failure is the resource's."""
        state = stack_status(self.stack.database, self.resource_id)
        if state is None:
            # A child being created may not be stored yet; a deleted one may be gone.
            return expected_action == self.DELETE
        if state.action != expected_action:
            return False
        if state.status == self.IN_PROGRESS:
            return False
        if state.status == self.COMPLETE:
            self._nested = None
            return True
        if state.status == self.FAILED:
            raise exception.ResourceFailure(state.status_reason, self, action=state.action)
        raise exception.ResourceUnknownStatus(
            resource_status=state.status,
            status_reason=state.status_reason,
            result="Stack unknown status",
        )

    def check_create_complete(self, token: Any = None) -> bool:
        return self._check_status_complete(self.CREATE)

    def check_adopt_complete(self, token: Any = None) -> bool:
        return self._check_status_complete(self.ADOPT)

    def prepare_abandon(self) -> Any:
        """What an abandon hands over of the resource: its nested stack's own data."""
        nested = self.nested()
        return nested.prepare_abandon() if nested is not None else {}

    def check_update_complete(self, token: Any = None) -> bool:
        target = self.UPDATE
        if isinstance(token, Mapping) and TARGET_ACTION in token:
            target = token[TARGET_ACTION]
        if not self._check_status_complete(target):
            return False
        if isinstance(token, dict) and token.pop(RESTART, False):
            # The empty child exists now: its update starts, and is waited on in turn.
            token.update(self.update_child())
            return False
        return True

    def delete_nested(self) -> None:
        """Ask the engine to delete (or, while abandoning, abandon) the nested stack."""
        identity = self.nested_identifier()
        if identity is None:
            return
        try:
            if self.abandon_in_progress:
                self._engine().abandon_stack(identity)
            else:
                self._engine().delete_stack(identity)
        except exception.EntityNotFound:
            LOG.debug("Nested stack %s already gone", identity.stack_name)

    def handle_delete(self) -> None:
        self.delete_nested()

    def check_delete_complete(self, token: Any = None) -> bool:
        return self._check_status_complete(self.DELETE)

    # Suspend, resume and check act on the child stack as a whole.

    def _child_action(self, verb: str, module_function: str) -> None:
        identity = self.nested_identifier()
        if identity is None:
            raise exception.Error(f"Cannot {verb} {self.name}, stack not created")
        with remote_errors(self):
            self._engine().call("stack_actions", module_function, stack_identity=dict(identity))

    def handle_suspend(self) -> None:
        self._child_action("suspend", "stack_suspend")

    def check_suspend_complete(self, token: Any = None) -> bool:
        return self._check_status_complete(self.SUSPEND)

    def handle_resume(self) -> None:
        self._child_action("resume", "stack_resume")

    def check_resume_complete(self, token: Any = None) -> bool:
        return self._check_status_complete(self.RESUME)

    def handle_check(self) -> None:
        self._child_action("check", "stack_check")

    def check_check_complete(self, token: Any = None) -> bool:
        return self._check_status_complete(self.CHECK)

    def handle_preempt(self) -> None:
        """A newer traversal wants the resource: stop what the child is doing."""
        identity = self.nested_identifier()
        if identity is None:
            return
        LOG.debug("Cancelling %s of %s", self.action, self)
        try:
            self._engine().cancel_update(identity, with_rollback=False)
        except exception.NotSupported:
            LOG.debug("Nested stack %s not in cancellable state", identity.stack_name)

    def _needs_update(
        self,
        after: Any,
        before: Any,
        after_properties: Any,
        before_properties: Any,
        prev_resource: Any,
        check_init_complete: bool = True,
    ) -> bool:
        """Always update an existing child: its own resources decide what changes."""
        if self.resource_id is None:
            _replace_if_needed(self, after_properties, check_init_complete)
        elif self.state == (self.CHECK, self.FAILED):
            state = stack_status(self.stack.database, self.resource_id)
            if state is not None and (state.action, state.status) == (self.CHECK, self.FAILED):
                # A stack check failed: the child's failed resources decide.
                return True
            # Marked unhealthy: the whole child is replaced.
            raise exception.UpdateReplace(str(self))
        return True

    # The nested stack's outputs

    def get_output(self, name: str) -> Any:
        """The value of the nested stack's output ``name`` (NotFound when it has none)."""
        cached = (self._outputs or {}).get(name)
        stale = (
            cached is not None and OUTPUT_ERROR not in cached and cached.get(OUTPUT_VALUE) is None
        )
        if self._outputs is None or stale:
            identity = self.nested_identifier()
            if identity is None:
                return None
            outputs = self._engine().outputs(identity)
            if outputs is None:
                return None
            self._outputs = outputs
        if name not in self._outputs:
            raise exception.NotFound(f"Specified output key {name} not found.")
        output = self._outputs[name]
        if OUTPUT_ERROR in output:
            raise exception.TemplateOutputError(
                resource=self.name, attribute=name, message=output[OUTPUT_ERROR]
            )
        return output.get(OUTPUT_VALUE)

    def _resolve_attribute(self, name: str) -> Any:
        try:
            return self.get_output(name)
        except exception.NotFound:
            raise exception.InvalidTemplateAttribute(resource=self.name, key=name) from None


def _replace_if_needed(resource: Any, after_properties: Any, check_init_complete: bool) -> None:
    """Heat's default reasons to replace a resource rather than update it."""
    if resource.status == resource.FAILED and (
        (resource.action == resource.CHECK and resource.always_replace_on_check_failed)
        or resource.needs_replace_failed()
    ):
        raise exception.UpdateReplace(str(resource))
    if resource.state == (resource.DELETE, resource.COMPLETE):
        raise exception.UpdateReplace(str(resource))
    if check_init_complete and resource.state == (resource.INIT, resource.COMPLETE):
        raise exception.UpdateReplace(str(resource))
    if resource.needs_replace(after_properties):
        raise exception.UpdateReplace(str(resource))
