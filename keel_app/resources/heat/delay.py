"""OS::Heat::Delay: waits a configurable (optionally jittered) time during chosen actions.

``validate`` refuses, when validating strictly, a maximum delay longer than the stack's
timeout. Heat's message there shows the repr of a bound method where the type name is
meant (its ``self.type`` is not called); OpenKeel shows the type name.

The wait is the engine's: the handler's token says when it started and for how long,
and the step is asked again (after ``PollDelay``s of half the time left while that is
long) until the time is up. Heat's RESUME check calls a method Delay does not have and
so always fails; OpenKeel's waits as the other actions do.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from keel_app.common.exception import StackValidationFailed
from keel_app.engine import constraints
from keel_app.engine.environment.support import SupportStatus
from keel_app.engine.properties import Schema
from keel_app.engine.resource import Resource
from keel_app.engine.resource.lifecycle import PollDelay


class Delay(Resource):
    """Pauses before or after the resources around it, by the dependency graph."""

    support_status = SupportStatus(version="11.0.0")
    type_description = """\
A resource that pauses for a configurable delay.

By manipulating the dependency relationships between resources in the
template, a delay can be inserted at an arbitrary point during e.g. stack
creation or deletion. They delay will occur after any resource that it
depends on during CREATE or SUSPEND, and before any resource that it
depends on during DELETE or RESUME. Similarly, it will occur before any
resource that depends on it during CREATE or SUSPEND, and after any
resource thet depends on it during DELETE or RESUME.

If a non-zero maximum jitter is specified, a random amount of jitter -
chosen with uniform probability in the range from 0 to the product of the
maximum jitter value and the jitter multiplier (1s by default) - is added
to the minimum delay time. This can be used, for example, in the scaled
unit of a large scaling group to prevent 'thundering herd' issues.
"""

    ALLOWED_ACTIONS = (Resource.CREATE, Resource.DELETE, Resource.SUSPEND, Resource.RESUME)

    PROPERTIES = (MIN_WAIT_SECS, MAX_JITTER, JITTER_MULTIPLIER_SECS, DELAY_ACTIONS) = (
        "min_wait",
        "max_jitter",
        "jitter_multiplier",
        "actions",
    )

    properties_schema = {
        MIN_WAIT_SECS: Schema(
            Schema.NUMBER,
            "Minimum time in seconds to wait during the specified actions.",
            update_allowed=True,
            default=0,
            constraints=[constraints.Range(min=0)],
        ),
        MAX_JITTER: Schema(
            Schema.NUMBER,
            "Maximum jitter to add to the minimum wait time.",
            update_allowed=True,
            default=0,
            constraints=[constraints.Range(min=0)],
        ),
        JITTER_MULTIPLIER_SECS: Schema(
            Schema.NUMBER,
            "Number of seconds to multiply the maximum jitter value by.",
            update_allowed=True,
            default=1.0,
            constraints=[constraints.Range(min=0)],
        ),
        DELAY_ACTIONS: Schema(
            Schema.LIST,
            "Actions during which the delay will occur.",
            update_allowed=True,
            default=[Resource.CREATE],
            constraints=[constraints.AllowedValues(ALLOWED_ACTIONS)],
        ),
    }

    attributes_schema: dict[str, Any] = {}

    def _delay_parameters(self) -> tuple[Any, Any]:
        """(minimum wait, maximum jitter), in seconds."""
        jitter = self.properties[self.MAX_JITTER] * self.properties[self.JITTER_MULTIPLIER_SECS]
        return self.properties[self.MIN_WAIT_SECS], jitter

    def validate(self) -> Any:
        result = super().validate()
        if not self.stack.strict_validate:
            return result
        minimum, jitter = self._delay_parameters()
        longest = minimum + jitter
        if longest > self.stack.timeout_secs():
            raise StackValidationFailed(
                f"{self.type()} maximum delay {longest}s exceeds stack timeout."
            )
        return result

    def _wait_secs(self, action: str) -> float:
        """The (jittered) seconds to wait during ``action``: none unless it is listed."""
        if action not in self.properties[self.DELAY_ACTIONS]:
            return 0
        minimum, jitter = self._delay_parameters()
        return float(minimum + jitter * random.random())

    def _handle_action(self) -> list[Any]:
        # JSON-able: the token travels in the message that asks again.
        return [self.now().isoformat(), self._wait_secs(self.action)]

    def _check_complete(self, started_at: str, wait_secs: float) -> bool:
        if not wait_secs:
            return True
        elapsed = (self.now() - datetime.datetime.fromisoformat(started_at)).total_seconds()
        if elapsed >= wait_secs:
            return True
        remaining = wait_secs - elapsed
        if remaining >= 4:
            raise PollDelay(int(remaining // 2))
        return False

    def handle_create(self) -> list[Any]:
        return self._handle_action()

    def handle_delete(self) -> list[Any]:
        return self._handle_action()

    def handle_suspend(self) -> list[Any]:
        return self._handle_action()

    def handle_resume(self) -> list[Any]:
        return self._handle_action()

    def check_create_complete(self, token: list[Any]) -> bool:
        return self._check_complete(*token)

    def check_delete_complete(self, token: list[Any]) -> bool:
        return self._check_complete(*token)

    def check_suspend_complete(self, token: list[Any]) -> bool:
        return self._check_complete(*token)

    def check_resume_complete(self, token: list[Any]) -> bool:
        return self._check_complete(*token)
